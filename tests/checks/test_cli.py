"""The contributor's commands: `cloudqual check`, `new` and `schema`, run as a contributor would."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from build import main_text, make_project, mkdocs_build
from conftest import MINIMAL, ROOT, copy_content

from generator.cli import main
from generator.engines import project
from generator.model.kinds import KINDS

GOLDEN = sorted(path for path in (ROOT / "tests" / "golden").iterdir() if path.is_dir())


@pytest.mark.parametrize("case", GOLDEN, ids=[case.name for case in GOLDEN])
def test_check_reports_each_broken_file_exactly(
    case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content = copy_content(MINIMAL, tmp_path / "content", case / "content")
    code = main(["check", "--content", str(content)])
    printed = capsys.readouterr().err.splitlines()
    expected = (case / "expected.txt").read_text(encoding="utf-8").splitlines()[:-1]
    assert code == 1
    assert printed[:-1] == expected  # file:line:col: field: message, each one
    assert re.fullmatch(
        r"cloudqual check: all files checked: \d+ errors, \d+ warnings\.", printed[-1]
    )


def test_check_passes_real_content(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--content", str(ROOT / "content")]) == 0
    assert "0 errors, 0 warnings" in capsys.readouterr().out


def unanswered_question(content: Path) -> None:
    """Add a question the fixture's validation does not answer: a warning, and no error."""
    question = content / "questions" / "test-question.yaml"
    text = question.read_text(encoding="utf-8").replace("test-question", "unanswered-question")
    (content / "questions" / "unanswered-question.yaml").write_text(text, encoding="utf-8")


WARNING = (
    "content/validations/test-validation.yaml:36:1: warning: evidence: expected an answer to the "
    "evidence question 'unanswered-question', found none (answer not-stated if no source says)"
)


def test_check_fails_on_a_warning_as_the_strict_build_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `mkdocs build --strict` fails on this same warning (test_untrusted.py, "content warning
    # under strict"), so a check that passed it would promise a build that cannot happen.
    content = copy_content(MINIMAL, tmp_path / "content")
    unanswered_question(content)
    assert main(["check", "--content", str(content)]) == 1
    printed = capsys.readouterr()
    assert printed.out == ""
    assert printed.err.splitlines() == [
        WARNING,
        "cloudqual check: 11 files checked: 0 errors, 1 warnings.",
    ]
    # Checking only files without the warning still passes.
    clean = content / "questions" / "test-question.yaml"
    assert main(["check", "--content", str(content), str(clean)]) == 0
    assert capsys.readouterr().out == "cloudqual check: 1 file checked: 0 errors, 0 warnings.\n"


def test_github_format_fails_on_a_warning_and_annotates_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    content = copy_content(MINIMAL, tmp_path / "content")
    unanswered_question(content)
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    assert main(["check", "--content", str(content), "--format", "github"]) == 1
    printed = capsys.readouterr()
    out = printed.out.splitlines()
    assert out[0].startswith(
        "::warning file=content/validations/test-validation.yaml,line=36,col=1,"
        "title=cloudqual%3A evidence::expected an answer to the evidence question"
    )
    assert out[2:-1] == [WARNING]
    assert printed.err == "cloudqual check: 11 files checked: 0 errors, 1 warnings.\n"
    assert "## cloudqual check: 0 errors, 1 warnings" in summary.read_text(encoding="utf-8")


def test_check_reports_only_the_given_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content = copy_content(MINIMAL, tmp_path / "content", GOLDEN_CASE("errors-in-two-files"))
    provider = content / "providers" / "test-provider.yaml"
    assert main(["check", "--content", str(content), str(provider)]) == 1
    printed = capsys.readouterr().err.splitlines()
    assert [line.split(":")[0] for line in printed[:-1]] == ["content/providers/test-provider.yaml"]
    assert printed[-1] == "cloudqual check: 1 file checked: 1 errors, 0 warnings."
    clean = content / "questions" / "test-question.yaml"
    assert main(["check", "--content", str(content), str(clean)]) == 0
    assert main(["check", "--content", str(content), str(tmp_path / "missing.yaml")]) == 2
    assert "expected a record file under" in capsys.readouterr().err


def GOLDEN_CASE(name: str) -> Path:
    return ROOT / "tests" / "golden" / name / "content"


def test_github_format_annotates_and_summarizes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    content = copy_content(MINIMAL, tmp_path / "content", GOLDEN_CASE("misspelled-field"))
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    assert main(["check", "--content", str(content), "--format", "github"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == (
        "::error file=content/validations/test-validation.yaml,line=2,col=1,"
        "title=cloudqual%3A summary::expected this required field, found it missing"
    )
    assert out[1].startswith(
        "::error file=content/validations/test-validation.yaml,line=11,col=1,title=cloudqual%3A "
        "sumary::expected one of the fields accelerator_noun, announced, caveats,"
    )
    # Then the plain lines, in a region where the runner ignores workflow commands.
    assert re.fullmatch(r"::stop-commands::[0-9a-f]{32}", out[2])
    assert out[3:5] == [
        "content/validations/test-validation.yaml:2:1: summary: "
        "expected this required field, found it missing",
        "content/validations/test-validation.yaml:11:1: sumary: expected one of the fields "
        + out[1].split("::expected one of the fields ")[1],
    ]
    assert out[5:] == [f"::{out[2].removeprefix('::stop-commands::')}::"]
    written = summary.read_text(encoding="utf-8")
    assert "## cloudqual check: 2 errors, 0 warnings" in written
    assert "| error | `content/validations/test-validation.yaml:11:1` | `sumary` |" in written


def test_new_refuses_bad_kind_bad_id_and_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content = copy_content(MINIMAL, tmp_path / "content")
    assert main(["new", "validation", "x-y", "--content", str(content)]) == 2
    assert "did you mean 'validations'?" in capsys.readouterr().err
    assert main(["new", "validations", "Bad_Id", "--content", str(content)]) == 2
    existing = content / "validations" / "test-validation.yaml"
    before = existing.read_bytes()
    assert main(["new", "validations", "test-validation", "--content", str(content)]) == 1
    assert existing.read_bytes() == before


@pytest.mark.parametrize("kind", list(KINDS))
def test_new_writes_every_kind_with_modeline_and_no_guesses(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content = copy_content(MINIMAL, tmp_path / "content")
    assert main(["new", kind, "fresh-record", "--content", str(content)]) == 0
    text = (content / kind / "fresh-record.yaml").read_text(encoding="utf-8")
    assert text.startswith(f"# yaml-language-server: $schema=../../schemas/{kind}.schema.json\n")
    assert "id: fresh-record\n" in text
    # Unfilled, it must fail the check, with positions in the new file.
    capsys.readouterr()
    assert main(["check", "--content", str(content)]) == 1
    problems = capsys.readouterr().err
    assert f"content/{kind}/fresh-record.yaml:" in problems


FILLED = {
    'provider: ""': "provider: test-provider",
    'program: ""': "program: test-program",
    'summary: ""': "summary: Made with cloudqual new, then filled in.",
    'source: ""': "source: test-source",
    'grade: ""': "grade: provider-reported",
    'result: ""': "result: pass",
    'text: ""': "text: It passed.",
    'answer: ""': "answer: not-stated",
    "claims: []": "claims:\n  - {text: It passed., grade: provider-reported, source: test-source}",
}


@pytest.mark.build
def test_new_record_filled_in_passes_check_and_is_built(tmp_path: Path) -> None:
    project = make_project(tmp_path / "project", MINIMAL)
    cli = [sys.executable, "-m", "generator.cli"]
    made = subprocess.run(
        [*cli, "new", "validations", "acme-hgx-b300-exemplar"],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    record = project / "content" / "validations" / "acme-hgx-b300-exemplar.yaml"
    text = record.read_text(encoding="utf-8")
    for placeholder, value in FILLED.items():
        assert placeholder in text, placeholder
        text = text.replace(placeholder, value)
    record.write_text(text, encoding="utf-8")
    checked = subprocess.run(
        [*cli, "check", str(record.relative_to(project))],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr
    built = mkdocs_build(project)
    assert built.returncode == 0, built.stderr
    page = project / "site" / "validations" / "acme-hgx-b300-exemplar" / "index.html"
    assert "Made with cloudqual new, then filled in." in main_text(page.read_text())


def test_schema_command_writes_what_is_committed(tmp_path: Path) -> None:
    assert main(["schema", "--out", str(tmp_path)]) == 0
    for path in tmp_path.iterdir():
        assert path.read_text() == (ROOT / "schemas" / path.name).read_text()


@pytest.mark.slow
def test_check_jsonschema_accepts_content_and_rejects_a_broken_record(tmp_path: Path) -> None:
    tool = shutil.which("check-jsonschema", path=str(Path(sys.executable).parent))
    assert tool is not None
    for kind in KINDS:
        files = sorted(str(p) for p in (ROOT / "content" / kind).glob("*.yaml"))
        if not files:
            continue  # content holds no record of this kind yet
        result = subprocess.run(
            [tool, "--schemafile", str(ROOT / "schemas" / f"{kind}.schema.json"), *files],
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stdout + result.stderr
    broken = tmp_path / "broken.yaml"
    broken.write_text(
        (GOLDEN_CASE("misspelled-field") / "validations" / "test-validation.yaml").read_text()
    )
    result = subprocess.run(
        [tool, "--schemafile", str(ROOT / "schemas" / "validations.schema.json"), str(broken)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert "sumary" in result.stdout


def test_editor_and_pre_commit_settings_cover_every_kind() -> None:
    settings = (ROOT / ".vscode" / "settings.json").read_text()
    hooks = (ROOT / ".pre-commit-config.yaml").read_text()
    for kind in KINDS:
        assert f'"./schemas/{kind}.schema.json": [\n      "content/{kind}/*.yaml"' in settings
        assert f"args: [--schemafile, schemas/{kind}.schema.json]" in hooks
        assert f"files: ^content/{kind}/[^/]+\\.yaml$" in hooks
    assert "entry: .venv/bin/cloudqual check" in hooks


@pytest.mark.slow
def test_render_writes_pages_data_and_hand_written_pages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    code = main(
        [
            "render",
            "--out",
            str(out),
            "--content",
            str(MINIMAL),
            "--templates",
            str(ROOT / "templates"),
            "--cache",
            str(tmp_path / "cache"),
            "--as-of",
            "2026-12-02",
            "--file-urls",
            "--site-url",
            "https://site.test/cq/",
        ]
    )
    assert code == 0
    assert "pages and" in capsys.readouterr().out
    docs = out / "docs"
    page = (docs / "validations" / "test-validation.md").read_text(encoding="utf-8")
    assert page.startswith("# Test Provider Test Platform: Test Program")
    assert 'href="../providers/test-provider.html"' in page  # --file-urls links
    assert (docs / "api" / "v1" / "validations.json").is_file()
    assert (docs / "charts" / "evidence.svg").read_bytes().startswith(b"<svg")
    assert (docs / "methodology.md").is_file() and (docs / "assets" / "cloudqual").is_dir()
    # A Markdown download waits outside docs/, where MkDocs would make a page of it.
    assert (out / "files" / "downloads" / "test-validation" / "test-checklist.md").is_file()
    assert not (docs / "downloads" / "test-validation" / "test-checklist.md").exists()
    # The published address makes the feeds' links absolute, as under mkdocs build.
    feed = (docs / "feeds" / "validations.atom").read_text(encoding="utf-8")
    assert '<link href="https://site.test/cq/validations/test-validation.html"' in feed
    config = project.read_config(out / "mkdocs.yml")
    assert config["site_url"] == "https://site.test/cq/" and config["plugins"] == ["search"]
    assert config["use_directory_urls"] is False
    # A second render into the same folder leaves nothing of the first that it did not write.
    (docs / "validations" / "removed-since.md").write_text("# Stale\n", encoding="utf-8")
    (out / "files" / "downloads" / "removed-since.md").write_text("stale", encoding="utf-8")
    assert main(["render", "--out", str(out), "--content", str(MINIMAL), "--cache",
                 str(tmp_path / "cache"), "--as-of", "2026-12-02"]) == 0  # fmt: skip
    assert not (docs / "validations" / "removed-since.md").exists()
    assert not (out / "files" / "downloads" / "removed-since.md").exists()
    assert (docs / "validations" / "test-validation.md").is_file()


@pytest.mark.slow
def test_render_refuses_a_config_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "mkdocs.yml"
    broken.write_text("site_name: [unclosed\n", encoding="utf-8")
    args = ["render", "--out", str(tmp_path / "out"), "--content", str(MINIMAL)]
    args += ["--cache", str(tmp_path / "cache"), "--config", str(broken)]
    assert main(args) == 1
    assert f"cloudqual render: {broken}:" in capsys.readouterr().err
    assert not (tmp_path / "out" / "mkdocs.yml").exists()


@pytest.mark.slow
@pytest.mark.parametrize(("variable", "flag", "said"), [
    ("2026-03-01", None, "On 2026-03-01,"),
    ("2026-03-01", "2026-04-02", "On 2026-04-02,"),
])  # fmt: skip
def test_render_judges_on_the_date_mkdocs_build_would(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    variable: str,
    flag: str | None,
    said: str,
) -> None:
    """CLOUDQUAL_AS_OF, as `mkdocs build` and `cloudqual build` read it, unless --as-of says
    otherwise: every way in judges on one date."""
    monkeypatch.setenv("CLOUDQUAL_AS_OF", variable)
    out = tmp_path / "out"
    arguments = ["render", "--out", str(out), "--content", str(MINIMAL), "--cache",
                 str(tmp_path / "cache")]  # fmt: skip
    assert main([*arguments, *(["--as-of", flag] if flag else [])]) == 0
    capsys.readouterr()
    home = (out / "docs" / "index.md").read_text(encoding="utf-8")
    assert f'<p class="cq-fresh">{said}' in home


def test_a_bad_as_of_variable_stops_with_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLOUDQUAL_AS_OF", "next tuesday")
    with pytest.raises(SystemExit, match="cloudqual: CLOUDQUAL_AS_OF: expected a date"):
        main(["diff", str(MINIMAL), str(MINIMAL)])
