"""A results folder is untrusted too: files that never end or block, values that break a record,
names that collide, and names written as Markdown. Each spoils at most its own result, never the
round, never the reader; and no name from a folder becomes a link on a page.

The round is test_import's synthetic v4.0 (two cloud systems of Lambda), each case laid over it.
"""

from __future__ import annotations

import json
import os
from datetime import date
from pathlib import Path

import pytest
from test_import import VALIDATION, Workspace, run, workspace, written

from generator.checks.loader import load_site
from generator.model.options import Options
from generator.model.policy import Policy
from generator.pipeline.run import site_output

__all__ = ["workspace"]  # the fixture, used by name

ROUND = Path("round") / "Lambda"


def measurements(workspace: Workspace) -> dict[tuple[str, str], dict[str, object]]:
    found = written(workspace)["measurements"]
    assert isinstance(found, list)
    return {(m["system"], m["benchmark"]): m for m in found}


def invalid(workspace: Workspace) -> dict[tuple[str, str], str]:
    found = written(workspace)["invalid"]
    assert isinstance(found, list)
    return {(r["system"], r["benchmark"]): r["reason"] for r in found}


# --- files that never end, block, or fill memory --------------------------------------------------


@pytest.mark.slow
def test_a_system_description_linked_to_dev_zero_is_left_out_unread(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    path = workspace.folder / ROUND / "systems" / "sys_large.json"
    path.unlink()
    path.symlink_to("/dev/zero")
    outcome = run(capsys)
    assert outcome.code == 0, outcome.err
    assert (
        "left out: Lambda/systems/sys_large.json:1:1: expected a system description as a "
        "regular file, found a symbolic link\n"
    ) in outcome.out
    # The rest of the round is imported.
    assert set(measurements(workspace)) == {("sys_small", "gpt3"), ("sys_small", "bert")}


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["link", "fifo"])
def test_a_scaling_file_that_never_ends_spoils_only_its_result(
    workspace: Workspace, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    path = workspace.folder / ROUND / "results" / "sys_small" / "bert" / "scaling.json"
    path.unlink()
    if kind == "link":
        path.symlink_to("/dev/zero")
    else:
        os.mkfifo(path)  # a read would block for ever
    outcome = run(capsys)
    assert outcome.code == 0, outcome.err
    found = "a symbolic link" if kind == "link" else "a special file"
    assert invalid(workspace) == {
        ("sys_small", "bert"): "Lambda/results/sys_small/bert: scaling.json:1:1: expected a "
        f"scaling.json as a regular file, found {found}"
    }
    assert ("sys_small", "gpt3") in measurements(workspace)


@pytest.mark.slow
def test_a_log_past_the_size_a_log_may_hold_is_not_read(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    log = workspace.folder / ROUND / "results" / "sys_large" / "gpt3" / "result_0.txt"
    with log.open("r+b") as stream:
        stream.truncate(3 << 30)  # 3 GB and no line break: sparse, so the test writes nothing
    outcome = run(capsys)
    assert outcome.code == 0, outcome.err
    assert invalid(workspace) == {
        ("sys_large", "gpt3"): "Lambda/results/sys_large/gpt3: incomplete: "
        "Lambda/results/sys_large/gpt3/result_0.txt cannot be read: 3221225472 bytes, past the "
        "1073741824 a log may hold"
    }


@pytest.mark.slow
def test_a_long_log_without_a_line_break_is_read_a_piece_at_a_time(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    """Under the size limit, a log with no line break is read in pieces of at most 1 MiB: no
    piece is an MLLOG entry, so the run is one that never started."""
    log = workspace.folder / ROUND / "results" / "sys_large" / "gpt3" / "result_0.txt"
    log.write_bytes(b":::MLLOG " + b"x" * (64 << 20))
    outcome = run(capsys)
    assert outcome.code == 0, outcome.err
    assert "result_0.txt:1: a malformed MLLOG line" in outcome.out


# --- one bad value spoils one result --------------------------------------------------------------


@pytest.mark.slow
def test_a_huge_scaling_factor_spoils_only_its_result(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    scaling = workspace.folder / ROUND / "results" / "sys_small" / "bert" / "scaling.json"
    scaling.write_text('{"scaling_factor": 1e308}\n', encoding="utf-8")
    outcome = run(capsys)
    assert outcome.code == 0, outcome.err
    assert invalid(workspace) == {
        ("sys_small", "bert"): "Lambda/results/sys_small/bert: scaling.json:1:2: expected a "
        "positive number of at most 1000, found 1e+308"
    }
    assert ("sys_small", "gpt3") in measurements(workspace)


@pytest.mark.slow
def test_a_status_past_a_names_length_leaves_its_system_out(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    path = workspace.folder / ROUND / "systems" / "sys_large.json"
    description = json.loads(path.read_text(encoding="utf-8"))
    description["status"] = "Available cloud " + "x" * 5000
    path.write_text(json.dumps(description, indent=4), encoding="utf-8")
    outcome = run(capsys)
    assert outcome.code == 0, outcome.err
    assert (
        "left out: Lambda/systems/sys_large.json:4:5: status: expected text of at most 500 "
        "characters, found 5016\n"
    ) in outcome.out
    assert set(measurements(workspace)) == {("sys_small", "gpt3"), ("sys_small", "bert")}


# --- names that collide, and names written as Markdown --------------------------------------------


@pytest.mark.slow
def test_two_system_files_whose_ids_would_collide_cite_their_own_descriptions(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    """`Sys_A.json` and `sys-a.json` both read as the id ...-sys-a: each keeps a source of its
    own, and each measurement cites its own system's description."""
    lambda_ = workspace.folder / ROUND
    for old, new in (("sys_small", "Sys_A"), ("sys_large", "sys-a")):
        (lambda_ / "systems" / f"{old}.json").rename(lambda_ / "systems" / f"{new}.json")
        (lambda_ / "results" / old).rename(lambda_ / "results" / new)
    outcome = run(capsys)
    assert outcome.code == 0, outcome.err
    found = measurements(workspace)
    cited = {key: str(m["source"]) for key, m in found.items()}
    assert cited[("Sys_A", "gpt3")] != cited[("sys-a", "gpt3")]
    for (system, _), source in cited.items():
        text = (workspace.content / "sources" / f"{source}.yaml").read_text(encoding="utf-8")
        assert f"Lambda/systems/{system}.json" in text


HOSTILE = "[Official_MLCommons_results](http:evil.example)"


@pytest.mark.slow
def test_a_name_from_a_results_folder_is_never_a_link(
    workspace: Workspace, capsys: pytest.CaptureFixture[str]
) -> None:
    """A submitter's name and a system's file name are plain text on every page, even where the
    site writes them into sentences it renders as Markdown and attributes to MLCommons."""
    lambda_ = workspace.folder / ROUND
    mapping = workspace.content / "imports" / "mlperf-training.yaml"
    text = mapping.read_text(encoding="utf-8")
    mapping.write_text(text.replace("  Lambda:\n", f"  '{HOSTILE}':\n", 1), encoding="utf-8")
    for path in (lambda_ / "systems").glob("*.json"):
        description = json.loads(path.read_text(encoding="utf-8"))
        description["submitter"] = HOSTILE
        path.write_text(json.dumps(description), encoding="utf-8")
    outcome = run(capsys)
    assert outcome.code == 0, outcome.err
    record = written(workspace)
    assert HOSTILE not in str(record["summary"])  # escaped, as Markdown must hold it
    site = load_site(workspace.content)
    output = site_output(
        site, Options(Path(__file__).parents[2] / "templates", Policy(date(2026, 12, 4)))
    )
    page = output.pages[f"validations/{VALIDATION}.md"].markdown
    sources = [p.markdown for uri, p in output.pages.items() if "evil" in p.markdown]
    assert "Official_MLCommons_results" in page
    for markdown in [page, *sources]:
        assert 'href="http:evil.example"' not in markdown
        assert '<a href="http:evil' not in markdown
