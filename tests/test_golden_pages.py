"""Golden outputs: every page and data document the minimal content renders to, kept beside its
input (tests/fixtures/minimal/content -> tests/fixtures/minimal/expected), as mkdocs-literate-nav
keeps each case's output beside its input. A change to a template, a view or a document shows
in this folder's diff, where a reviewer reads what a reader will see.

Regenerate after a deliberate change, then read the diff before committing it:

    CLOUDQUAL_UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_golden_pages.py
"""

from __future__ import annotations

import os
import shutil
from datetime import date

import pytest
from conftest import MINIMAL, ROOT

from generator.checks.loader import load_site
from generator.model.policy import Policy
from generator.pipeline.run import site_output

EXPECTED = MINIMAL.parent / "expected"
AS_OF = Policy(as_of=date(2026, 12, 2))
# Drawn by vl-convert, whose bytes move with its release: the chart tests hold the charts, and
# each chart's data table is in its page here.
LEFT_OUT = (".svg",)


def rendered() -> dict[str, bytes]:
    """Every file the minimal content renders to, by its path in the output."""
    output = site_output(load_site(MINIMAL), ROOT / "templates", policy=AS_OF)
    files = {f"pages/{uri}": page.markdown.encode("utf-8") for uri, page in output.pages.items()}
    files |= {f"data/{path}": data for path, data in output.data.items()}
    return {path: data for path, data in files.items() if not path.endswith(LEFT_OUT)}


def expected() -> dict[str, bytes]:
    return {
        path.relative_to(EXPECTED).as_posix(): path.read_bytes()
        for path in sorted(EXPECTED.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module")
def outputs() -> dict[str, bytes]:
    found = rendered()
    if os.environ.get("CLOUDQUAL_UPDATE_GOLDEN"):
        shutil.rmtree(EXPECTED, ignore_errors=True)
        for path, data in found.items():
            (EXPECTED / path).parent.mkdir(parents=True, exist_ok=True)
            (EXPECTED / path).write_bytes(data)
    return found


def test_the_same_files_are_rendered(outputs: dict[str, bytes]) -> None:
    assert sorted(outputs) == sorted(expected())


@pytest.mark.parametrize("path", sorted(expected()))
def test_each_file_is_rendered_exactly(path: str, outputs: dict[str, bytes]) -> None:
    assert path in outputs, f"{path} is no longer rendered"
    if outputs[path] != (EXPECTED / path).read_bytes():
        # The first line that differs, so the failure says where without a wall of text.
        ours = outputs[path].decode("utf-8", "replace").splitlines()
        theirs = (EXPECTED / path).read_text(encoding="utf-8", errors="replace").splitlines()
        line = next(
            (i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b),
            min(len(ours), len(theirs)),
        )
        pytest.fail(
            f"{path}:{line + 1} differs from the golden file:\n"
            f"  expected: {theirs[line] if line < len(theirs) else '(end of file)'}\n"
            f"  rendered: {ours[line] if line < len(ours) else '(end of file)'}\n"
            "If the change is deliberate: CLOUDQUAL_UPDATE_GOLDEN=1 pytest "
            "tests/test_golden_pages.py, and read the diff"
        )
