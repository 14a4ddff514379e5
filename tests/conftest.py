"""Shared test helpers: a copy of a content tree in a temporary folder, with files laid over it."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import TypeVar

import pytest

from generator.checks.loader import load_site
from generator.model.options import Options
from generator.model.policy import Policy
from generator.model.site import Site
from generator.pipeline.run import site_output
from generator.render.output import Output
from generator.render.reuse import Reuse
from generator.render.svg import SvgStore

ROOT = Path(__file__).resolve().parent.parent
MINIMAL = ROOT / "tests" / "fixtures" / "minimal" / "content"

# What a test may do beyond its own process, by marker: `make check` runs the tests with
# neither, so a contributor's loop stays under a minute. A test that builds a site or opens a
# browser without its marker fails, whatever runs it: the markers cannot drift from the tests.
BUILD, BROWSER = "build", "browser"
T = TypeVar("T")
# The nightly workflow sets CLOUDQUAL_EXHAUSTIVE=1: the browser then visits every page of every
# hostile site, both schemes and both sizes of site, where make test visits what each test needs.
EXHAUSTIVE = os.environ.get("CLOUDQUAL_EXHAUSTIVE") == "1"


def variants(sample: list[T], every: list[T]) -> list[T]:
    """The cases a test runs: `every` in the nightly run, `sample` otherwise."""
    return every if EXHAUSTIVE else sample


# Fixtures that build a site, or take one that was built: a test that takes one is marked.
BUILD_FIXTURES = frozenset(
    {
        "built",
        "zensical_built",
        "engine_built",
        "clean_site",
        "hostile_sites",
        "plugin_site",
        "rendered",
        "engine_site",
        "good_minimal",
        "built_minimal",
        "synthetic_built",
        "site_dir",
        "project_with_cache",
    }
)
_running: set[str] = set()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if BUILD_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(BUILD)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    _running.clear()
    _running.update(mark.name for mark in item.iter_markers())


def require(marker: str, doing: str) -> None:
    """Fail the running test unless it carries `marker`: it is about to do `doing`."""
    if marker not in _running:
        pytest.fail(
            f"this test {doing}: mark it @pytest.mark.{marker}, so `make check` leaves it out"
        )


def copy_content(source: Path, destination: Path, overlay: Path | None = None) -> Path:
    """Copy a content tree to `destination`, then lay the files under `overlay` over it."""
    shutil.copytree(source, destination)
    if overlay is not None:
        for path in sorted(overlay.rglob("*")):
            if path.is_file():
                target = destination / path.relative_to(overlay)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target)
    return destination


@pytest.fixture(scope="session", autouse=True)
def cache_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Builds keep their caches under the user's cache folder; the tests' builds keep theirs in
    a folder of the session, which the builds they start inherit."""
    folder = tmp_path_factory.mktemp("cache-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(folder))
        patch.delenv("CLOUDQUAL_CACHE_DIR", raising=False)  # CI's, for its own build
        yield folder


# The day the in-process tests judge validity and review on: fixed, so no test moves with the
# calendar, and one render of the real content serves every test that reads it.
AS_OF = date(2026, 12, 2)
# The charts of the real content, converted once a process and kept in memory, for the tests
# that render the real content or a copy of it (a chart is keyed by its spec). Each render
# keeps only the charts it used: a render of an edited copy may send the next render of the
# real content back to the converter for the charts the edit changed.
CHARTS = SvgStore(None)


@pytest.fixture(scope="session")
def real_site() -> Site:
    """The real content, loaded once a session: a test may read it, never change it (the models
    are frozen)."""
    return load_site(ROOT / "content")


@pytest.fixture(scope="session")
def real_output(real_site: Site) -> Output:
    """The real content rendered once a session, on AS_OF, with the session's chart cache."""
    return site_output(
        real_site, Options(ROOT / "templates", Policy(AS_OF)), reuse=Reuse(svg=CHARTS)
    )


@pytest.fixture
def minimal_content(tmp_path: Path) -> Path:
    return copy_content(MINIMAL, tmp_path / "content")


EDIT = "https://code.test/owner/cloudqual/edit/main/"


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real content, built once by `mkdocs build --strict`: the site folder."""
    from build import make_project, mkdocs_build

    project = make_project(tmp_path_factory.mktemp("real"), ROOT / "content")
    result = mkdocs_build(project, CLOUDQUAL_EDIT_URI=EDIT)
    assert result.returncode == 0, result.stderr
    assert not re.search(r"^(WARNING|ERROR)\b", result.stderr, re.MULTILINE), result.stderr
    return project / "site"


@pytest.fixture(scope="session")
def zensical_built(built: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real content, built once by `cloudqual build --engine zensical` from a fresh copy of
    the project, on the day the MkDocs build (`built`) judged on: the site folder."""
    import json

    from build import make_project, zensical_build

    as_of = json.loads((built / "api" / "v1" / "index.json").read_text(encoding="utf-8"))["as_of"]
    project = make_project(tmp_path_factory.mktemp("real-zensical"), ROOT / "content")
    result = zensical_build(project, CLOUDQUAL_EDIT_URI=EDIT, CLOUDQUAL_AS_OF=as_of)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No issues found" in result.stderr, result.stderr
    return project / "site"


@pytest.fixture(scope="session", params=["mkdocs", "zensical"])
def engine_built(request: pytest.FixtureRequest) -> Path:
    """The real site as each engine builds it: the tests that take it hold both to the same."""
    fixture = "built" if request.param == "mkdocs" else "zensical_built"
    site: Path = request.getfixturevalue(fixture)
    return site
