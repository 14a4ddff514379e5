"""`cloudqual import mlperf-training`, run as a maintainer runs it, on small synthetic rounds.

Every test imports into a copy of the real content, with one synthetic round, v4.0, added to the
mapping: a round no real import writes, so the real records are only ever a bystander. The round
itself is written by `write_round` below: three Lambda systems, two of them cloud, whose run logs
give known times.

Each folder of tests/fixtures/mlperf-bad/ is one golden case: files laid over that round
(`round/`) and over the content (`content/`), the command's arguments where they are not the
default (`args.txt`), and the exact text the command prints (`expected.txt`).
CLOUDQUAL_UPDATE_GOLDEN=training-imports rewrites expected.txt (golden_files.py); read the diff
before committing it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from build import tree_digest
from conftest import ROOT, copy_content
from golden_files import assert_golden
from pydantic import ValidationError

from generator.checks.loader import load_site
from generator.cli import main
from generator.importers.mlperf.mapping import mapping_problems, read_mapping
from generator.importers.mlperf.rounds import read_round
from generator.load.reader import load_text

CASES_FOLDER = ROOT / "tests" / "fixtures" / "mlperf-bad"
CASES = sorted(path for path in CASES_FOLDER.iterdir() if path.is_dir())
ARGS = ["round", "--round", "v4.0", "--content", "content"]
ROUND = "v4.0"
COMMIT = "deadbeef" * 5
VALIDATION = "lambda-nvidia-h100-sxm5-80gb-mlperf-training-v4-0"
ANALYSIS = f"analyses/{VALIDATION}.yaml"
START = 1_700_000_000_000  # the first run's run_start, in ms
PUBLISHED = "2024-06-11"  # the synthetic round's date, as the real v4.0's

# (system, benchmark): how many runs, and the first run's length in ms. Each later run is a
# little longer, by an uneven amount, so the sorted order and the mean are not trivial.
RUNS = {
    ("sys_small", "gpt3"): (3, 600_000),
    ("sys_small", "bert"): (10, 300_000),
    ("sys_large", "gpt3"): (3, 200_000),
    ("sys_onprem", "gpt3"): (3, 500_000),
}
SCALING = {("sys_small", "bert"): 1.1}
# key: (nodes of 8 GPUs, status)
SYSTEMS = {
    "sys_small": (1, "Available cloud"),
    "sys_large": (4, "Available cloud"),
    "sys_onprem": (2, "Available on-premise"),
}


def run_length(first: int, index: int) -> int:
    return first + 977 * index + 13 * (index * index % 7)


def mllog(time_ms: int, event: str, key: str, **metadata: object) -> str:
    entry = {
        "namespace": "",
        "time_ms": time_ms,
        "event_type": event,
        "key": key,
        "value": None,
        "metadata": {"file": "train.py", "lineno": 1, **metadata},
    }
    return f"0: :::MLLOG {json.dumps(entry)}"


def system_json(key: str, nodes: int, status: str) -> str:
    description = {
        "submitter": "Lambda",
        "division": "closed",
        "status": status,
        "system_name": f"Synthetic {key}",
        "number_of_nodes": str(nodes),
        "accelerators_per_node": "8",
        "accelerator_model_name": "NVIDIA H100-SXM5-80GB",
        "framework": "Synthetic 1.0",
    }
    return json.dumps(description, indent=4) + "\n"


def write_log(path: Path, start: int, length: int | None) -> None:
    """A run log: its run started at `start` and stopped `length` ms later, or never stopped."""
    lines = [
        mllog(start - 5000, "INTERVAL_START", "init_start"),
        "training script output that is not an MLLOG line",
        mllog(start, "INTERVAL_START", "run_start"),
        "step 1 loss 3.25",
    ]
    if length is not None:
        lines.append(mllog(start + length, "INTERVAL_END", "run_stop", status="success"))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_round(root: Path) -> Path:
    """The synthetic round: system descriptions, and run logs laid out as MLCommons does."""
    for key, (nodes, status) in SYSTEMS.items():
        path = root / "Lambda" / "systems" / f"{key}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(system_json(key, nodes, status), encoding="utf-8")
    for (key, benchmark), (count, first) in RUNS.items():
        folder = root / "Lambda" / "results" / key / benchmark
        folder.mkdir(parents=True)
        for index in range(count):
            start = START + 10_000_000 * index
            write_log(folder / f"result_{index}.txt", start, run_length(first, index))
        if (key, benchmark) in SCALING:
            scaling = json.dumps({"scaling_factor": SCALING[key, benchmark]})
            (folder / "scaling.json").write_text(scaling + "\n", encoding="utf-8")
    return root


def expected_minutes(key: str, benchmark: str) -> float:
    """MLCommons' rule, step by step: minutes as ms / 60 / 1000, sorted, the fastest and the
    slowest dropped, the rest summed in order and divided, then scaled."""
    count, first = RUNS[key, benchmark]
    minutes = sorted(run_length(first, index) / 60 / 1000 for index in range(count))
    kept = minutes[1:-1]
    mean = sum(kept) * 1.0 / len(kept)
    return mean * SCALING.get((key, benchmark), 1)


@dataclass
class Workspace:
    """A folder holding `round/` and `content/`, the working directory while a test runs."""

    folder: Path

    @property
    def round(self) -> Path:
        return self.folder / "round"

    @property
    def content(self) -> Path:
        return self.folder / "content"

    def digest(self) -> dict[str, str]:
        return tree_digest(self.content)


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    """The synthetic round and a copy of the real content, with the round in its mapping."""
    write_round(tmp_path / "round")
    content = copy_content(ROOT / "content", tmp_path / "content")
    mapping = content / "imports" / "mlperf-training.yaml"
    text = mapping.read_text(encoding="utf-8")
    # The real mapping holds round v4.0 for its date alone (no record is imported from it), so
    # the synthetic round takes its place.
    real = re.search(rf"\n  {re.escape(ROUND)}:\n(    .*\n)+", text)
    assert real is not None and "reviewed:" not in real[0], "v4.0 is imported now: pick another"
    entry = (
        f"\n  {ROUND}:\n"
        f"    repository: https://github.com/mlcommons/training_results_{ROUND}\n"
        f"    commit: {COMMIT}\n    reviewed: 2026-12-02\n"
        f"    published: {{date: {PUBLISHED}, basis: commit, "
        "source: mlperf-training-v4-0-results-commit, grade: program-owner}\n"
    )
    mapping.write_text(text.replace(real[0], entry, 1), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return Workspace(tmp_path)


@dataclass
class Outcome:
    code: int
    out: str
    err: str

    def text(self) -> str:
        """As expected.txt holds it."""
        return f"exit {self.code}\n--- stdout\n{self.out}--- stderr\n{self.err}"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> Outcome:
    """The command, in this process: an exception out of it fails the test as a traceback."""
    capsys.readouterr()
    code = main(["import", "mlperf-training", *(args or ARGS)])
    printed = capsys.readouterr()
    assert "Traceback" not in printed.err
    return Outcome(code, printed.out, printed.err)


def lay_over(workspace: Workspace, case: Path) -> list[str]:
    """Lay a case's files over the round and the content; its arguments."""
    for part in ("round", "content"):
        overlay = case / part
        for path in sorted(overlay.rglob("*")) if overlay.is_dir() else ():
            if path.is_file():
                target = workspace.folder / part / path.relative_to(overlay)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(path.read_bytes())
    arguments = case / "args.txt"
    return arguments.read_text(encoding="utf-8").split() if arguments.is_file() else ARGS


def written(
    workspace: Workspace, path: str = f"validations/{VALIDATION}.yaml"
) -> dict[str, object]:
    """An imported record as the project's loader reads it."""
    full = workspace.content / path
    document, problems = load_text(path, full.read_bytes())
    assert document is not None, problems
    assert isinstance(document.value, dict)
    return document.value


def golden(name: str) -> Path:
    path = CASES_FOLDER / name
    assert path.is_dir(), name
    return path


# --- golden cases --------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_import_prints_exactly(
    case: Path, workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = lay_over(workspace, case)
    before = workspace.digest()
    outcome = run(capsys, *arguments)
    assert_golden("training-imports", case / "expected.txt", outcome.text())
    if outcome.code != 0:
        # A failed import writes nothing: not a byte, not a partial file.
        assert outcome.err.endswith("; nothing was written.\n")
        assert workspace.digest() == before
    else:
        assert "nothing was written" not in outcome.err


@pytest.mark.slow
@pytest.mark.parametrize("name", ["system-json-too-deep", "log-cannot-be-read", "path-missing"])
def test_the_command_itself_prints_no_traceback(name: str, workspace: Workspace) -> None:
    # The command in its own process, on a case of each way in which reading fails.
    arguments = lay_over(workspace, golden(name))
    result = subprocess.run(
        [sys.executable, "-m", "generator.cli", "import", "mlperf-training", *arguments],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert "Traceback" not in result.stderr, result.stderr
    expected = (golden(name) / "expected.txt").read_text(encoding="utf-8")
    assert Outcome(result.returncode, result.stdout, result.stderr).text() == expected


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its mode")
def test_a_log_without_read_permission_is_incomplete(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    log = workspace.round / "Lambda" / "results" / "sys_large" / "gpt3" / "result_1.txt"
    log.chmod(0)
    outcome = run(capsys)
    assert outcome.code == 0
    assert (
        "invalid: Lambda/results/sys_large/gpt3: incomplete: "
        "Lambda/results/sys_large/gpt3/result_1.txt cannot be read: Permission denied\n"
    ) in outcome.out


# --- what a case writes --------------------------------------------------------------------------


def measurements(workspace: Workspace) -> dict[tuple[str, str], dict[str, object]]:
    found = written(workspace)["measurements"]
    assert isinstance(found, list)
    return {(m["system"], m["benchmark"]): m for m in found}


@pytest.mark.slow
def test_a_dropped_run_is_named_in_the_measurement_note(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, *lay_over(workspace, golden("malformed-mllog-line"))).code == 0
    measured = measurements(workspace)["sys_small", "gpt3"]
    # The run converged, so the note says so, and what it would score with the line skipped:
    # the three runs' middle one, this run itself.
    skipped = run_length(600_000, 1) / 60 / 1000
    assert measured["note"] == (
        "1 run of 3 converged (run_stop status success) but does not count: a line of its log "
        "does not parse as an MLLOG entry (Lambda/results/sys_small/gpt3/result_1.txt:4: a "
        "malformed MLLOG line), so MLCommons' reference summarizer, whose compliance check fails "
        "such a log, scores the result without it, as if it had not converged. Counted with "
        f"that line skipped, the result would be {skipped:.2f} min."
    )
    # The malformed run counts as the slowest: of the other two, the faster is dropped.
    assert measured["value"] == run_length(600_000, 2) / 60 / 1000


@pytest.mark.slow
def test_two_runs_not_converged_make_an_invalid_result_not_a_score(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, *lay_over(workspace, golden("two-runs-not-converged"))).code == 0
    record = written(workspace)
    assert ("sys_small", "gpt3") not in measurements(workspace)
    assert set(measurements(workspace)) == {("sys_small", "bert"), ("sys_large", "gpt3")}
    assert record["invalid"] == [
        {
            "source": "mlperf-training-v4-0-lambda-sys-small",
            "grade": "program-owner",
            "system": "sys_small",
            "benchmark": "gpt3",
            "reason": (
                "Lambda/results/sys_small/gpt3: 2 runs did not converge, and the rules allow at "
                "most 1: Lambda/results/sys_small/gpt3/result_0.txt:5: run_stop status 'aborted', "
                "not 'success'; Lambda/results/sys_small/gpt3/result_2.txt:5: run_stop status "
                "'aborted', not 'success'"
            ),
        }
    ]
    site = load_site(workspace.content)
    assert [r.benchmark for r in site.validations[VALIDATION].invalid] == ["gpt3"]


@pytest.mark.slow
def test_old_status_spellings(workspace: Workspace, capsys: pytest.CaptureFixture[str]) -> None:
    # `cloud` and `Cloud` are Available cloud, as MLCommons' summarizer reads them; `onprem` is
    # Available on-premise, and not imported.
    assert run(capsys, *lay_over(workspace, golden("old-status-spellings"))).code == 0
    systems = written(workspace)["systems"]
    assert isinstance(systems, list)
    assert [(s["key"], s["status"]) for s in systems] == [
        ("sys_small", "Available cloud"),
        ("sys_large", "Available cloud"),
    ]
    assert not (
        workspace.content / "sources" / "mlperf-training-v4-0-lambda-sys-onprem.yaml"
    ).exists()


@pytest.mark.slow
def test_minutes_round_trip_exactly(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys).code == 0
    computed = {
        (s.system.key, s.benchmark): s.minutes for s in read_round(workspace.round, "4.0").scores
    }
    in_yaml = {key: m["value"] for key, m in measurements(workspace).items()}
    site = load_site(workspace.content)
    loaded = {(m.system, m.benchmark): m.value for m in site.validations[VALIDATION].measurements}
    assert set(in_yaml) == {("sys_small", "gpt3"), ("sys_small", "bert"), ("sys_large", "gpt3")}
    for key, value in in_yaml.items():
        assert isinstance(value, float)
        assert value == computed[key] == loaded[key] == expected_minutes(*key), key
    # Not a round number: the test would prove nothing if every value printed short.
    assert len(repr(in_yaml["sys_small", "bert"])) > 10


# --- re-import and --check -----------------------------------------------------------------------


@pytest.mark.slow
def test_reimport_changes_no_byte_and_check_says_current(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    real = workspace.digest()
    first = run(capsys)
    assert first.code == 0, first.err
    assert first.out.endswith("wrote 3 files, removed 0; 1 unchanged\n")
    after_first = workspace.digest()
    # Only the round's own files are new; the real records, the hand-written provider among
    # them, are as they were.
    assert {path for path in after_first if path not in real} == {
        f"validations/{VALIDATION}.yaml",
        "sources/mlperf-training-v4-0-lambda-sys-small.yaml",
        "sources/mlperf-training-v4-0-lambda-sys-large.yaml",
    }
    assert {path: after_first[path] for path in real} == real
    again = run(capsys)
    assert again.code == 0
    assert again.out.endswith("wrote 0 files, removed 0; 4 unchanged\n")
    assert workspace.digest() == after_first
    check = run(capsys, *ARGS, "--check")
    assert (check.code, check.err) == (0, "")
    assert check.out.endswith("--check: content/ is what the import writes.\n")


@pytest.mark.slow
def test_check_names_a_hand_edited_an_added_and_a_removed_file(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys).code == 0
    imported = workspace.digest()
    validation = workspace.content / "validations" / f"{VALIDATION}.yaml"
    edited = validation.read_text(encoding="utf-8").replace("value: ", "value: 1", 1)
    validation.write_text(edited, encoding="utf-8")
    check = run(capsys, *ARGS, "--check")
    assert check.code == 1
    assert check.err == f"stale: content/validations/{VALIDATION}.yaml\n"
    assert check.out.endswith("--check: 1 file differs from what the import would write.\n")
    assert (
        workspace.digest()[f"validations/{VALIDATION}.yaml"]
        != imported[f"validations/{VALIDATION}.yaml"]
    ), "--check wrote the file back"
    assert run(capsys).code == 0  # the import puts it back
    assert workspace.digest() == imported

    # A new system adds its source and changes the validation; a system gone removes its own.
    new = workspace.round / "Lambda" / "systems" / "sys_huge.json"
    new.write_text(system_json("sys_huge", 16, "Available cloud"), encoding="utf-8")
    (workspace.round / "Lambda" / "results" / "sys_large").rename(
        workspace.round / "Lambda" / "results" / "sys_huge"
    )
    (workspace.round / "Lambda" / "systems" / "sys_large.json").unlink()
    check = run(capsys, *ARGS, "--check")
    assert check.code == 1
    assert check.err.splitlines() == [
        "stale: content/sources/mlperf-training-v4-0-lambda-sys-huge.yaml",
        "stale: content/sources/mlperf-training-v4-0-lambda-sys-large.yaml",
        f"stale: content/validations/{VALIDATION}.yaml",
    ]
    assert workspace.digest() == imported
    reimport = run(capsys)
    assert reimport.code == 0
    assert reimport.out.endswith("wrote 2 files, removed 1; 2 unchanged\n")
    now = workspace.digest()
    assert "sources/mlperf-training-v4-0-lambda-sys-large.yaml" not in now
    assert "sources/mlperf-training-v4-0-lambda-sys-huge.yaml" in now
    # Nothing else moved: no other round's file, no hand-written record.
    changed = {path for path in {*imported, *now} if imported.get(path) != now.get(path)}
    assert changed == {
        "sources/mlperf-training-v4-0-lambda-sys-large.yaml",
        "sources/mlperf-training-v4-0-lambda-sys-huge.yaml",
        f"validations/{VALIDATION}.yaml",
    }
    assert run(capsys, *ARGS, "--check").code == 0


@pytest.mark.slow
def test_a_round_with_no_cloud_system_left_removes_only_its_own_files(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys).code == 0
    imported = workspace.digest()
    for key in ("sys_small", "sys_large"):
        path = workspace.round / "Lambda" / "systems" / f"{key}.json"
        path.write_text(system_json(key, 1, "Available on-premise"), encoding="utf-8")
    outcome = run(capsys)
    assert outcome.code == 0, outcome.err
    assert outcome.out.endswith("wrote 0 files, removed 3; 0 unchanged\n")
    now = workspace.digest()
    assert set(imported) - set(now) == {
        f"validations/{VALIDATION}.yaml",
        "sources/mlperf-training-v4-0-lambda-sys-small.yaml",
        "sources/mlperf-training-v4-0-lambda-sys-large.yaml",
    }
    assert {path: imported[path] for path in now} == now


# --- hand-written analysis and records -----------------------------------------------------------


@pytest.mark.slow
def test_analysis_survives_reimport_and_shows_in_the_site(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = lay_over(workspace, golden("analysis-kept"))
    analysis = (workspace.content / ANALYSIS).read_bytes()
    assert run(capsys, *arguments).code == 0
    # Changed input: the import rewrites its own validation, and leaves the analysis be.
    (workspace.round / "Lambda" / "results" / "sys_large" / "gpt3" / "result_0.txt").unlink()
    (workspace.round / "Lambda" / "results" / "sys_small" / "bert" / "scaling.json").unlink()
    assert run(capsys, *arguments).code == 0
    assert run(capsys, *arguments).code == 0
    assert (workspace.content / ANALYSIS).read_bytes() == analysis
    validation = load_site(workspace.content).validations[VALIDATION]
    assert validation.claims[-1].text == (
        "The synthetic systems differ only in their number of nodes."
    )
    assert [c.id for c in validation.caveats] == ["synthetic-round"]
    margin = validation.evidence["margin-computable"]
    assert (margin.answer, margin.source) == ("no", "mlperf-training-rules")
    throughput = validation.evidence["per-model-throughput"]
    assert throughput.answer == "yes"  # the import's answer, untouched
    record = written(workspace)
    assert record["invalid"] != []  # sys_large's gpt3 is incomplete now
    assert "caveats" not in record


@pytest.mark.slow
def test_check_refuses_an_analysis_that_overwrites_an_imported_answer(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys).code == 0
    lay_over(workspace, golden("analysis-answers-an-answered-question"))
    assert main(["check", "--content", "content"]) == 1
    printed = capsys.readouterr().err.splitlines()
    assert printed[0] == (
        f"content/{ANALYSIS}:7:3: evidence.per-model-throughput: expected answers only to "
        f"questions that content/validations/{VALIDATION}.yaml answers not-stated, found one to "
        "'per-model-throughput', which it answers 'yes': an analysis never overwrites a fact"
    )
    assert len(printed) == 2


@pytest.mark.slow
def test_a_hand_written_provider_is_kept(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    provider = workspace.content / "providers" / "lambda.yaml"
    hand_written = provider.read_bytes()
    assert b"Written by" not in hand_written.split(b"\n")[1]
    assert run(capsys).code == 0
    assert provider.read_bytes() == hand_written
    assert str(written(workspace)["summary"]).startswith("Lambda's MLPerf Training v4.0 results")


@pytest.mark.slow
def test_an_import_that_would_orphan_an_analysis_removes_nothing(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = lay_over(workspace, golden("analysis-kept"))
    assert run(capsys, *arguments).code == 0
    imported = workspace.digest()
    for key in ("sys_small", "sys_large"):
        path = workspace.round / "Lambda" / "systems" / f"{key}.json"
        path.write_text(system_json(key, 1, "Available on-premise"), encoding="utf-8")
    outcome = run(capsys, *arguments)
    assert outcome.code == 1
    assert outcome.err.startswith(f"content/{ANALYSIS}:2:5: id: expected the id of a record in")
    assert workspace.digest() == imported


@pytest.mark.slow
def test_unet3d_drops_four_runs_at_each_end_and_its_note_says_so(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    # unet3d's 40 runs drop four at each end, and up to four runs that do not count stand in for
    # the slowest (training_rules.adoc, "Benchmark specific rules").
    folder = workspace.round / "Lambda" / "results" / "sys_large" / "unet3d"
    folder.mkdir()
    lengths = [run_length(100_000, index) for index in range(38)]
    for index in range(40):
        length = lengths[index] if index < 38 else None
        write_log(folder / f"result_{index}.txt", START + 10_000_000 * index, length)
    outcome = run(capsys)
    assert outcome.code == 0, outcome.err
    shown = "Lambda/results/sys_large/unet3d"
    assert outcome.out.startswith(
        f"dropped run: {shown}/result_38.txt: no run_stop\n"
        f"dropped run: {shown}/result_39.txt: no run_stop\n"
    )
    measured = measurements(workspace)["sys_large", "unet3d"]
    minutes = sorted(length / 60 / 1000 for length in lengths)
    kept = minutes[4:-2]
    assert measured["value"] == sum(kept) * 1.0 / len(kept)
    assert measured["note"] == (
        f"2 of 40 runs did not count ({shown}/result_38.txt: no run_stop; {shown}/result_39.txt: "
        "no run_stop); the rules treat them as the slowest runs, so the 4 fastest and the 2 "
        "slowest of the rest are dropped besides."
    )


@pytest.mark.slow
def test_a_hand_written_platform_is_kept(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    platform = workspace.content / "platforms" / "nvidia-h100-sxm5-80gb.yaml"
    lines = platform.read_text(encoding="utf-8").split("\n")
    assert lines[1].startswith("# Written by `cloudqual import mlperf-training`")
    del lines[1]  # taken over by hand: the import must leave it be from now on
    platform.write_text("\n".join(lines), encoding="utf-8")
    hand_written = platform.read_bytes()
    outcome = run(capsys)
    assert outcome.code == 0, outcome.err
    assert outcome.out.endswith("wrote 3 files, removed 0; 0 unchanged\n")
    assert platform.read_bytes() == hand_written


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["fifo", "symlink"])
def test_a_log_that_is_not_a_regular_file_is_incomplete_and_never_read(
    workspace: Workspace, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    log = workspace.round / "Lambda" / "results" / "sys_large" / "gpt3" / "result_1.txt"
    log.unlink()
    if kind == "fifo":
        os.mkfifo(log)  # reading it would block the import for ever
    else:
        log.symlink_to("/dev/zero")  # reading it would never end
    outcome = run(capsys)
    assert outcome.code == 0
    assert (
        "invalid: Lambda/results/sys_large/gpt3: incomplete: "
        "Lambda/results/sys_large/gpt3/result_1.txt cannot be read: not a regular file\n"
    ) in outcome.out


@pytest.mark.slow
def test_a_run_that_stops_before_it_starts_does_not_count(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    log = workspace.round / "Lambda" / "results" / "sys_small" / "gpt3" / "result_1.txt"
    start = START + 10_000_000
    log.write_text(
        mllog(start, "INTERVAL_START", "run_start")
        + "\n"
        + mllog(start - 60_000, "INTERVAL_END", "run_stop", status="success")
        + "\n",
        encoding="utf-8",
    )
    outcome = run(capsys)
    assert outcome.code == 0
    assert (
        "dropped run: Lambda/results/sys_small/gpt3/result_1.txt:2: run_stop before run_start\n"
    ) in outcome.out
    assert measurements(workspace)["sys_small", "gpt3"]["value"] == run_length(600_000, 2) / 60000


def test_an_excerpt_the_round_does_not_hold_is_named() -> None:
    """A folder the mapping marks as excerpts that the round's folder lacks would mark nothing,
    silently: a typo in it must stop the import, named, not let a log read as whole."""
    mapping = read_mapping(ROOT / "content")
    listed = mapping.excerpt_folders("v6.0")
    assert listed
    makers = frozenset(mapping.makers)
    reading = read_round(ROOT / "tests/fixtures/mlperf/v6.0", "6.0", makers=makers, excerpts=listed)
    # A cloud's results, or a maker's own that a cloud's are set against.
    excerpted = [s for s in (*reading.scores, *reading.references) if s.excerpt]
    assert {s.folder for s in excerpted} == listed
    assert not mapping_problems(reading, mapping, "mlperf-training.yaml", "v6.0")
    for kind in ("scores", "references"):
        held = {s.folder for s in getattr(reading, kind)}
        gone = min(listed & held)
        kept = getattr(reading, kind)
        setattr(reading, kind, [s for s in kept if s.folder != gone])
        problems = mapping_problems(reading, mapping, "mlperf-training.yaml", "v6.0")
        assert [(p.path, p.field) for p in problems] == [("mlperf-training.yaml", "excerpts")]
        assert repr(gone) in problems[0].message
        setattr(reading, kind, kept)


def test_a_statement_on_a_system_the_round_does_not_hold_is_named() -> None:
    """A submitter's own words kept for a system the round lacks would be shown with no result,
    or silently dropped: a typo in its system key stops the import, named."""
    mapping = read_mapping(ROOT / "content")
    makers = frozenset(mapping.makers)
    listed = mapping.excerpt_folders("v6.0")
    reading = read_round(ROOT / "tests/fixtures/mlperf/v6.0", "6.0", makers=makers, excerpts=listed)
    assert any(said.round == "v6.0" for said in mapping.statements)
    assert not mapping_problems(reading, mapping, "mlperf-training.yaml", "v6.0")
    said = next(said for said in mapping.statements if said.round == "v6.0")
    # A mistyped key is named though another key of the statement is right.
    listed = [*(said.systems or []), "b200_n9_typo"]
    mistyped = mapping.model_copy(
        update={"statements": [said.model_copy(update={"systems": listed})]}
    )
    problems = mapping_problems(reading, mistyped, "mlperf-training.yaml", "v6.0")
    assert [(p.path, p.field) for p in problems] == [("mlperf-training.yaml", "statements")]
    assert "'Lambda' on b200_n9_typo" in problems[0].message
    # A submitter the round does not hold, for all its systems.
    stranger = said.model_copy(update={"submitter": "Nobody", "systems": None})
    problems = mapping_problems(
        reading, mapping.model_copy(update={"statements": [stranger]}), "m.yaml", "v6.0"
    )
    assert ["'Nobody' on every system" in p.message for p in problems] == [True]
    # A submitter's words are reported by it: a gap or a stronger grade is refused.
    for grade in ("not-established", "program-owner"):
        with pytest.raises(ValidationError):
            type(said).model_validate(said.model_dump() | {"grade": grade})
