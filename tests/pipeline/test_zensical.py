"""The site from Zensical: `cloudqual build --engine zensical` builds what `mkdocs build` builds.

The browser, HTML, link and hostile-content tests run on both engines' sites already (they take
`engine_built`); these compare the two sites file by file, and check what only the Zensical path
has: its config, the sanitizer it runs through Zensical, and the answer to the wrong command.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import markdown
import pytest
from build import main_text, make_project, tree_digest, zensical_build
from conftest import EDIT, MINIMAL, ROOT

from generator.engines import csp, project
from generator.engines import runner as engine
from generator.engines.mkdocs import extension
from generator.model import links

# What each engine writes of its own, whatever the content: its theme's scripts, stylesheets and
# images, its search index and its sitemap. Everything else is the site's, and must match.
THEME_ASSETS = ("assets/javascripts/", "assets/stylesheets/", "assets/images/")
ENGINE_FILES = {
    "mkdocs": {"search/search_index.json", "sitemap.xml", "sitemap.xml.gz"},
    "zensical": {"search.json", "sitemap.xml"},
}


def site_files(site: Path, engine: str) -> set[str]:
    return {
        uri
        for uri in (path.relative_to(site).as_posix() for path in site.rglob("*") if path.is_file())
        if not uri.startswith(THEME_ASSETS) and uri not in ENGINE_FILES[engine]
    }


def read(site: Path, uri: str) -> str:
    return (site / uri).read_text(encoding="utf-8")


def test_zensical_builds_the_pages_and_files_mkdocs_builds(
    zensical_built: Path, built: Path
) -> None:
    files = site_files(zensical_built, "zensical")
    assert files == site_files(built, "mkdocs")
    pages = sorted(uri for uri in files if uri.endswith(".html"))
    assert len(pages) > 100
    for uri in pages:
        assert main_text(read(zensical_built, uri)) == main_text(read(built, uri)), uri
    # Data files, downloads and the project's own stylesheet and script, byte for byte.
    for uri in files - set(pages):
        assert (zensical_built / uri).read_bytes() == (built / uri).read_bytes(), uri
    for engine_file in ENGINE_FILES["zensical"]:
        assert (zensical_built / engine_file).is_file()


def _head_and_buttons(html: str) -> list[str]:
    """What a page says of itself outside its article: its title, its feed, its edit button.
    Zensical's `url` filter writes a link from the home page as "./feeds/...", MkDocs' as
    "feeds/...": the same address."""
    html = html.replace('href="./', 'href="')
    return re.findall(
        r"<title>[^<]*</title>|<link rel=\"alternate feed\"[^>]*>|<a href=\"[^\"]*\" "
        r"title=\"Edit this page\"",
        html,
    )


def test_each_page_has_the_same_title_feed_and_edit_link(zensical_built: Path, built: Path) -> None:
    pages = sorted(p.relative_to(built).as_posix() for p in built.rglob("index.html"))
    edit_links = 0
    for uri in pages:
        ours = _head_and_buttons(read(zensical_built, uri))
        assert ours == _head_and_buttons(read(built, uri)), uri
        edit_links += any(f'href="{EDIT}' in part for part in ours)
    assert edit_links > 50
    page = read(zensical_built, "validations/crusoe-hgx-b300-exemplar/index.html")
    assert f'href="{EDIT}content/validations/crusoe-hgx-b300-exemplar.yaml"' in page
    assert "<title>Crusoe NVIDIA HGX B300: NVIDIA Exemplar Cloud - cloudqual</title>" in page
    home = read(zensical_built, "index.html")
    assert re.search(r'<link rel="alternate feed" [^>]*href="(\./)?feeds/validations\.atom"', home)


def test_key_facts_and_links_of_a_result_page(zensical_built: Path) -> None:
    html = read(zensical_built, "validations/crusoe-hgx-b300-exemplar/index.html")
    text = main_text(html)
    assert "512 GPUs" in text and "8 × 3 = 24 combinations" in text
    # Zensical resolves links from the Markdown file; the site's links are the page URL's own.
    assert 'href="../crusoe-hgx-b200-exemplar/"' in html
    # Images too: Zensical would have added a "../" to a link written from the page's URL.
    compare = read(zensical_built, "compare/index.html")
    assert 'src="../charts/evidence.svg"' in compare and "../../charts/" not in compare
    data = read(zensical_built, "data/index.html")
    assert 'href="../downloads/crusoe-hgx-b300-exemplar/trial-checklist.md"' in data
    assert links.FILE_SCHEME not in data
    checklist = read(zensical_built, "downloads/crusoe-hgx-b300-exemplar/trial-checklist.md")
    assert checklist.startswith("# Trial checklist: Crusoe NVIDIA HGX B300")


def test_every_page_carries_the_security_policy(zensical_built: Path) -> None:
    pages = list(zensical_built.rglob("*.html"))
    assert len(pages) > 100
    for page in pages:
        html = page.read_text(encoding="utf-8")
        head = html[: html.index("</head>")]
        assert head.count('http-equiv="Content-Security-Policy"') == 1, page
        assert '<meta name="referrer" content="no-referrer">' in head, page


def test_hand_written_pages_are_sanitized_and_generated_ones_are_not(
    zensical_built: Path, built: Path
) -> None:
    # The sanitizer gives every link of a hand-written page this rel, a heading's permalink
    # included: seen in both builds, it shows the Markdown extension cleaned the page under
    # Zensical as the plugin does under MkDocs. A generated page's permalinks have none.
    permalink = re.compile(r'<a class="headerlink" href="#[^"]*" title="Permanent link"( rel=")?')
    for site in (zensical_built, built):
        marks = permalink.findall(read(site, "methodology/index.html"))
        assert len(marks) > 3 and all(marks), site
        marks = permalink.findall(read(site, "validations/crusoe-hgx-b300-exemplar/index.html"))
        assert len(marks) > 3 and not any(marks), site


def test_the_extension_sanitizes_only_a_marked_page() -> None:
    def convert(text: str) -> str:
        extensions = ["admonition", "tables", "toc", extension.NAME]
        configs = {extension.NAME: {"engine": "zensical"}}
        html = markdown.Markdown(extensions=extensions, extension_configs=configs).convert(text)
        return str(html)

    hostile = '# T\n\n<script>alert(1)</script>\n\n<p onclick="x()">p</p>\n'
    cleaned = convert(extension.UNTRUSTED + "\n" + hostile)
    assert "<script" not in cleaned and "onclick" not in cleaned and "cloudqual" not in cleaned
    assert '<h1 id="t">T' in cleaned
    # A generated page carries no mark: its raw HTML was escaped when it was rendered, and stays.
    assert '<p onclick="x()">' in convert(hostile)
    # The mark counts only as the first line, where the build puts it.
    assert "<script>" in convert(hostile + "\n" + extension.UNTRUSTED + "\n")


@pytest.mark.parametrize("arguments", [[], ["-f", "mkdocs.yml"]])
def test_zensical_on_the_repository_config_names_the_right_command(
    tmp_path: Path, arguments: list[str]
) -> None:
    folder = make_project(tmp_path / "project", MINIMAL)
    result = subprocess.run(
        [sys.executable, "-m", "zensical", "build", *arguments],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 2
    assert "cloudqual build --engine zensical" in result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert not (folder / "site" / "validations").exists()


def test_the_rendered_config_is_the_repository_config_for_zensical() -> None:
    source = project.read_config(ROOT / "mkdocs.yml")
    source["edit_uri"] = project.Env(["CLOUDQUAL_EDIT_URI", None])
    config = project.plain_config(
        source, site_url=None, directory_urls=True, engine=project.ZENSICAL
    )
    assert "hooks" not in config and "edit_uri" not in config
    assert config["extra"][project.EDIT_URI].value == ["CLOUDQUAL_EDIT_URI", None]
    assert config["markdown_extensions"][-1] == {extension.NAME: {"engine": "zensical"}}
    assert config["markdown_extensions"][:-1] == [
        entry for entry in source["markdown_extensions"] if entry != extension.NAME
    ]
    # For MkDocs the extension is left out: the folder builds where cloudqual is not installed.
    plain = project.plain_config(source, site_url=None, directory_urls=True)
    assert extension.NAME not in str(plain["markdown_extensions"])
    assert plain["hooks"] == [project.HOOK]


@pytest.mark.build
def test_a_broken_record_fails_the_build_and_keeps_the_site(tmp_path: Path) -> None:
    folder = make_project(tmp_path / "project", MINIMAL)
    first = zensical_build(folder, CLOUDQUAL_AS_OF="2026-12-01")
    assert first.returncode == 0, first.stdout + first.stderr
    digest = tree_digest(folder / "site")
    record = folder / "content" / "validations" / "test-validation.yaml"
    record.write_text(record.read_text(encoding="utf-8") + "outcome: pass\n", encoding="utf-8")
    broken = zensical_build(folder, CLOUDQUAL_AS_OF="2026-12-01")
    assert broken.returncode == 1
    assert re.search(r"^content/validations/test-validation\.yaml:\d+:\d+: ", broken.stderr, re.M)
    assert "Traceback" not in broken.stderr
    assert tree_digest(folder / "site") == digest


@pytest.mark.build
def test_a_page_removed_from_content_leaves_the_site(tmp_path: Path) -> None:
    folder = make_project(tmp_path / "project", MINIMAL)
    extra = folder / "content" / "pages" / "extra.md"
    extra.write_text("# Extra\n\nA page for a while.\n", encoding="utf-8")
    assert zensical_build(folder, CLOUDQUAL_AS_OF="2026-12-01").returncode == 0
    assert "A page for a while." in read(folder / "site", "extra/index.html")
    extra.unlink()
    again = zensical_build(folder, CLOUDQUAL_AS_OF="2026-12-01")
    assert again.returncode == 0, again.stdout + again.stderr
    assert not (folder / "site" / "extra").exists()
    assert (folder / "site" / "validations" / "test-validation" / "index.html").is_file()
    assert "reused" not in again.stdout
    digest = tree_digest(folder / "site")
    # Nothing changed: the last render is reused, and the site is the same, file for file.
    unchanged = zensical_build(folder, CLOUDQUAL_AS_OF="2026-12-01")
    assert "its pages reused" in unchanged.stdout
    assert tree_digest(folder / "site") == digest
    # A new as-of date is an input too.
    later = zensical_build(folder, CLOUDQUAL_AS_OF="2026-12-02")
    assert later.returncode == 0 and "reused" not in later.stdout


@pytest.mark.slow
def test_cloudqual_build_builds_with_mkdocs_unless_told_otherwise(tmp_path: Path) -> None:
    folder = make_project(tmp_path / "project", MINIMAL)
    result = subprocess.run(
        [sys.executable, "-m", "generator.cli", "build"],
        cwd=folder,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "CLOUDQUAL_AS_OF": "2026-12-01"},
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "built with MkDocs" in result.stdout
    page = read(folder / "site", "validations/test-validation/index.html")
    assert 'name="generator" content="mkdocs-' in page


@pytest.mark.build
def test_a_config_without_the_plugin_is_refused_with_its_reason(tmp_path: Path) -> None:
    folder = make_project(tmp_path / "project", MINIMAL)
    config = folder / "mkdocs.yml"
    config.write_text(
        re.sub(r"^  - cloudqual:\n(    .*\n)+", "", config.read_text(encoding="utf-8"), flags=re.M),
        encoding="utf-8",
    )
    result = zensical_build(folder)
    assert result.returncode == 1
    assert "lists no cloudqual plugin" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("site_dir", [".", "content", "content/pages/site", "templates"])
def test_a_site_folder_that_holds_or_sits_in_the_inputs_is_refused(
    tmp_path: Path, site_dir: str
) -> None:
    folder = make_project(tmp_path / "project", MINIMAL)
    before = tree_digest(folder / "content")
    command = [sys.executable, "-m", "generator.cli", "build", "--engine", "zensical"]
    result = subprocess.run(
        [*command, "--site-dir", site_dir],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 1 and "cloudqual build: refusing" in result.stderr
    assert tree_digest(folder / "content") == before
    assert (folder / "mkdocs.yml").is_file()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"content_dri": "content"}, "unknown option 'content_dri'"),
        ({"review_max_age_days": "ninety"}, "review_max_age_days: expected a whole number"),
        ({"expiry_warning_days": True}, "expiry_warning_days: expected a whole number"),
        ({"as_of": "2026-13-01"}, "expected a date as YYYY-MM-DD"),
    ],
)
def test_the_plugin_options_are_checked_as_mkdocs_checks_them(
    options: dict[str, object], message: str
) -> None:
    config = {"plugins": [{"search": {}}, {"cloudqual": options}]}
    with pytest.raises(engine.BuildError, match=re.escape(message)):
        engine.plugin_options(Path("mkdocs.yml"), config)


def test_the_plugin_options_give_the_folders_and_the_cache(tmp_path: Path) -> None:
    config = {"plugins": {"cloudqual": {"content_dir": "records", "cache_dir": ".mine"}}}
    found = engine.plugin_options(tmp_path / "mkdocs.yml", config)
    assert found.inputs.content_dir == tmp_path / "records"
    assert found.inputs.options.templates_dir == tmp_path / "templates"
    assert found.cache_dir == tmp_path / ".mine"


def test_zensicals_cache_is_dropped_when_the_code_changes(tmp_path: Path) -> None:
    """Zensical keeps each page's HTML by the page's text: a fix to the sanitizer that converts
    hand-written pages must not wait for the page to change."""
    cached = tmp_path / engine.ZENSICAL_CACHE / "page"
    cached.parent.mkdir()
    cached.write_text("html", encoding="utf-8")
    (tmp_path / engine.CODE_STAMP).write_text("another version", encoding="utf-8")
    engine._keep_cache(tmp_path)
    assert not cached.exists()
    cached.parent.mkdir()
    cached.write_text("html", encoding="utf-8")
    engine._keep_cache(tmp_path)  # the same code: the cache stays
    assert cached.exists()


def test_finish_restores_only_links_and_protects_every_page(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "data").mkdir(parents=True)
    page = site / "data" / "index.html"
    page.write_text(
        '<html><head><meta charset="utf-8"></head><body>'
        f'<a href="{links.FILE_SCHEME}../downloads/x">x</a>'
        f'<pre><code>href="{links.FILE_SCHEME}javascript:y"</code></pre></body></html>',
        encoding="utf-8",
    )
    (tmp_path / "files" / "downloads").mkdir(parents=True)
    (tmp_path / "files" / "downloads" / "x.md").write_text("# X\n", encoding="utf-8")
    assert engine.finish(site, tmp_path / "files") == 1
    html = page.read_text(encoding="utf-8")
    assert '<a href="../downloads/x.md">' in html
    assert f'href="{links.FILE_SCHEME}javascript:y"' in html  # text stays as it was written
    assert html.count(csp.REFERRER) == 1
    assert (site / "downloads" / "x.md").read_text(encoding="utf-8") == "# X\n"
