"""A stranger's pull request: hand-written pages, symlinks, titles, the security policy, the site
kept on failure, and the as-of date, each tried as an attacker or a maintainer would."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import pytest
from build import make_project, mkdocs_build, mkdocs_serve, tree_digest, wait_for
from conftest import MINIMAL, ROOT

from generator.checks import pages
from generator.checks.loader import load_site
from generator.engines import csp
from generator.model.policy import parse_as_of
from generator.problems import ContentError


def check(content: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "generator.cli", "check", "--content", str(content)],
        cwd=content.parent,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def problems_of(content: Path) -> list[str]:
    try:
        load_site(content)
    except ContentError as error:
        return [str(problem) for problem in error.problems]
    return []


def write_page(content: Path, name: str, text: str) -> Path:
    path = content / "pages" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# --- hand-written pages ------------------------------------------------------------------------

HOSTILE_PAGES = [
    ("# A\n\n<script>alert(1)</script>\n", 3, "raw HTML '<script>alert(1)</script>'"),
    ("# A\n\nText <img src=x onerror=alert(1)> here.\n", 3, "raw HTML '<img src=x onerror"),
    ("# A\n\n[x](javascript:alert(1))\n", 3, "found the scheme javascript:"),
    ("# A\n\n[x](JaVaScRiPt:alert(1))\n", 3, "found the scheme javascript:"),
    ("# A\n\n[x](data:text/html;base64,PHNjcmlwdD4=)\n", 3, "found the scheme data:"),
    ("# A\n\n[x](vbscript:msgbox)\n", 3, "found the scheme vbscript:"),
    ("---\ntitle: </title><script>alert(1)</script>\n---\n# A\n", 1, "found front matter"),
    ("template: redirect.html\nlocation: javascript:alert(1)\n\n# A\n", 1, "found front matter"),
    ("# A\n\nA bell \x07 rings.\n", 3, "found the control character U+0007"),
    # Front matter behind a byte order mark, or with lone carriage returns: MkDocs reads both.
    ("\ufeff---\ntitle: x\ntemplate: redirect.html\n---\n# A\n", 1, "found front matter"),
    ("---\rtitle: </title><script>alert(1)</script>\r---\r# A\r", 1, "found front matter"),
    # A browser ends this comment where it starts: the image is markup.
    ("# A\n\n<!--> <img src=x onerror=alert(1)> -->\n", 3, "raw HTML '<!--> <img"),
    # A fence, even in a quote, and found where it is, not where its backticks first appear.
    ("# A\n\nUse `` ``` `` in text.\n\n> ```\n> x\n> ```\n", 5, "found a fence '```'"),
]


@pytest.mark.parametrize(("text", "line", "message"), HOSTILE_PAGES)
def test_check_refuses_a_hostile_page_with_its_position(
    minimal_content: Path, text: str, line: int, message: str
) -> None:
    write_page(minimal_content, "evil.md", text)
    found = [p for p in problems_of(minimal_content) if p.startswith("content/pages/evil.md:")]
    assert found, "the hostile page passed the check"
    assert message in found[0]
    assert int(found[0].split(":")[1]) == line


@pytest.mark.parametrize(
    "name",
    ["evil.html", "notes.txt", "assets/javascripts/bundle.0123abcd.min.js", "Sub/page.md"],
)
def test_check_refuses_files_a_page_folder_may_not_hold(minimal_content: Path, name: str) -> None:
    write_page(minimal_content, name, "<script>alert(1)</script>")
    found = [p for p in problems_of(minimal_content) if p.startswith(f"content/pages/{name}:1:1")]
    assert found and "expected a Markdown page named in kebab-case" in found[0]


@pytest.mark.parametrize("name", ["compare.md", "index.md", "validations.md", "assets.md"])
def test_check_refuses_a_page_that_would_hide_generated_output(
    minimal_content: Path, name: str
) -> None:
    write_page(minimal_content, name, "# Mine\n")
    found = [p for p in problems_of(minimal_content) if p.startswith(f"content/pages/{name}:1:1")]
    assert found and "which would hide a generated page or folder" in found[0]


def test_generated_names_cover_everything_the_site_writes(built: Path) -> None:
    from generator.model.links import GENERATED_NAMES
    from generator.render import output

    top = {path.name.removesuffix(".html") for path in built.iterdir()}
    top -= {"sitemap.xml", "sitemap.xml.gz", "contributing", "methodology", output.SITE.name}
    assert top - GENERATED_NAMES == set()


def test_mkdocs_renders_pages_with_the_checked_extensions() -> None:
    """The extensions `check` reads hand-written pages with, then the project's own, which
    changes no page under MkDocs (generator/engines/mkdocs/extension.py)."""
    from generator.engines.mkdocs import extension

    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    listed = re.search(r"^markdown_extensions:\n((?:  - .*\n(?:    .*\n)*)+)", config, re.M)
    assert listed is not None
    names = re.findall(r"^  - ([a-z_.]+)", listed.group(1), re.M)
    assert tuple(names) == (*pages.EXTENSIONS, extension.NAME)


def test_sanitizer_holds_even_if_the_check_is_bypassed() -> None:
    dirty = (
        '<h2 id="__config">x</h2><p onclick="alert(1)">a<script>alert(1)</script></p>'
        '<a href="javascript:alert(1)" class="md-button">l</a><img src=x onerror=alert(1)>'
        '<iframe src="https://evil.test"></iframe><div class="admonition note" style="x">n</div>'
    )
    clean = pages.sanitize(dirty)
    for forbidden in (
        "__config",
        "onclick",
        "<script",
        "javascript:",
        "<img",
        "<iframe",
        "md-button",
    ):
        assert forbidden not in clean
    assert '<div class="admonition note">n</div>' in clean


@pytest.mark.build
def test_attr_list_braces_stay_text_in_a_built_page(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", MINIMAL)
    write_page(project / "content", "notes.md", '# Notes\n\nA paragraph.\n{: onclick="alert(1)"}\n')
    result = mkdocs_build(project)
    assert result.returncode == 0, result.stderr
    built = (project / "site" / "notes" / "index.html").read_text(encoding="utf-8")
    assert "onclick" not in _attributes(built)
    assert "{: onclick=" in built.replace("&quot;", '"')


# --- symbolic links ----------------------------------------------------------------------------

LINKS = [
    ("pages/env.txt", "/proc/self/environ", "a symbolic link to a path outside it"),
    ("pages/passwd.md", "/etc/passwd", "a symbolic link to a path outside it"),
    ("pages/ssl", "/etc/ssl", "a symbolic link to a path outside it"),
    ("providers/passwd.yaml", "/etc/passwd", "a symbolic link to a path outside it"),
    ("pages/loop.md", "loop.md", "resolves to nothing (or loops)"),
    ("pages/dangling.md", "missing.md", "resolves to nothing (or loops)"),
    ("pages/up", "..", "a symbolic link to a folder"),
]


@pytest.mark.parametrize(("where", "target", "message"), LINKS)
def test_symlinks_are_refused_before_they_are_read(
    minimal_content: Path, where: str, target: str, message: str
) -> None:
    (minimal_content / where).symlink_to(target)
    result = check(minimal_content)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert f"content/{where}:1:1: expected " in result.stderr
    assert message in result.stderr
    assert "root:" not in result.stdout + result.stderr  # nothing of /etc/passwd is quoted


def test_a_fifo_is_refused_not_read(minimal_content: Path) -> None:
    os.mkfifo(minimal_content / "pages" / "wait.md")
    result = check(minimal_content)  # a read would block until the timeout
    assert "content/pages/wait.md:1:1: expected a regular file" in result.stderr


@pytest.mark.build
def test_symlinked_page_is_not_published(tmp_path: Path) -> None:
    project = make_project(tmp_path / "p", MINIMAL)
    (project / "content" / "pages" / "env.txt").symlink_to("/proc/self/environ")
    result = mkdocs_build(project, CLOUDQUAL_PROBE="do-not-publish")
    assert result.returncode != 0
    assert "content/pages/env.txt:1:1" in result.stderr
    assert not (project / "site").exists()


# --- titles ------------------------------------------------------------------------------------


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.starts: list[tuple[str, dict[str, str | None]]] = []
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.starts.append((tag, dict(attrs)))
        self._in_title = tag == "title"

    def handle_endtag(self, tag: str) -> None:
        self._in_title = False if tag == "title" else self._in_title

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data


def _attributes(page_html: str) -> set[str]:
    parser = _Elements()
    parser.feed(page_html)
    return {name for _, attrs in parser.starts for name in attrs}


@pytest.mark.build
def test_a_hostile_name_stays_text_in_every_title(tmp_path: Path) -> None:
    hostile = "</title><script>alert(1)</script>&amp;"
    project = make_project(tmp_path / "p", MINIMAL)
    provider = project / "content" / "providers" / "test-provider.yaml"
    provider.write_text(
        provider.read_text(encoding="utf-8").replace("Test Provider", json.dumps(hostile)),
        encoding="utf-8",
    )
    program = project / "content" / "validations" / "test-validation.yaml"
    program.write_text(
        program.read_text(encoding="utf-8").replace(
            "program_release: null", f"program_release: {json.dumps('<b>' + hostile)}"
        ),
        encoding="utf-8",
    )
    result = mkdocs_build(project)
    assert result.returncode == 0, result.stderr
    for uri in ("providers/test-provider", "validations/test-validation"):
        parser = _Elements()
        parser.feed((project / "site" / uri / "index.html").read_text(encoding="utf-8"))
        assert hostile in parser.title
        inline = [a for tag, a in parser.starts if tag == "script" and "src" not in a]
        assert len(inline) == 4  # the theme's three, and its settings (JSON)


# --- the security policy -----------------------------------------------------------------------


def test_every_page_carries_the_policy_before_any_content(built: Path) -> None:
    for path in sorted(built.rglob("*.html")):
        page_html = path.read_text(encoding="utf-8")
        head = page_html[: page_html.index("<title>")]
        found = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', head)
        assert found, path
        script_src = next(d for d in found.group(1).split("; ") if d.startswith("script-src"))
        assert "unsafe-inline" not in found.group(1).split("style-src")[0]
        assert "unsafe-eval" not in found.group(1)
        for script in re.findall(r"<script>(.*?)</script>", page_html, re.S):
            assert f"'sha256-{csp.digest(script)}'" in script_src, path
        assert csp.REFERRER in head, path


def test_policy_allows_no_injected_inline_script() -> None:
    page_html = '<meta charset="utf-8"><title>x</title><script>alert(1)</script>'
    protected = csp.protect(page_html)
    assert csp.digest("alert(1)") not in protected
    assert "script-src 'self';" in protected


def test_content_links_to_other_hosts_send_no_referrer(built: Path) -> None:
    for path in sorted(built.rglob("*.html")):
        page_html = path.read_text(encoding="utf-8")
        article = page_html[page_html.index("<article") : page_html.index("</article>")]
        parser = _Elements()
        parser.feed(article)
        for tag, attrs in parser.starts:
            href = attrs.get("href") or ""
            theme_button = "md-content__button" in (attrs.get("class") or "")
            if tag == "a" and href.startswith(("http:", "https:")) and not theme_button:
                assert "noreferrer" in (attrs.get("rel") or "").split(), (path, href)


# --- a failed build keeps the previous site ----------------------------------------------------


@pytest.fixture
def built_minimal(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    project = make_project(tmp_path / "p", MINIMAL)
    result = mkdocs_build(project)
    assert result.returncode == 0, result.stderr
    return project, tree_digest(project / "site")


def _question(content: Path) -> None:
    source = content / "questions" / "test-question.yaml"
    text = source.read_text(encoding="utf-8").replace("test-question", "unanswered-question")
    (content / "questions" / "unanswered-question.yaml").write_text(text, encoding="utf-8")


FAILURES_AFTER_PRE_BUILD = {
    "broken link in a page": lambda c: write_page(c, "notes.md", "# N\n\n[x](missing.md)\n"),
    "content warning under strict": _question,
    "page hiding a generated one": lambda c: write_page(c, "compare.md", "# Mine\n"),
    "symlink loop": lambda c: (c / "pages" / "loop.md").symlink_to("loop.md"),
}


@pytest.mark.parametrize("case", sorted(FAILURES_AFTER_PRE_BUILD))
def test_failed_build_leaves_the_previous_site_byte_identical(
    built_minimal: tuple[Path, dict[str, str]], case: str
) -> None:
    project, digest = built_minimal
    FAILURES_AFTER_PRE_BUILD[case](project / "content")
    result = mkdocs_build(project)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert tree_digest(project / "site") == digest
    assert sorted(p.name for p in project.iterdir() if p.name.startswith(".site")) == []


def test_successful_build_replaces_the_site_whole(
    built_minimal: tuple[Path, dict[str, str]],
) -> None:
    project, _ = built_minimal
    (project / "site" / "stale.txt").write_text("from an old build", encoding="utf-8")
    result = mkdocs_build(project)
    assert result.returncode == 0, result.stderr
    assert not (project / "site" / "stale.txt").exists()
    assert (project / "site" / "index.html").is_file()


# --- the as-of date ----------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["2026-12-01", "'2026-12-01'", '"2026-12-01"', " 2026-12-01 "])
def test_as_of_reads_a_date_as_a_shell_user_writes_it(value: str) -> None:
    assert parse_as_of(value) == date(2026, 12, 1)


@pytest.mark.parametrize("value", ["2026-13-01", "yesterday", "2026-12-01T10:00:00"])
def test_a_bad_as_of_is_named(value: str) -> None:
    with pytest.raises(ValueError, match=r"^expected a date as YYYY-MM-DD, found "):
        parse_as_of(value)


@pytest.mark.build
def test_as_of_from_the_environment_pins_the_build_or_stops_it(tmp_path: Path) -> None:
    """The build reads the variable through parse_as_of: one build with a quoted date, one with
    a bad one (the unit tests above hold every other form)."""
    project = make_project(tmp_path / "p", MINIMAL)
    result = mkdocs_build(project, CLOUDQUAL_AS_OF="'2026-12-01'")
    assert result.returncode == 0, result.stderr
    home = (project / "site" / "index.html").read_text(encoding="utf-8")
    assert "What a buyer must act on, on 2026-12-01" in home
    result = mkdocs_build(project, CLOUDQUAL_AS_OF="yesterday")
    assert result.returncode != 0
    assert "CLOUDQUAL_AS_OF: expected a date as YYYY-MM-DD" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.build
def test_two_pinned_builds_are_byte_identical(tmp_path: Path) -> None:
    pinned = {"SOURCE_DATE_EPOCH": "1764633600", "CLOUDQUAL_AS_OF": "2026-12-01"}
    digests = []
    for name in ("one", "two"):
        project = make_project(tmp_path / name, ROOT / "content")
        result = mkdocs_build(project, **pinned)
        assert result.returncode == 0, result.stderr
        digests.append(tree_digest(project / "site"))
    assert digests[0] == digests[1]
    assert len(digests[0]) > 50


# --- mkdocs serve on bad content ---------------------------------------------------------------


@pytest.mark.build
def test_serve_keeps_the_last_good_site_and_shows_the_error(tmp_path: Path) -> None:
    project = make_project(tmp_path / "project", MINIMAL)
    with mkdocs_serve(project) as base_url:
        url = base_url + "validations/test-validation/"
        record = project / "content" / "validations" / "test-validation.yaml"
        good = record.read_text(encoding="utf-8")
        assert "A synthetic validation." in wait_for(url, "A synthetic validation.")
        record.write_text(good.replace("provider: test-provider", "provider: nobody"), "utf-8")
        body = wait_for(url, "Content has errors")
        assert "content/validations/test-validation.yaml:3:11: provider" in body
        assert "A synthetic validation." in body  # the last good page, still served
        record.write_text(good.replace("A synthetic validation.", "Fixed."), encoding="utf-8")
        body = wait_for(url, "Fixed.")
        assert "Fixed." in body and "Content has errors" not in body
