"""The remembered build: reused only when no input changed, and never from the project's tree."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from build import make_project, mkdocs_build, tree_digest
from conftest import AS_OF, MINIMAL, ROOT, copy_content

from generator.model.options import Options
from generator.model.policy import Policy
from generator.pipeline import memo as memo_module
from generator.pipeline import run as pipeline
from generator.pipeline.memo import Memo, default_cache_dir, fingerprint
from generator.pipeline.run import Caches, Inputs, build
from generator.render.output import Output, Page
from generator.render.svg import SvgStore

OPTIONS = {"as_of": "2026-12-02", "directory_urls": True}


def _tree(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_the_key_changes_with_every_input(tmp_path: Path) -> None:
    content = _tree(tmp_path / "content", {"a/x.yaml": "id: x\n", "pages/p.md": "# P\n"})
    templates = _tree(tmp_path / "templates", {"t.md.j2": "{{ x }}"})
    key = fingerprint(content, templates, OPTIONS)
    assert fingerprint(content, templates, dict(reversed(OPTIONS.items()))) == key
    changed = [
        ({"a/x.yaml": "id: y\n"}, content),
        ({"pages/p.md": "# Q\n"}, content),
        ({"a/new.yaml": ""}, content),
        ({"t.md.j2": "{{ y }}"}, templates),
    ]
    for files, folder in changed:
        before = {name: (folder / name).read_bytes() for name in files if (folder / name).exists()}
        _tree(folder, files)
        assert fingerprint(content, templates, OPTIONS) != key, files
        for name in files:
            if name in before:
                (folder / name).write_bytes(before[name])
            else:
                (folder / name).unlink()
        assert fingerprint(content, templates, OPTIONS) == key
    # A file moved to another name is another input, though its bytes are the same.
    (content / "a" / "x.yaml").rename(content / "a" / "z.yaml")
    assert fingerprint(content, templates, OPTIONS) != key
    (content / "a" / "z.yaml").rename(content / "a" / "x.yaml")
    assert fingerprint(content, templates, {**OPTIONS, "as_of": "2026-12-03"}) != key


def test_a_memo_gives_back_what_was_put_and_keeps_one_build(tmp_path: Path) -> None:
    memo = Memo(tmp_path / "cache")
    assert memo.get("a") is None
    pages = {"index.md": Page("index.md", "# Home ü\n", None), "x.md": Page("x.md", "x", "c/x")}
    data = {"api/x.json": b'{"a": "\xc3\xbc"}', "img.bin": b"\xff\x00\xfe"}
    memo.put("a", Output(pages, data), ["content/x.yaml:1:1: a warning"])
    remembered = memo.get("a")
    assert remembered is not None
    assert remembered.output == Output(pages, data)
    assert remembered.warnings == ["content/x.yaml:1:1: a warning"]
    memo.put("b", Output({}, {}), [])
    assert memo.get("a") is None and memo.get("b") is not None
    assert [path.name for path in (tmp_path / "cache").iterdir()] == ["site-b.json"]
    (tmp_path / "cache" / "site-b.json").write_text("{not json", encoding="utf-8")
    assert memo.get("b") is None  # unreadable: the build is made again


@pytest.mark.build
def test_an_unchanged_rebuild_reuses_the_last_build(tmp_path: Path) -> None:
    project = make_project(tmp_path / "project", MINIMAL)
    first = mkdocs_build(project, CLOUDQUAL_AS_OF="2026-12-02")
    assert first.returncode == 0, first.stderr
    assert "SVGs converted" in first.stderr and "are reused" not in first.stderr
    built = tree_digest(project / "site")
    second = mkdocs_build(project, CLOUDQUAL_AS_OF="2026-12-02")
    assert second.returncode == 0, second.stderr
    assert "are reused" in second.stderr and "SVGs converted" not in second.stderr
    assert tree_digest(project / "site") == built
    # Another as-of date, or an edited record, is built again.
    third = mkdocs_build(project, CLOUDQUAL_AS_OF="2026-12-03")
    assert "are reused" not in third.stderr and third.returncode == 0, third.stderr
    record = project / "content" / "validations" / "test-validation.yaml"
    text = record.read_text(encoding="utf-8")
    record.write_text(text.replace("A synthetic validation.", "Edited."), encoding="utf-8")
    fourth = mkdocs_build(project, CLOUDQUAL_AS_OF="2026-12-03")
    assert "are reused" not in fourth.stderr and fourth.returncode == 0, fourth.stderr
    assert (
        "Edited."
        in (project / "site" / "validations" / "test-validation" / "index.html").read_text()
    )


@pytest.mark.build
def test_a_cache_placed_in_the_project_is_never_read(tmp_path: Path) -> None:
    """A pull request can add any file to the repository: a remembered build or a chart it
    placed in the project's folders must not become the site."""
    project = make_project(tmp_path / "project", MINIMAL)
    assert mkdocs_build(project, CLOUDQUAL_AS_OF="2026-12-02").returncode == 0
    cache = default_cache_dir(project)
    assert not cache.resolve().is_relative_to(project.resolve())
    stored = sorted(cache.glob("site-*.json"))
    assert len(stored) == 1
    planted = stored[0].read_text(encoding="utf-8").replace("A synthetic validation.", "PLANTED")
    folder = project / ".cache" / "cloudqual"  # where the cache was kept before
    folder.mkdir(parents=True)
    (folder / stored[0].name).write_text(planted, encoding="utf-8")
    for svg in cache.glob("*.svg"):
        (folder / svg.name).write_text("<svg><script>alert(1)</script></svg>")
    shutil.rmtree(cache)  # so the build has to look for a cache
    result = mkdocs_build(project, CLOUDQUAL_AS_OF="2026-12-02")
    assert result.returncode == 0, result.stderr
    assert "are reused" not in result.stderr and "SVGs converted" in result.stderr
    site = project / "site"
    assert not any(b"PLANTED" in path.read_bytes() for path in site.rglob("*") if path.is_file())
    assert not any(b"<script>" in svg.read_bytes() for svg in site.rglob("*.svg"))


@pytest.mark.build
def test_ci_names_the_cache_folder_outside_the_checkout(tmp_path: Path) -> None:
    """CI restores the charts main drew into a folder named by CLOUDQUAL_CACHE_DIR, relative to
    the project, at the same place in every job: the build draws none of them again."""
    project = make_project(tmp_path / "project", MINIMAL)
    named = {"CLOUDQUAL_CACHE_DIR": "../ci-cache", "CLOUDQUAL_AS_OF": "2026-12-02"}
    first = mkdocs_build(project, **named)
    assert first.returncode == 0, first.stderr
    charts = sorted((tmp_path / "ci-cache" / "cloudqual-charts").glob("*.svg"))
    assert charts and not list(default_cache_dir(project).glob("cloudqual-charts/*.svg"))
    # What CI restores is the charts folder alone: a fresh job, with no remembered build.
    for stored in (tmp_path / "ci-cache").glob("site-*.json"):
        stored.unlink()
    shutil.rmtree(project / "site")
    second = mkdocs_build(project, **named)
    assert second.returncode == 0, second.stderr
    assert "charts: 0 SVGs converted" in second.stderr
    assert sorted((project / "site" / "charts").glob("*.svg"))


MARK = "\n<!-- taken from the remembered build -->\n"
STORE = SvgStore(None)  # charts converted once for the builds below, kept in memory


def _build(content: Path, templates: Path, memo: Memo) -> Output:
    inputs = Inputs(content, Options(templates, Policy(AS_OF)))
    assert inputs.key is not None
    remembered, reused = build(inputs, Caches(memo, STORE), say=lambda _: None)
    assert not reused  # every build here is another input's: never the remembered build whole
    return remembered.output


def _remember_marked(memo: Memo, output: Output) -> None:
    """Store `output` with a mark on every page, its signatures kept: a later build's page that
    carries the mark was taken from the memo, not rendered."""
    signed = {
        uri: (signature, Page(page.uri, page.markdown + MARK, page.edit_path))
        for uri, (signature, page) in output.signed.items()
    }
    pages = {uri: page for uri, (_, page) in signed.items()}
    memo.put("an earlier build", Output(pages, output.data, signed), [])


def _taken(output: Output) -> set[str]:
    return {uri for uri, page in output.pages.items() if page.markdown.endswith(MARK)}


def test_a_build_after_an_edit_reuses_the_remembered_pages_the_edit_leaves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every `mkdocs build` is a new process: after an edit, the pages of the remembered build
    whose signatures are unchanged are reused, and the rest rendered; the site is byte for byte
    a cold build's. A record, a template, the code or a dependency changed: nothing is reused
    that reads it (in the minimal content, every page reads its one result). Which pages each
    record kind's edit leaves is tests/pipeline/test_incremental.py's, with the same signatures."""
    content = copy_content(MINIMAL, tmp_path / "content")
    templates = tmp_path / "templates"
    shutil.copytree(ROOT / "templates", templates)
    memo = Memo(tmp_path / "cache")
    first = _build(content, templates, memo)
    _remember_marked(memo, first)
    # A hand-written page changes the build's key, and no generated page.
    page = content / "pages" / "methodology.md"
    page.write_text(page.read_text("utf-8") + "\nAn edit.\n", "utf-8")
    edited = _build(content, templates, memo)
    assert _taken(edited) == set(edited.pages) == set(first.pages)
    shown = {uri: page.markdown.removesuffix(MARK) for uri, page in edited.pages.items()}
    cold = _build(content, templates, Memo(tmp_path / "cold"))
    assert shown == {uri: page.markdown for uri, page in cold.pages.items()}
    assert edited.data == cold.data

    def changed(edit: Callable[[], object]) -> Output:
        _remember_marked(memo, _build(content, templates, memo))
        edit()
        output = _build(content, templates, memo)
        assert not _taken(output)
        return output

    provider = content / "providers" / "test-provider.yaml"
    text = provider.read_text("utf-8").replace("A synthetic provider.", "An edited provider.")
    output = changed(lambda: provider.write_text(text, "utf-8"))
    assert output.pages == _build(content, templates, Memo(tmp_path / "cold-2")).pages
    main = templates / "overrides" / "main.html"
    changed(lambda: main.write_text(main.read_text("utf-8") + "\n", "utf-8"))
    with monkeypatch.context() as patch:  # the generator's own source, as its version reads
        changed(lambda: patch.setattr(pipeline, "code_version", lambda: "another version"))
    with monkeypatch.context() as patch:  # an installed distribution's version
        changed(lambda: patch.setattr(memo_module, "installed", lambda: "other-1.0.dist-info"))


@pytest.mark.slow
def test_a_single_build_is_remembered_whole_once_its_charts_are_drawn(tmp_path: Path) -> None:
    """A `mkdocs build` (not serve) makes its pages first, and its data files and the charts
    its cache lacks after: where no child is forked (`begin` is not called), `complete` makes
    them here, and the build is remembered at its end, whole; a build that fails is not
    remembered, and its drawing stops."""
    from generator.engines.session import Session

    inputs = Inputs(MINIMAL, Options(ROOT / "templates", Policy(AS_OF)))
    said: list[str] = []
    session = Session(tmp_path / "cache", serving=False, say=said.append)
    session.build(inputs)
    assert session.unsaved is not None and session.svg_store.pending
    assert not list((tmp_path / "cache").glob("site-*.json"))
    drawn = {uri for uri in session.data if uri.endswith(".svg")}
    assert not any(uri.startswith("api/") for uri in session.data)  # made later
    session.complete()
    svgs = {uri for uri in session.data if uri.endswith(".svg")}
    assert svgs and drawn < svgs
    whole, _ = build(inputs, Caches(Memo(tmp_path / "whole"), SvgStore(None)), say=print)
    assert session.data == whole.output.data and session.pages == whole.output.pages
    [stored] = (tmp_path / "cache").glob("site-*.json")
    assert Memo(tmp_path / "cache").get(stored.stem.removeprefix("site-")).output.data == (
        session.data
    )
    # A failed build: nothing remembered, nothing drawn into the cache.
    failed = Session(tmp_path / "failed", serving=False, say=said.append)
    failed.build(inputs)
    failed.svg_store.start()
    failed.discard()
    failed.complete()
    assert not list((tmp_path / "failed").rglob("site-*.json"))
    assert not list((tmp_path / "failed").rglob("*.svg"))
    # The charts cached (a new key: another URL style): nothing left to draw, and the build
    # remembered at its end all the same, in place of the last.
    again = Session(tmp_path / "cache", serving=False, say=said.append)
    again.build(Inputs(MINIMAL, Options(ROOT / "templates", Policy(AS_OF), directory_urls=False)))
    assert again.unsaved is not None and not again.svg_store.pending
    again.complete()
    assert list((tmp_path / "cache").glob("site-*.json")) != [stored]
    assert len(list((tmp_path / "cache").glob("site-*.json"))) == 1


# Run in a new interpreter: a process whose chart converter has drawn (as earlier tests' may
# have) holds its threads, and `child.available` then refuses to fork.
FORKED = """
import shutil, sys, threading, time
from pathlib import Path
from conftest import AS_OF, MINIMAL, ROOT
from generator.pipeline.memo import Memo
from generator.pipeline.run import Inputs
from generator.engines import child
from generator.engines.session import Session
from generator.model.options import Options
from generator.model.policy import Policy

tmp_path = Path(sys.argv[1])
assert child.available()
waiting = threading.Event()
thread = threading.Thread(target=waiting.wait)
thread.start()
assert not child.available()  # a second thread: no fork
waiting.set()
thread.join()
inputs = Inputs(MINIMAL, Options(ROOT / "templates", Policy(AS_OF)))
said = []
session = Session(tmp_path / "cache", serving=False, say=said.append)
session.build(inputs)
session.begin(tmp_path / "site", set())
assert session.ending is not None
session.complete()
assert session.ending is None and session.data == {}
assert not any("made here" in line for line in said)
written = {
    path.relative_to(tmp_path / "site").as_posix(): path.read_bytes()
    for path in (tmp_path / "site").rglob("*")
    if path.is_file()
}
[stored] = (tmp_path / "cache").glob("site-*.json")
remembered = Memo(tmp_path / "cache").get(stored.stem.removeprefix("site-"))
assert remembered is not None and remembered.output.data == written

# MkDocs would write a data file too: the child refuses before writing any, and the parent
# makes the end itself, for the site folder to write after MkDocs, as ever.
shutil.rmtree(tmp_path / "cache")
refused = Session(tmp_path / "cache", serving=False, say=said.append)
refused.build(inputs)
refused.begin(tmp_path / "refused", {"api/v1/index.json"})
refused.complete()
assert "MkDocs writes data files of the build too: api/v1/index.json" in said[-1], said
assert said[-1].startswith("cloudqual: the build's end is made here"), said
assert not (tmp_path / "refused").exists()
assert refused.data == written
assert len(list((tmp_path / "cache").glob("site-*.json"))) == 1

# A failed build stops its child where it is: nothing is remembered.
shutil.rmtree(tmp_path / "cache")
stopped = Session(tmp_path / "cache", serving=False, say=said.append)
stopped.build(inputs)
Memo.put = lambda *_: time.sleep(60)
stopped.begin(tmp_path / "stopped", set())
begun = time.monotonic()
stopped.discard()
assert stopped.ending is None and time.monotonic() - begun < 30
stopped.complete()
assert not list((tmp_path / "cache").glob("site-*.json"))
print("forked")
"""


@pytest.mark.slow
def test_a_single_builds_end_is_made_in_a_forked_child(tmp_path: Path) -> None:
    """`begin` forks the build's end off: the child writes the data files into the site folder
    and remembers the build, the same files as a build made whole here. A child that fails
    (here: MkDocs would write one of the data files too) is reported, and the parent makes the
    end itself; one stopped (the build failed) leaves nothing remembered. No fork from a
    process of more than one thread."""
    result = subprocess.run(
        [sys.executable, "-c", FORKED, str(tmp_path)], capture_output=True, text=True,
        timeout=300, cwd=ROOT / "tests", check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout == "forked\n"
    whole, _ = build(
        Inputs(MINIMAL, Options(ROOT / "templates", Policy(AS_OF))),
        Caches(Memo(tmp_path / "whole"), SvgStore(None)),
        say=print,
    )
    written = {
        path.relative_to(tmp_path / "site").as_posix(): path.read_bytes()
        for path in (tmp_path / "site").rglob("*")
        if path.is_file()
    }
    assert written == whole.output.data
