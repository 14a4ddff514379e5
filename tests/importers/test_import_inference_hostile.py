"""`cloudqual import mlperf-inference` on a hostile round: the trimmed real round v5.1 of
tests/fixtures/mlperf-inference, with one thing broken per case, as a probe broke it. Each case
reads through the importers' one guarded reader (importers/core/folders.py): a file it must not read
is refused before a byte of it is read, a bad value spoils only its own result, a description
that cannot be read leaves only its system out, and every problem names the round's own file.

Each case's exact report is its golden file, tests/fixtures/mlperf-inference-bad/CASE.txt;
CLOUDQUAL_UPDATE_GOLDEN=inference-imports rewrites them (golden_files.py); read the diff before
committing it.
"""

from __future__ import annotations

import resource
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import ROOT, copy_content
from golden_files import assert_golden

from generator.cli import main

FIXTURE = ROOT / "tests" / "fixtures" / "mlperf-inference" / "v5.1"
GOLDEN = ROOT / "tests" / "fixtures" / "mlperf-inference-bad"
LAMBDA = "closed/Lambda/systems/B200-SXM-180GBx8_TRT.json"
RUN = "closed/Lambda/results/B200-SXM-180GBx8_TRT/llama2-70b-99/Offline/performance/run_1"
MAKER_RUN = "closed/NVIDIA/results/B200-SXM-180GBx8_TRT/llama2-70b-99/Offline/performance/run_1"
FIGURE = '"key": "result_tokens_per_second", "value": '


def _edit(path: str, old: str, new: str) -> Callable[[Path, Path], None]:
    def edit(round_dir: Path, outside: Path) -> None:
        target = round_dir / path
        text = target.read_text(encoding="utf-8")
        assert old in text, (path, old)
        target.write_text(text.replace(old, new, 1), encoding="utf-8")

    return edit


def _figure(path: str, value: str) -> Callable[[Path, Path], None]:
    """The run's token rate, in its detail log, set to `value` as written."""

    def edit(round_dir: Path, outside: Path) -> None:
        target = round_dir / path / "mlperf_log_detail.txt"
        lines = target.read_text(encoding="utf-8").splitlines()
        index = next(i for i, line in enumerate(lines) if FIGURE in line)
        head, _, rest = lines[index].partition(FIGURE)
        lines[index] = head + FIGURE + value + rest[rest.index(",") :]
        target.write_text("\n".join(lines) + "\n", encoding="utf-8")

    return edit


def _linked_description(round_dir: Path, outside: Path) -> None:
    """The description a link to a private file outside the round, holding a system name."""
    private = outside / "private.json"
    private.write_text((round_dir / LAMBDA).read_text().replace("NVIDIA DGX B200", "SECRET"))
    (round_dir / LAMBDA).unlink()
    (round_dir / LAMBDA).symlink_to(private)


def _huge_summary(round_dir: Path, outside: Path) -> None:
    """A 400 MB summary log, its detail log gone: sparse, so it costs no disk."""
    run = round_dir / RUN
    (run / "mlperf_log_detail.txt").unlink()
    with (run / "mlperf_log_summary.txt").open("r+b") as stream:
        stream.truncate(400 << 20)


def _deep_line(round_dir: Path, outside: Path) -> None:
    """One MLLOG line nested 100,000 deep, before the real ones."""
    target = round_dir / RUN / "mlperf_log_detail.txt"
    deep = ":::MLLOG " + '{"key": "x", "value": ' + "[" * 100_000 + "]" * 100_000 + "}"
    target.write_text(deep + "\n" + target.read_text(encoding="utf-8"), encoding="utf-8")


def _extra_folder(round_dir: Path, outside: Path) -> None:
    """A model folder the round has no model of, with a run in it."""
    run = round_dir / RUN
    extra = round_dir / RUN.replace("llama2-70b-99", "not_a_model!")
    shutil.copytree(run.parent.parent, extra.parent.parent)


CASES: dict[str, Callable[[Path, Path], None]] = {
    "description-is-a-link-out-of-the-round": _linked_description,
    "summary-log-of-400-mb": _huge_summary,
    "mllog-line-nested-100000-deep": _deep_line,
    "node-count-superscript-two": _edit(LAMBDA, '"number_of_nodes": 1', '"number_of_nodes": "²"'),
    "figure-nan": _figure(RUN, "NaN"),
    "system-name-turns-text-around": _edit(LAMBDA, "NVIDIA DGX B200", "NVIDIA \u202eDGX B200"),
    "extra-model-folder": _extra_folder,
    "figure-negative-or-zero": _figure(RUN, "-5.0"),
    "makers-figure-zero": _figure(MAKER_RUN, "0"),
}


@pytest.fixture
def content(tmp_path: Path) -> Path:
    """The real content with the unbroken round imported: what each case is checked against,
    so its report lists only what the break changed."""
    copied = copy_content(ROOT / "content", tmp_path / "content")
    args = ["import", "mlperf-inference", str(FIXTURE), "--round", "v5.1", "--content", str(copied)]
    assert main(args) == 0
    return copied


def _import(content: Path, round_dir: Path) -> tuple[str, int]:
    """The command as a maintainer runs it, in its own process with a memory cap: a reader that
    loads a 400 MB file whole fails here, as it would fill a small machine."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    command = [
        sys.executable, "-m", "generator.cli", "import", "mlperf-inference", str(round_dir),
        "--round", "v5.1", "--content", str(content), "--check",
    ]  # fmt: skip
    result = subprocess.run(
        command, capture_output=True, text=True, check=False, preexec_fn=cap, timeout=300
    )
    shown = (result.stdout + "--- stderr\n" + result.stderr).replace(str(round_dir), "ROUND")
    return (
        f"exit {result.returncode}\n{shown.replace(str(content.parent), 'TMP')}",
        result.returncode,
    )


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_hostile_round_is_read_as_its_golden_report(
    tmp_path: Path, content: Path, case: str
) -> None:
    round_dir = shutil.copytree(FIXTURE, tmp_path / "round")
    outside = tmp_path / "outside"
    outside.mkdir()
    CASES[case](round_dir, outside)
    text, status = _import(content, round_dir)
    assert "Traceback" not in text
    written = [p.read_text(encoding="utf-8") for p in (content / "validations").glob("*.yaml")]
    assert "SECRET" not in text and not any("SECRET" in record for record in written)
    assert_golden("inference-imports", GOLDEN / f"{case}.txt", text)
    # Nothing a hostile round holds stops the rest of it: the other clouds' records stand.
    assert status in (0, 1) and "nothing was written" not in text
