"""The folders the commands write are their own: `cloudqual render --out`, the site folder of
either engine, and the chart cache. A folder that holds what no command wrote is refused, never
emptied; a symbolic link where the site goes is refused, never replaced."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from build import make_project
from conftest import BUILD, MINIMAL, ROOT, require

from generator.cli import main
from generator.pipeline.memo import Memo
from generator.render.output import Output

AS_OF = "2026-12-02"
# Three ways to build: the command with each engine, and MkDocs run as contributors run it,
# where the plugin alone stands between the build and the folder.
ENGINES = ["mkdocs", "zensical", "plain mkdocs"]


def tree(folder: Path) -> dict[str, str]:
    """Every entry under `folder`: a file by its text, a link by where it points, a folder as
    such; so a test sees a folder emptied, a link replaced or a file rewritten."""
    entries = {}
    for root, directories, names in os.walk(folder):
        here = Path(root)
        for name in directories + names:
            path = here / name
            shown = path.relative_to(folder).as_posix()
            if path.is_symlink():
                entries[shown] = f"-> {path.readlink()}"
            elif path.is_dir():
                entries[shown] = "folder"
            else:
                entries[shown] = path.read_text(encoding="utf-8", errors="replace")
    return entries


def plant(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def build(
    project: Path, engine: str, site_dir: Path | None = None
) -> subprocess.CompletedProcess[str]:
    require(BUILD, f"builds a site with {engine}")
    if engine == "plain mkdocs":
        command = [sys.executable, "-m", "mkdocs", "build", "--strict"]
    else:
        command = [sys.executable, "-m", "generator.cli", "build", "--engine", engine]
    if site_dir is not None:
        command += ["--site-dir", str(site_dir)]
    return subprocess.run(
        command,
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "CLOUDQUAL_AS_OF": AS_OF},
        check=False,
        timeout=600,
    )


def render(out: Path, cache: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """`cloudqual render` of the fixture's content into `out`: its exit status and stderr."""
    capsys.readouterr()
    code = main(
        ["render", "--out", str(out), "--content", str(MINIMAL), "--templates",
         str(ROOT / "templates"), "--config", str(ROOT / "mkdocs.yml"), "--cache", str(cache),
         "--as-of", AS_OF]
    )  # fmt: skip
    return code, capsys.readouterr().err


# --- cloudqual render --out --------------------------------------------------------------------

SOMEONES = {
    "docs/notes.md": "# My notes\n",
    "docs/taxes/2025.pdf": "%PDF-1.7 taxes",
    "files/photo.jpg": "JFIF photo",
    "hooks/pre-commit": "#!/bin/sh\nexit 0\n",
    "overrides/x.html": "<p>mine</p>",
    "mkdocs.yml": "site_name: mine\nplugins:\n  - cloudqual\n",
}


@pytest.fixture(scope="module")
def chart_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One chart cache for the renders here: converting the charts is the slow part."""
    return tmp_path_factory.mktemp("charts")


def test_render_refuses_a_folder_it_did_not_write(
    tmp_path: Path, chart_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = plant(tmp_path / "mine", SOMEONES)
    before = tree(out)
    code, err = render(out, chart_cache, capsys)
    assert code == 1
    assert err.startswith(f"cloudqual render: refusing to write into {out}: it holds ")
    assert "docs" in err and "mkdocs.yml" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert tree(out) == before


@pytest.mark.slow
def test_render_writes_into_an_empty_folder_then_its_own(
    tmp_path: Path, chart_cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    assert render(out, chart_cache, capsys)[0] == 0
    assert (out / ".cloudqual-render").is_file()  # the marker: this folder is the command's
    assert (out / "docs" / "index.md").is_file()
    # Beside what it writes, the folder keeps what others put there (a build's site/, notes).
    plant(out, {"site/index.html": "<p>built</p>", "NOTES.txt": "mine"})
    assert render(out, chart_cache, capsys)[0] == 0
    assert (out / "site" / "index.html").is_file() and (out / "NOTES.txt").is_file()
    # The marker is what makes the folder the command's: without it, the folder is refused.
    (out / ".cloudqual-render").unlink()
    code, err = render(out, chart_cache, capsys)
    assert code == 1 and "refusing to write into" in err


@pytest.mark.parametrize(
    ("out", "marked"),
    [(".", True), ("..", True), ("content", False), ("templates", False), ("content/x", False)],
)
def test_render_refuses_the_project_and_its_inputs(
    tmp_path: Path,
    chart_cache: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    out: str,
    marked: bool,
) -> None:
    """`--out .` in the repository would replace its mkdocs.yml with one without the plugin:
    later builds would lose the security policy and the sanitizer. Refused even where a marker
    was placed (a pull request can add any file)."""
    project = make_project(tmp_path / "top" / "project", MINIMAL)
    if marked:
        (project / out / ".cloudqual-render").write_text("planted\n", encoding="utf-8")
    before = tree(tmp_path)
    monkeypatch.chdir(project)
    capsys.readouterr()
    code = main(["render", "--out", out, "--cache", str(chart_cache), "--as-of", AS_OF])
    err = capsys.readouterr().err
    assert code == 1, err
    assert err.startswith("cloudqual render: refusing") and len(err.strip().splitlines()) == 1
    assert tree(tmp_path) == before


# --- cloudqual build: the site folder ----------------------------------------------------------


@pytest.mark.build
@pytest.mark.parametrize("engine", ENGINES)
def test_build_refuses_a_site_folder_it_did_not_write(tmp_path: Path, engine: str) -> None:
    project = make_project(tmp_path / "project", MINIMAL)
    home = plant(tmp_path / "home", {".ssh/id_ed25519": "KEY", "Documents/letter.txt": "Dear"})
    before = tree(tmp_path)
    result = build(project, engine, site_dir=home)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "refusing to write the site into" in result.stderr
    assert ".ssh" in result.stderr and "Documents" in result.stderr
    assert "Traceback" not in result.stderr
    if engine != "plain mkdocs":  # MkDocs adds its own last line
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert tree(tmp_path) == before


@pytest.mark.build
@pytest.mark.parametrize("engine", ENGINES)
def test_a_rebuild_keeps_what_mkdocs_keeps(tmp_path: Path, engine: str) -> None:
    """MkDocs empties its site folder but for dot files (mkdocs.utils.clean_directory): a
    `site/.git` of a deployment, `.nojekyll`. A CNAME placed there stays too."""
    project = make_project(tmp_path / "project", MINIMAL)
    first = build(project, engine)
    assert first.returncode == 0, first.stdout + first.stderr
    site = project / "site"
    kept = {".git/HEAD": "ref: refs/heads/gh-pages\n", ".nojekyll": "", "CNAME": "qual.test\n"}
    plant(site, {**kept, "stale.html": "<p>from an old build</p>"})
    again = build(project, engine)
    assert again.returncode == 0, again.stdout + again.stderr
    assert {name: (site / name).read_text(encoding="utf-8") for name in kept} == kept
    assert not (site / "stale.html").exists()
    assert (site / "validations" / "test-validation" / "index.html").is_file()
    assert sorted(path.name for path in project.iterdir() if path.name.startswith(".site")) == []


@pytest.mark.build
@pytest.mark.parametrize("engine", ENGINES)
def test_a_symlinked_site_folder_is_refused(tmp_path: Path, engine: str) -> None:
    """A link is refused, not built through: the site folder is replaced whole, and a pull
    request can commit a link named site/ that points anywhere."""
    project = make_project(tmp_path / "project", MINIMAL)
    first = build(project, engine)
    assert first.returncode == 0, first.stdout + first.stderr
    published = tmp_path / "published"
    (project / "site").rename(published)
    (project / "site").symlink_to(published)
    before = tree(tmp_path)
    result = build(project, engine)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "is a symbolic link" in result.stderr and "Traceback" not in result.stderr
    assert tree(tmp_path) == before  # the link, its target, and no .site.* left beside it


@pytest.mark.build
@pytest.mark.parametrize("engine", ENGINES)
def test_a_link_where_the_build_stages_the_site_is_refused(tmp_path: Path, engine: str) -> None:
    """The site is built beside site/, in .site.building; a link of that name (a pull request
    can commit one) must not send the build, and the emptying before it, elsewhere."""
    project = make_project(tmp_path / "project", MINIMAL)
    victim = plant(tmp_path / "victim", {"thesis.tex": "chapter one"})
    (project / ".site.building").symlink_to(victim)
    before = tree(tmp_path)
    result = build(project, engine)
    assert result.returncode == 1, result.stdout + result.stderr
    assert ".site.building" in result.stderr and "Traceback" not in result.stderr
    assert tree(tmp_path) == before


# --- the chart cache ---------------------------------------------------------------------------

PICTURES = {
    "logo.svg": "<svg>my logo</svg>",
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.svg": "<svg>mine</svg>",
    "drawing.svg.partial-12": "<svg>half",
    "site-2025.json": '{"pages": ["mine"]}',
}


@pytest.mark.slow
def test_render_cache_keeps_what_it_did_not_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pictures = plant(tmp_path / "Pictures", PICTURES)
    for name in ("one", "two"):  # the second render prunes what the first wrote and it did not use
        code, err = render(tmp_path / name, pictures, capsys)
        assert code == 0, err
    assert {name: (pictures / name).read_text(encoding="utf-8") for name in PICTURES} == PICTURES
    # The cache keeps its charts in a folder of its own, which it marks as its own.
    charts = pictures / "cloudqual-charts"
    assert (charts / ".cloudqual-charts").is_file() and len(list(charts.glob("*.svg"))) >= 8


def test_render_refuses_a_chart_folder_it_did_not_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pictures = plant(tmp_path / "Pictures", {"cloudqual-charts/holiday.svg": "<svg>beach</svg>"})
    before = tree(pictures)
    code, err = render(tmp_path / "out", pictures, capsys)
    assert code == 1
    assert err.startswith("cloudqual render: refusing") and "holiday.svg" in err
    assert tree(pictures) == before


@pytest.mark.build
def test_the_plugins_cache_dir_keeps_what_it_did_not_write(tmp_path: Path) -> None:
    project = make_project(tmp_path / "project", MINIMAL)
    config = project / "mkdocs.yml"
    option = "      templates_dir: templates\n"
    text = config.read_text(encoding="utf-8")
    assert option in text
    config.write_text(text.replace(option, option + "      cache_dir: ../Pictures\n"), "utf-8")
    pictures = plant(tmp_path / "Pictures", PICTURES)
    record = project / "content" / "validations" / "test-validation.yaml"
    text = record.read_text(encoding="utf-8")
    for summary in ("First.", "Second."):  # two renders, each remembered in place of the last
        record.write_text(text.replace("A synthetic validation.", summary), encoding="utf-8")
        result = build(project, "plain mkdocs")
        assert result.returncode == 0, result.stderr
    assert {name: (pictures / name).read_text(encoding="utf-8") for name in PICTURES} == PICTURES
    assert len(list(pictures.glob("site-*.json"))) == 2  # the user's, and the last build


def test_a_memo_removes_only_the_builds_it_stored(tmp_path: Path) -> None:
    folder = plant(tmp_path / "cache", {"site-notes.json": "{}", "site-x.json.partial-7": "x"})
    memo = Memo(folder)
    memo.put("a", Output({}, {}), [])
    memo.put("b", Output({}, {}), [])
    assert sorted(path.name for path in folder.iterdir()) == [
        "site-b.json",
        "site-notes.json",
        "site-x.json.partial-7",
    ]


def test_a_site_an_earlier_build_wrote_is_taken_as_the_builds_own(tmp_path: Path) -> None:
    """A contributor's site/ from a checkout before sites were marked: its API index, sitemap
    and 404 page show a build wrote it, so it is marked and rebuilt, not refused."""
    from generator.render import output

    site = tmp_path / "site"
    (site / "api" / "v1").mkdir(parents=True)
    for name in ("api/v1/index.json", "sitemap.xml", "404.html", "index.html"):
        (site / name).write_text("x", encoding="utf-8")
    output.check_site(site)
    assert output.SITE.on(site)
    # A folder missing any of them is not a site, and is refused.
    other = tmp_path / "other"
    (other / "api" / "v1").mkdir(parents=True)
    (other / "api" / "v1" / "index.json").write_text("x", encoding="utf-8")
    (other / "404.html").write_text("x", encoding="utf-8")
    with pytest.raises(output.Refused):
        output.check_site(other)


# --- the cache folder: never among what a build reads -----------------------------------------

# Where a cache folder may not be, as mkdocs.yml's cache_dir, CLOUDQUAL_CACHE_DIR or --cache
# name it from the project's folder, and what the refusal names: a cache that is, holds or sits
# in the content or the templates, or is or holds the project's folder, as a site folder there
# is refused. `CLOUDQUAL_CACHE_DIR=content mkdocs build` once put the charts and the remembered
# build among the records, and the next `cloudqual check` found 285 errors.
AMONG_THE_INPUTS = {
    "content": "it is {project}/content, which the build reads",
    "content/validations": "it is in {project}/content, which the build reads",
    "templates": "it is {project}/templates, which the build reads",
    "templates/cache": "it is in {project}/templates, which the build reads",
    ".": "it is the project's folder, {project}",
    "..": "it holds the project's folder, {project}",
}
# Where it may be: beside the project, or in it apart from the content and templates.
APART = ["../cache", ".cache"]


def _cache_named(project: Path, named: str, way: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Name the cache `named` the `way` given: mkdocs.yml's option, or the environment."""
    monkeypatch.delenv("CLOUDQUAL_CACHE_DIR", raising=False)
    if way == "CLOUDQUAL_CACHE_DIR":
        monkeypatch.setenv("CLOUDQUAL_CACHE_DIR", named)
    else:
        config = project / "mkdocs.yml"
        option = "      templates_dir: templates\n"
        text = config.read_text(encoding="utf-8")
        assert option in text
        config.write_text(text.replace(option, option + f"      cache_dir: {named}\n"), "utf-8")


def _refusal_names(said: str, project: Path, named: str, shown: str | None = None) -> None:
    """`said` refuses the cache folder `named`, in one line, naming it (as `shown`, else as the
    project's folder joined with it) and what it is among."""
    assert len(said.strip().splitlines()) == 1, said
    cache = shown if shown is not None else str(project / named)
    among = AMONG_THE_INPUTS[named].format(project=project.resolve())
    assert f"refusing to keep the cache in {cache}: {among}" in said, said


@pytest.mark.parametrize("way", ["cache_dir", "CLOUDQUAL_CACHE_DIR"])
@pytest.mark.parametrize("named", sorted(AMONG_THE_INPUTS))
def test_the_zensical_build_refuses_a_cache_among_its_inputs(
    tmp_path: Path, named: str, way: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from generator.engines import runner
    from generator.engines.project import read_config
    from generator.render.output import Refused

    project = make_project(tmp_path / "project", MINIMAL)
    _cache_named(project, named, way, monkeypatch)
    config = project / "mkdocs.yml"
    with pytest.raises(Refused) as refused:
        runner.plugin_options(config, read_config(config))
    _refusal_names(str(refused.value), project, named)


@pytest.mark.parametrize("way", ["cache_dir", "CLOUDQUAL_CACHE_DIR"])
@pytest.mark.parametrize("named", APART)
def test_a_cache_apart_from_the_inputs_is_taken(
    tmp_path: Path, named: str, way: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from generator.engines import runner
    from generator.engines.project import read_config

    project = make_project(tmp_path / "project", MINIMAL)
    _cache_named(project, named, way, monkeypatch)
    config = project / "mkdocs.yml"
    assert runner.plugin_options(config, read_config(config)).cache_dir == project / named


@pytest.mark.parametrize("way", ["--cache", "CLOUDQUAL_CACHE_DIR"])
@pytest.mark.parametrize("named", sorted(AMONG_THE_INPUTS))
def test_render_refuses_a_cache_among_its_inputs(
    tmp_path: Path,
    named: str,
    way: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    project = make_project(tmp_path / "project", MINIMAL)
    monkeypatch.chdir(project)
    monkeypatch.delenv("CLOUDQUAL_CACHE_DIR", raising=False)
    cache = ["--cache", named] if way == "--cache" else []
    if way == "CLOUDQUAL_CACHE_DIR":
        monkeypatch.setenv("CLOUDQUAL_CACHE_DIR", named)
    before = tree(tmp_path)
    capsys.readouterr()
    code = main(["render", "--out", str(tmp_path / "out"), "--as-of", AS_OF, *cache])
    said = capsys.readouterr().err
    assert code == 1, said
    assert said.startswith("cloudqual render: refusing to keep the cache in ")
    _refusal_names(said, project, named, named if way == "--cache" else None)
    assert tree(tmp_path) == before


@pytest.mark.build
@pytest.mark.parametrize(
    ("named", "way"), [("content", "CLOUDQUAL_CACHE_DIR"), ("templates/cache", "cache_dir")]
)
def test_mkdocs_refuses_a_cache_among_its_inputs(
    tmp_path: Path, named: str, way: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = make_project(tmp_path / "project", MINIMAL)
    _cache_named(project, named, way, monkeypatch)
    before = tree(tmp_path)
    result = build(project, "plain mkdocs")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    refused = [line for line in result.stderr.splitlines() if "refusing" in line]
    assert len(refused) == 1, result.stderr
    _refusal_names(refused[0], project, named)
    assert tree(tmp_path) == before
    assert main(["check", "--content", str(project / "content")]) == 0
