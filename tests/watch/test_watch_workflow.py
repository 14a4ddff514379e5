"""The daily watch workflow's steps, run as the runner runs them, against local git repositories
standing in for MLCommons' and for this project's own, with GitHub's CLI and the import (tested
on its own in test_import.py) standing in: a moved round is pinned, imported and proposed on one
branch and pull request; a new round's missing entries go on one issue; a run with nothing new
changes nothing and opens nothing."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import MINIMAL, ROOT
from test_watch import LAMBDA, _commit, _git, _mapping, _repository
from test_workflows import _run, _step, _workflow

WORKFLOW = ROOT / ".github" / "workflows" / "watch.yml"
TITLE = "cloudqual watch: the mappings lack entries to import a round"

FAKE_GH = """#!/bin/sh
echo "$*" >> "$FAKE_LOG"
case "$*" in
  "pr list "*) echo "$FAKE_PR" ;;
  "issue list "*) echo "$FAKE_ISSUE" ;;
esac
"""
# The import stands in as a change to a record, as an import's is: the step's glue is tested here.
FAKE_IMPORT = """#!/bin/sh
if [ "$1" = import ]; then
  echo "$*" >> "$FAKE_LOG"
  sed -i 's/It passed\\./It passed again./' content/validations/test-validation.yaml
  exit 0
fi
exec "{real}" "$@"
"""


def _project(tmp_path: Path, pinned: str) -> Path:
    """This project's checkout, as the workflow's checkout step leaves it, with its origin."""
    project = tmp_path / "project"
    shutil.copytree(MINIMAL, project / "content")
    _mapping(project / "content", pinned)
    (project / "templates").symlink_to(ROOT / "templates")
    _git(project, "init", "-q", "-b", "main")
    _git(project, "add", "content")
    _git(project, "commit", "-q", "-m", "The content")
    origin = tmp_path / "origin.git"
    _git(tmp_path, "init", "-q", "--bare", str(origin))
    _git(project, "remote", "add", "origin", str(origin))
    _git(project, "push", "-q", "origin", "main")
    bin_folder = project / "bin"
    bin_folder.mkdir()
    (bin_folder / "gh").write_text(FAKE_GH)
    (bin_folder / "gh").chmod(0o755)
    venv = project / ".venv" / "bin"
    venv.mkdir(parents=True)
    real = Path(sys.executable).parent / "cloudqual"
    (venv / "cloudqual").write_text(FAKE_IMPORT.replace("{real}", str(real)))
    (venv / "cloudqual").chmod(0o755)
    return project


def _steps(project: Path, tmp_path: Path, base: Path) -> tuple[list[str], dict[str, str]]:
    job: dict[str, Any] = _workflow(WORKFLOW)["jobs"]["watch"]
    log = tmp_path / "log"
    env = {
        **job["env"],
        "WATCH_BASE": str(base),
        "RUNNER_TEMP": str(tmp_path),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "FAKE_LOG": str(log),
        "FAKE_PR": "",
        "FAKE_ISSUE": "",
        "HOME": str(tmp_path),
        "GIT_AUTHOR_DATE": "2026-12-07T00:00:00Z",
        "GIT_COMMITTER_DATE": "2026-12-07T00:00:00Z",
    }
    for name in (
        "Watch",
        "Import the moved rounds",
        "Open or update the pull request",
        "Open or update the issue",
    ):
        result = _run(_step(job, name), project, env)
        assert result.returncode == 0, (name, result.stdout, result.stderr)
    return (log.read_text().splitlines() if log.exists() else []), env


def test_the_workflow_holds_the_least_it_needs() -> None:
    workflow = _workflow(WORKFLOW)
    assert set(workflow["on"]) == {"schedule", "workflow_dispatch"}
    assert workflow["permissions"] == {}
    (job,) = workflow["jobs"].values()
    assert job["permissions"] == {
        "contents": "write",
        "pull-requests": "write",
        "issues": "write",
    }
    for step in job["steps"]:
        if "uses" in step:
            assert "@" in step["uses"] and len(step["uses"].split("@")[1]) == 40
        assert "${{" not in step.get("run", "")


@pytest.mark.slow
def test_a_moved_round_is_proposed_and_a_new_rounds_lacks_go_on_one_issue(tmp_path: Path) -> None:
    base = tmp_path / "mlcommons"
    v51 = _repository(base, "training_results_v5.1")
    first = _commit(v51, {"Lambda/systems/lambda_8x.json": '{"submitter": "Lambda"}'}, "Results")
    corrected = _commit(v51, {"Lambda/results/x/result_0.txt": "corrected\n"}, "Correct")
    v60 = _repository(base, "training_results_v6.0")
    _commit(
        v60,
        {"Acme/systems/a.json": '{"submitter": "Acme Cloud", "accelerator_model_name": "X9",'
         ' "status": "Available cloud"}'},
        "Results",
    )  # fmt: skip
    project = _project(tmp_path, first)
    calls, _ = _steps(project, tmp_path, base)
    checkout = tmp_path / "watch" / "checkouts" / f"training_results_v5.1-{corrected[:12]}"
    assert calls[0] == f"import mlperf-training {checkout} --round v5.1"
    assert (
        calls[1]
        == "pr list --head watch/rounds --state open --json number --jq .[0].number // empty"
    )
    assert calls[2].startswith("pr create --head watch/rounds --title Rounds MLCommons moved")
    assert calls[3].startswith("issue list --state open --search in:title")
    assert calls[4] == f"issue create --title {TITLE} --body-file {tmp_path}/lacks.md"
    assert len(calls) == 5
    # The branch holds the pin and the import, and nothing else.
    pushed = _git(tmp_path / "origin.git", "diff", "--name-only", "main", "watch/rounds")
    assert pushed.splitlines() == [
        "content/imports/mlperf-training.yaml",
        "content/validations/test-validation.yaml",
    ]
    mapping = _git(
        tmp_path / "origin.git", "show", "watch/rounds:content/imports/mlperf-training.yaml"
    )
    assert f"commit: {corrected}" in mapping
    body = (tmp_path / "body.md").read_text()
    assert "It passed again." in body
    lacks = (tmp_path / "lacks.md").read_text()
    assert lacks.startswith("## mlperf-training v6.0: new at ")
    assert "found 'Acme Cloud': add it under submitters" in lacks
    assert "found 'X9': add it under accelerators" in lacks


@pytest.mark.slow
def test_an_open_pull_request_and_issue_are_updated_not_opened_again(tmp_path: Path) -> None:
    base = tmp_path / "mlcommons"
    v51 = _repository(base, "training_results_v5.1")
    first = _commit(v51, {"Lambda/systems/lambda_8x.json": '{"submitter": "Lambda"}'}, "Results")
    _commit(v51, {"Lambda/results/x/result_0.txt": "corrected\n"}, "Correct")
    _commit(
        _repository(base, "training_results_v6.0"),
        {"Acme/systems/a.json": '{"submitter": "Acme Cloud", "accelerator_model_name": "X9",'
         ' "status": "Available cloud"}'},
        "Results",
    )  # fmt: skip
    project = _project(tmp_path, first)
    job: dict[str, Any] = _workflow(WORKFLOW)["jobs"]["watch"]
    log = tmp_path / "log"
    env = {
        **job["env"], "WATCH_BASE": str(base), "RUNNER_TEMP": str(tmp_path),
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"), "FAKE_LOG": str(log),
        "FAKE_PR": "7", "FAKE_ISSUE": "9", "HOME": str(tmp_path),
    }  # fmt: skip
    for name in ("Watch", "Import the moved rounds", "Open or update the pull request",
                 "Open or update the issue"):  # fmt: skip
        result = _run(_step(job, name), project, env)
        assert result.returncode == 0, (name, result.stderr)
    calls = log.read_text().splitlines()
    assert f"pr edit 7 --body-file {tmp_path}/body.md" in calls
    assert f"issue edit 9 --body-file {tmp_path}/lacks.md" in calls
    assert not [c for c in calls if c.startswith(("pr create", "issue create"))]


@pytest.mark.slow
def test_a_run_with_nothing_new_changes_nothing_and_opens_nothing(tmp_path: Path) -> None:
    base = tmp_path / "mlcommons"
    v51 = _repository(base, "training_results_v5.1")
    first = _commit(v51, {"Lambda/systems/lambda_8x.json": str(LAMBDA)}, "Results")
    project = _project(tmp_path, first)
    before = _git(project, "status", "--porcelain")
    calls, _ = _steps(project, tmp_path, base)
    # The issue list is read, to find an issue to update; nothing is created, edited or pushed.
    assert [c.split(" ")[:2] for c in calls] == [["issue", "list"]]
    assert _git(project, "status", "--porcelain") == before
    assert _git(tmp_path / "origin.git", "branch", "--list").split() == ["main"]
