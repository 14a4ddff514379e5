"""`cloudqual render --out DIR` writes a project that MkDocs and ProperDocs build without the
plugin, into the site a plugin build of the same content and date gives."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from build import main_text, make_project, mkdocs_build
from conftest import ROOT

from generator.engines import assets, project
from generator.engines.mkdocs import extension

AS_OF = "2026-12-02"
# The files a build writes whatever the content: pages are compared by their text, the search
# index entry by entry (MkDocs lists generated pages after the docs folder's).
SEARCH_INDEX = "search/search_index.json"


@pytest.fixture(scope="module")
def plugin_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real content built by `mkdocs build --strict` with the plugin, on AS_OF."""
    folder = make_project(tmp_path_factory.mktemp("plugin"), ROOT / "content")
    result = mkdocs_build(folder, CLOUDQUAL_AS_OF=AS_OF)
    assert result.returncode == 0, result.stderr
    return folder / "site"


@pytest.fixture(scope="module")
def rendered(plugin_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder `cloudqual render --out` writes from the real content, on AS_OF."""
    out = tmp_path_factory.mktemp("rendered") / "project"
    # The plugin build's chart cache: the charts are the same, and converting them is slow.
    cache = plugin_site.parent / ".cache" / "cloudqual"
    command = [sys.executable, "-m", "generator.cli", "render", "--out", str(out)]
    command += ["--as-of", AS_OF, "--cache", str(cache)]
    # The plugin build's copy of the content: outside the repository, it has no history, as the
    # plugin's had none; the changelog pages agree.
    command += ["--content", str(plugin_site.parent / "content")]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert f"mkdocs build -f {out / 'mkdocs.yml'}" in result.stdout
    return out


@pytest.fixture(scope="module", params=["mkdocs", "properdocs"])
def engine_site(request: pytest.FixtureRequest, rendered: Path) -> Path:
    """The rendered folder built by `<engine> build --strict`, which has no cloudqual plugin."""
    site = rendered.parent / f"site-{request.param}"
    command = [sys.executable, "-m", request.param, "build", "--strict"]
    command += ["-f", str(rendered / "mkdocs.yml"), "--site-dir", str(site)]
    result = subprocess.run(
        command,
        cwd=rendered.parent,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert not re.search(r"^(WARNING|ERROR)\b", result.stderr, re.MULTILINE), result.stderr
    generator = re.search(r'<meta name="generator" content="([^"]*)"', read(site, "index.html"))
    assert generator is not None and "mkdocs-material" in generator.group(1)
    assert ("ProperDocs" in generator.group(1)) == (request.param == "properdocs")
    return site


def read(site: Path, uri: str) -> str:
    return (site / uri).read_text(encoding="utf-8")


def files(site: Path) -> set[str]:
    return {path.relative_to(site).as_posix() for path in site.rglob("*") if path.is_file()}


def test_the_folder_is_the_repository_config_without_the_plugin(rendered: Path) -> None:
    repository = project.read_config(ROOT / "mkdocs.yml")
    config = project.read_config(rendered / "mkdocs.yml")
    assert config["plugins"] == ["search"]
    assert config["hooks"] == [project.HOOK] and (rendered / project.HOOK).is_file()
    assert config["extra_css"] == [assets.STYLESHEET]
    assert config["extra_javascript"] == [assets.SCRIPT]
    assert "edit_uri" not in config and "site_url" not in config
    # Derived, not restated: every other setting is the repository's.
    assert config["theme"] == {**repository["theme"], "custom_dir": project.OVERRIDES}
    for key in ("site_name", "nav", "validation", "strict"):
        assert config[key] == repository[key], key
    # Less the project's own extension, which stops a tool that runs no plugin: this folder
    # builds without it, and where cloudqual is not installed.
    assert config["markdown_extensions"] == repository["markdown_extensions"][:-1]
    assert repository["markdown_extensions"][-1] == extension.NAME
    assert (rendered / "overrides" / "main.html").read_bytes() == (
        ROOT / "templates" / "overrides" / "main.html"
    ).read_bytes()
    # The Markdown downloads wait outside docs/, where MkDocs would make pages of them.
    assert {path.suffix for path in (rendered / "files").rglob("*") if path.is_file()} == {".md"}
    assert not list((rendered / "docs" / "downloads").glob("*.md"))
    assert (rendered / "docs" / "methodology.md").is_file()  # hand-written


def test_each_engine_builds_the_plugin_site(engine_site: Path, plugin_site: Path) -> None:
    built = files(engine_site)
    assert built == files(plugin_site)
    pages = sorted(uri for uri in built if uri.endswith(".html") and uri != "404.html")
    assert len(pages) > 100
    for uri in pages:
        assert main_text(read(engine_site, uri)) == main_text(read(plugin_site, uri)), uri
    # Data files, downloads and assets, byte for byte at the plugin's URLs.
    for uri in built - {*pages, "404.html", SEARCH_INDEX}:
        assert (engine_site / uri).read_bytes() == (plugin_site / uri).read_bytes(), uri
    entries = [json.loads(read(site, SEARCH_INDEX))["docs"] for site in (engine_site, plugin_site)]
    assert sorted(entries[0], key=json.dumps) == sorted(entries[1], key=json.dumps)


def test_each_engine_site_has_the_pages_and_files_readers_use(
    engine_site: Path, rendered: Path
) -> None:
    markdown = read(rendered / "docs", "validations/crusoe-hgx-b300-exemplar.md")
    title = markdown.splitlines()[0].removeprefix("# ")
    assert title == "Crusoe NVIDIA HGX B300: NVIDIA Exemplar Cloud"
    validation = main_text(read(engine_site, "validations/crusoe-hgx-b300-exemplar/index.html"))
    assert validation.strip().startswith(title) and "512 GPUs" in validation
    home = read(engine_site, "index.html")
    assert f'href="{assets.STYLESHEET}"' in home and f'src="{assets.SCRIPT}"' in home
    # The scorecard's cell for it links it, its title on the link.
    assert f'href="validations/crusoe-hgx-b300-exemplar/" title="{title}"' in home
    checklist = read(engine_site, "downloads/crusoe-hgx-b300-exemplar/trial-checklist.md")
    assert checklist.startswith("# Trial checklist: Crusoe NVIDIA HGX B300")
    assert not (engine_site / "downloads" / "crusoe-hgx-b300-exemplar" / "trial-checklist").exists()
    api = json.loads(read(engine_site, "api/v1/validations.json"))
    assert "crusoe-hgx-b300-exemplar" in {v["id"] for v in api["validations"]}
    assert read(engine_site, "charts/evidence.svg").startswith("<svg")


@pytest.mark.parametrize(
    ("uri", "copied"),
    [
        ("api/v1/validations.json", True),
        ("downloads/x/trial-checklist.csv", True),
        ("charts/a/templates/x.svg", True),
        ("downloads/x/trial-checklist.md", False),
        ("downloads/X.Markdown", False),
        (".well-known/x.json", False),
        ("feeds/.hidden.atom", False),
        ("templates/x.json", False),
    ],
)
def test_what_mkdocs_copies_as_it_is(uri: str, copied: bool) -> None:
    assert project.copied_as_is(uri) is copied


def test_the_config_keeps_env_settings_and_drops_the_plugin_in_either_form(tmp_path: Path) -> None:
    source = tmp_path / "mkdocs.yml"
    source.write_text(
        "site_name: x\ntheme: material\nedit_uri: !ENV EDIT\n"
        "extra:\n  analytics: !ENV [ANALYTICS, null]\n"
        "plugins:\n  search: {}\n  cloudqual:\n    content_dir: content\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    project.write(
        out,
        pages={"index.md": b"# Home\n"},
        data={"downloads/a.md": b"# A\n", "api/a.json": b"{}"},
        hand_written={},
        config_file=source,
        site_url=None,
        directory_urls=False,
    )
    config = project.read_config(out / "mkdocs.yml")
    assert config["plugins"] == {"search": {}} and config["theme"] == "material"
    analytics = config["extra"]["analytics"]
    assert isinstance(analytics, project.Env) and analytics.value == ["ANALYTICS", None]
    assert "edit_uri" not in config and config["use_directory_urls"] is False
    assert files(out) == {
        "mkdocs.yml",
        project.HOOK,
        "docs/index.md",
        "docs/api/a.json",
        "files/downloads/a.md",
    }


def test_a_second_render_rewrites_only_what_changed_and_removes_the_rest(tmp_path: Path) -> None:
    """A tool that caches by file (Zensical) sees only what changed; a page that is no longer
    rendered is never built from a stale copy."""
    source = tmp_path / "mkdocs.yml"
    source.write_text("site_name: x\nplugins:\n  - cloudqual\n", encoding="utf-8")
    out = tmp_path / "out"

    def write(pages: dict[str, bytes]) -> None:
        project.write(
            out,
            pages=pages,
            data={},
            hand_written={"about.md": b"# About\n"},
            config_file=source,
            site_url=None,
            directory_urls=True,
        )

    write({"index.md": b"# Home\n", "validations/a.md": b"# A\n", "validations/b.md": b"# B\n"})
    kept = out / "docs" / "validations" / "a.md"
    before = kept.stat().st_mtime_ns
    os.utime(kept, ns=(before - 10**9, before - 10**9))  # as if written a second ago
    write({"index.md": b"# Home, edited\n", "validations/a.md": b"# A\n"})
    assert kept.stat().st_mtime_ns == before - 10**9
    assert (out / "docs" / "index.md").read_bytes() == b"# Home, edited\n"
    assert not (out / "docs" / "validations" / "b.md").exists()
    assert (out / "docs" / "about.md").read_bytes() == b"# About\n"


def test_the_plugin_runs_first_on_config_and_last_after_the_build() -> None:
    """MkDocs orders each event's handlers by the priority `event_priority` sets on them: the
    site swap and the warning count must see every other plugin's work, so on_post_build runs
    last (a decorator left on the method above it once made it run in plugin order)."""
    from mkdocs.plugins import PluginCollection

    from generator.engines.mkdocs.plugin import CloudqualPlugin

    plugins = PluginCollection()
    plugins["cloudqual"] = CloudqualPlugin()
    handlers = {
        event: [getattr(h, "__name__", "") for h in found]
        for event, found in plugins.events.items()
    }
    assert handlers["post_build"] == ["on_post_build"]
    assert getattr(CloudqualPlugin.on_post_build, "mkdocs_priority", None) == -100
    assert getattr(CloudqualPlugin.on_config, "mkdocs_priority", None) == 100
    assert not any(
        hasattr(member, "mkdocs_priority")
        for name, member in vars(CloudqualPlugin).items()
        if not name.startswith("on_")
    )
