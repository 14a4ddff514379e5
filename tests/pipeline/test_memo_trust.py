"""The remembered build is checked before it is reused: a file edited in the cache (or placed
there) must not write outside the site, nor bring in a script that the policy's 'self' would then
run. It is refused, with a notice, and the site is built in full."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from build import make_project, mkdocs_build
from conftest import BUILD, MINIMAL, require

from generator.pipeline import memo as memo_module
from generator.pipeline.memo import Memo
from generator.render.output import Output, Page

AS_OF = "2026-12-02"
NOTICE = "the remembered build was not used"
ESCAPED = "../../../escaped.txt"
SCRIPT = '<script src="evil.js"></script>'


def stored_parts(path: Path) -> tuple[bytes, dict[str, Any]]:
    """A remembered build as stored: what precedes its entries (a line that seals them, in the
    layout that has one), and the entries."""
    raw = path.read_bytes()
    try:
        return b"", json.loads(raw)
    except ValueError:
        head, _, body = raw.partition(b"\n")
        return head + b"\n", json.loads(body)


def tamper(stored: dict[str, Any]) -> None:
    """What an attacker who can write the cache adds: a file outside the site, and a script the
    site's own origin serves."""
    stored["text"][ESCAPED] = "escaped"
    stored["text"]["evil.js"] = "alert(document.cookie)"
    stored["pages"][0][1] += f"\n{SCRIPT}\n"


def edit(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    head, stored = stored_parts(path)
    change(stored)
    path.write_bytes(head + json.dumps(stored, ensure_ascii=False).encode("utf-8"))


def project_with_cache(tmp_path: Path) -> tuple[Path, Path]:
    """A project three folders deep, its cache beside it: ESCAPED, written from the site or the
    work folder, lands inside tmp_path, where the test looks for it."""
    project = make_project(tmp_path / "a" / "b" / "project", MINIMAL)
    config = project / "mkdocs.yml"
    option = "      templates_dir: templates\n"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace(option, option + "      cache_dir: ../cache\n"), "utf-8")
    return project, project.parent / "cache"


def zensical(project: Path) -> subprocess.CompletedProcess[str]:
    require(BUILD, "builds a site with Zensical")
    return subprocess.run(
        [sys.executable, "-m", "generator.cli", "build", "--engine", "zensical"],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "CLOUDQUAL_AS_OF": AS_OF},
        check=False,
        timeout=600,
    )


def assert_untouched_by(tmp_path: Path, site: Path) -> None:
    assert list(tmp_path.rglob("escaped.txt")) == []
    assert not (site / "evil.js").exists()
    assert not any(b"evil.js" in path.read_bytes() for path in site.rglob("*.html"))


@pytest.mark.build
def test_an_edited_build_is_refused_and_the_site_built_in_full(tmp_path: Path) -> None:
    project, cache = project_with_cache(tmp_path)
    first = mkdocs_build(project, CLOUDQUAL_AS_OF=AS_OF)
    assert first.returncode == 0, first.stderr
    (stored,) = cache.glob("site-*.json")
    edit(stored, tamper)
    again = mkdocs_build(project, CLOUDQUAL_AS_OF=AS_OF)
    assert again.returncode == 0, again.stderr
    assert NOTICE in again.stderr and "Traceback" not in again.stderr
    assert "are reused" not in again.stderr and "pages rendered" in again.stderr
    assert_untouched_by(tmp_path, project / "site")
    # The build in full was remembered in its place, and is reused by the next.
    third = mkdocs_build(project, CLOUDQUAL_AS_OF=AS_OF)
    assert "are reused" in third.stderr and NOTICE not in third.stderr


@pytest.mark.build
def test_an_edited_build_is_refused_by_the_zensical_build(tmp_path: Path) -> None:
    project, cache = project_with_cache(tmp_path)
    first = zensical(project)
    assert first.returncode == 0, first.stdout + first.stderr
    (stored,) = (cache / "zensical").rglob("site-*.json")
    edit(stored, tamper)
    again = zensical(project)
    assert again.returncode == 0, again.stdout + again.stderr
    assert NOTICE in again.stderr and "Traceback" not in again.stderr
    assert "reused" not in again.stdout
    assert_untouched_by(tmp_path, project / "site")


PAGES = {"index.md": Page("index.md", "# Home\n", None), "a/b.md": Page("a/b.md", "B", "c/b")}
DATA = {"api/x.json": b"{}", "charts/x.svg": b"<svg/>", "img.bin": b"\xff\x00"}


def test_a_build_stored_under_one_key_is_not_reused_under_another(tmp_path: Path) -> None:
    memo = Memo(tmp_path)
    memo.put("a", Output(PAGES, DATA), [])
    assert memo.get("a") == memo_module.Remembered(Output(PAGES, DATA), [])
    (tmp_path / "site-a.json").rename(tmp_path / "site-b.json")
    assert memo.get("b") is None
    assert memo.refused is not None and "key" in memo.refused


@pytest.mark.parametrize(
    "change",
    [
        lambda stored: stored["pages"][0].__setitem__(1, "# Home\n" + SCRIPT),
        lambda stored: stored["text"].__setitem__("api/x.json", '{"a": 1}'),
        lambda stored: stored["warnings"].clear(),
        lambda stored: stored["text"].pop("api/x.json"),
    ],
    ids=["script in a page", "data changed", "warnings dropped", "file dropped"],
)
def test_any_edit_of_a_stored_build_is_refused(
    tmp_path: Path, change: Callable[[dict[str, Any]], None]
) -> None:
    memo = Memo(tmp_path)
    memo.put("k", Output(PAGES, DATA), ["content/x.yaml:1:1: a warning"])
    edit(tmp_path / "site-k.json", change)
    assert memo.get("k") is None
    assert memo.refused is not None


def sealed(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> Memo:
    """A stored build with `change` made, then sealed again as the memo seals one: what only
    the memo's own code could write, so that what is checked is the entries themselves."""
    memo = Memo(tmp_path)
    memo.put("k", Output(PAGES, DATA), [])
    path = tmp_path / "site-k.json"
    _, stored = stored_parts(path)
    change(stored)
    body = json.dumps(stored, ensure_ascii=False).encode("utf-8")
    sealed = memo_module.seal("k", body)
    assert sealed is not None
    path.write_bytes(sealed)
    return memo


def test_a_sealed_build_unchanged_is_reused(tmp_path: Path) -> None:
    memo = sealed(tmp_path, lambda stored: None)
    assert memo.get("k") == memo_module.Remembered(Output(PAGES, DATA), [])


def _page_at(uri: object) -> Callable[[dict[str, Any]], None]:
    return lambda stored: stored["pages"].append([uri, "# X\n", None, None])


def _data_at(uri: str) -> Callable[[dict[str, Any]], None]:
    return lambda stored: stored["text"].__setitem__(uri, "x")


BAD = {
    "data out of the site": _data_at(ESCAPED),
    "data at an absolute path": _data_at("/home/escaped.txt"),
    "data with a backslash": _data_at("..\\escaped.txt"),
    "data with a NUL": _data_at("api/x.json\0.txt"),
    "data at a dot folder": _data_at("./api/./x.json"),
    "data at an empty name": _data_at("api//x.json"),
    "binary out of the site": lambda stored: stored["binary"].__setitem__("../x.bin", "AAAA"),
    "binary not base64": lambda stored: stored["binary"].__setitem__("x.bin", "not base64!"),
    "page out of the site": _page_at("../../index.md"),
    "page not a string": _page_at(7),
    "page listed twice": _page_at("index.md"),
    "page with an edit path out of the site": lambda stored: stored["pages"][1].__setitem__(
        2, "../../etc/passwd"
    ),
    "page entry too short": lambda stored: stored["pages"].append(["x.md", "# X\n"]),
    "page markdown not text": lambda stored: stored["pages"][0].__setitem__(1, ["# Home"]),
    "warning not text": lambda stored: stored["warnings"].append({"x": 1}),
    "unknown field": lambda stored: stored.__setitem__("scripts", []),
    "field missing": lambda stored: stored.pop("binary"),
    "entries not a mapping": lambda stored: stored.__setitem__("text", [["a.json", "{}"]]),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_sealed_build_is_checked_entry_by_entry(tmp_path: Path, case: str) -> None:
    memo = sealed(tmp_path, BAD[case])
    assert memo.get("k") is None
    assert memo.refused is not None and "expected" in memo.refused


def test_a_secret_another_user_may_read_or_write_seals_nothing(tmp_path: Path) -> None:
    """The secret is the only barrier to running the templates' kept code: one that others may
    read, or that is not a file of this user's, is not used, and nothing is remembered."""
    import os

    from generator.render.seal import secret_at as _secret_at

    key = tmp_path / "memo.key"
    key.write_text("ab" * 32, encoding="ascii")
    for mode, usable in ((0o644, False), (0o620, False), (0o604, False), (0o600, True)):
        key.chmod(mode)
        _secret_at.cache_clear()
        assert (_secret_at(key) is not None) is usable, oct(mode)
    link = tmp_path / "link.key"
    link.symlink_to(key)
    _secret_at.cache_clear()
    assert _secret_at(link) is None
    if os.getuid() == 0:  # root may give the file away
        os.chown(key, 12345, -1)
        _secret_at.cache_clear()
        assert _secret_at(key) is None
    _secret_at.cache_clear()
