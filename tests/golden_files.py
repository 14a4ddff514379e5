"""Golden files: the exact text or bytes a command must print or write, kept in the repository
beside the input it comes from. Every golden test holds its output to its file through
`assert_golden`; a golden that is a whole folder is rewritten through `rewrite_folder`.

After a deliberate change, one switch rewrites them, by kind, then read the diff before
committing it:

    CLOUDQUAL_UPDATE_GOLDEN=pages .venv/bin/pytest tests/render/test_golden_pages.py
    CLOUDQUAL_UPDATE_GOLDEN=checks,diffs .venv/bin/pytest tests/checks/test_golden.py \
        tests/publish/test_diff.py
    CLOUDQUAL_UPDATE_GOLDEN=1 .venv/bin/pytest      # every kind

A kind the switch names that is not one of KINDS stops the run before a file is written.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from pathlib import Path

import pytest
from conftest import ROOT

SWITCH = "CLOUDQUAL_UPDATE_GOLDEN"

# Each kind of golden file, and what its files hold.
KINDS = {
    "checks": "tests/golden/*/expected.txt: the problems `cloudqual check` prints for bad content",
    "training-imports": (
        "tests/fixtures/mlperf-bad/*/expected.txt and tests/fixtures/mlperf/*.expected.txt: "
        "what `cloudqual import mlperf-training` prints"
    ),
    "inference-imports": (
        "tests/fixtures/mlperf-inference-bad/*.txt: what `cloudqual import mlperf-inference` "
        "prints of a hostile round"
    ),
    "diffs": "tests/fixtures/diff/*.md: the report `cloudqual diff` writes for a pull request",
    "pages": "tests/fixtures/*/expected/: the pages and data documents a content folder renders to",
}
ALL = ("1", "all")
# Lines of a unified diff a failure shows: enough to read the change, not a wall of text.
DIFF_LINES = 40


def _kinds_rewritten(switch: str) -> frozenset[str]:
    """The kinds `switch` (the variable's value) rewrites; a kind it misspells stops the run."""
    if switch.strip() in ("", "0"):
        return frozenset()
    if switch.strip() in ALL:
        return frozenset(KINDS)
    named = {word.strip() for word in switch.split(",") if word.strip()}
    for kind in sorted(named - set(KINDS)):
        near = difflib.get_close_matches(kind, KINDS, n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        raise pytest.UsageError(
            f"{SWITCH}={switch}: expected 1, all, or kinds of golden file separated by commas, "
            f"found {kind!r}{hint}. The kinds:\n"
            + "\n".join(f"  {name}: {holds}" for name, holds in KINDS.items())
        )
    return frozenset(named)


REWRITTEN = _kinds_rewritten(os.environ.get(SWITCH, ""))


def rewrites(kind: str) -> bool:
    """Whether this run rewrites the golden files of `kind`."""
    assert kind in KINDS, f"{kind!r} is not a kind of golden file: add it to KINDS"
    return kind in REWRITTEN


def assert_golden(kind: str, golden: Path, found: str | bytes) -> None:
    """Hold `found` to the golden file, text to its UTF-8 text and bytes to its bytes; with the
    switch on for `kind`, the file is rewritten with `found` first."""
    ours = found.encode("utf-8") if isinstance(found, str) else found
    if rewrites(kind):
        _write(golden, ours)
    # The running test's file, as pytest names it: "tests/publish/test_diff.py::test_... (call)".
    test_file = os.environ.get("PYTEST_CURRENT_TEST", "").partition("::")[0]
    again = f"If the change is deliberate: {SWITCH}={kind} .venv/bin/pytest {test_file}".rstrip()
    if not golden.is_file():
        pytest.fail(f"{golden.relative_to(ROOT)} does not exist. {again}", pytrace=False)
    expected = golden.read_bytes()
    if ours != expected:
        pytest.fail(
            f"{golden.relative_to(ROOT)} differs from what was found "
            f"(- golden, + found):\n{_diff(expected, ours)}\n{again}, and read the diff",
            pytrace=False,
        )


def rewrite_folder(kind: str, folder: Path, files: Mapping[str, bytes]) -> None:
    """With the switch on for `kind`, make `folder` hold exactly `files`, by their paths in it:
    a golden that is a whole folder loses the files no longer found, as well as gaining new ones.
    Rewrite in one process: the workers of `pytest -n` would race to."""
    if not rewrites(kind):
        return
    for path, data in files.items():
        _write(folder / path, data)
    for stale in sorted(folder.rglob("*"), reverse=True):  # a folder after what it holds
        if stale.is_file() and stale.relative_to(folder).as_posix() not in files:
            stale.unlink()
        elif stale.is_dir() and not any(stale.iterdir()):
            stale.rmdir()


def _write(golden: Path, data: bytes) -> None:
    """Write a golden file, only where it differs: a file left as it was keeps its time."""
    if not golden.is_file() or golden.read_bytes() != data:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(data)


def _diff(expected: bytes, found: bytes) -> str:
    lines = list(
        difflib.unified_diff(
            expected.decode("utf-8", "replace").splitlines(),
            found.decode("utf-8", "replace").splitlines(),
            lineterm="",
            n=1,
        )
    )[2:]  # not the two lines naming the files
    if not lines:  # only line endings or a final newline differ
        return f"  the bytes differ: {len(expected)} golden, {len(found)} found"
    shown = lines[:DIFF_LINES]
    more = len(lines) - len(shown)
    return "\n".join(shown) + (f"\n... and {more} more lines" if more else "")
