"""A rebuild after an edit renders again only the pages that depend on what changed, and its
pages are exactly those of a full render of the edited content."""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from conftest import CHARTS, ROOT, variants

from generator.checks.loader import load_site
from generator.model.options import Options
from generator.model.policy import Policy
from generator.model.site import Site
from generator.pipeline.run import site_output
from generator.render.output import Output
from generator.render.reuse import Reuse

POLICY = Policy(date(2026, 12, 2))
TEMPLATES = ROOT / "templates"
# The first free-text field of a record, as one line: what an everyday edit changes.
TEXT = re.compile(
    r"^(\s*(?:- )?(?:title|name|text|description|summary|detail|note|release|label|reason): )(.+)$",
    re.M,
)


STORE = CHARTS  # charts converted once a process, kept in memory for every render here
# Each file's reading, by its bytes, as `mkdocs serve` keeps it: a load after an edit reads
# again only the edited file. What is compared is rendering, which is never shared.
KNOWN: dict[Any, Any] = {}


def _render(
    content: Path, previous: Output | None = None, site: Site | None = None
) -> tuple[Output, int]:
    site = site or load_site(content, known=KNOWN)
    signed = previous.signed if previous else {}
    output = site_output(site, Options(TEMPLATES, POLICY), reuse=Reuse(previous=signed, svg=STORE))
    reused = sum(
        1
        for uri, (signature, page) in output.signed.items()
        if previous is not None and previous.signed.get(uri, ("", None))[1] is page
    )
    return output, reused


def _edited(text: str) -> str | None:
    match = TEXT.search(text)
    if match is None:
        return None
    value = match[2]
    if value[:1] in "\"'":
        value = value[:-1] + " 2" + value[-1]
    elif value[:1] in "|>[{&*!":
        return None
    else:
        value += " 2"
    return text[: match.start(2)] + value + text[match.end(2) :]


@pytest.fixture(scope="module")
def before(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Output]:
    content = tmp_path_factory.mktemp("content") / "content"
    shutil.copytree(ROOT / "content", content)
    return content, _render(content)[0]


def _check_edit(content: Path, first: Output, path: Path, text: str) -> int:
    """Applies `text` to `path`, checks the incremental render equals the full one, restores the
    file, and gives how many pages were rendered again."""
    original = path.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    try:
        site = load_site(content, known=KNOWN)
        incremental, reused = _render(content, first, site)
        full, _ = _render(content, site=site)
    finally:
        path.write_text(original, encoding="utf-8")
    assert incremental.pages == full.pages, path.name
    assert incremental.data == full.data, path.name
    return len(full.pages) - reused


KINDS = [
    "validations",
    "providers",
    "platforms",
    "programs",
    "suites",
    "sources",
    "case-studies",
    "checklists",
    "questions",
]


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_an_edit_of_any_kind_renders_what_a_full_render_does(
    before: tuple[Path, Output], kind: str
) -> None:
    content, first = before
    files = sorted((content / kind).glob("*.yaml"))
    edited = [(path, text) for path in files if (text := _edited(path.read_text("utf-8")))]
    assert edited, kind
    # One file of the kind; the nightly run edits the first, a middle and the last. Every file
    # of a kind is read, checked and rendered by the same code, so make test gains little from
    # more than one.
    chosen = variants([edited[0]], [edited[0], edited[len(edited) // 2], edited[-1]])
    for path, text in {id(e): e for e in chosen}.values():
        _check_edit(content, first, path, text)


@pytest.mark.slow
def test_a_result_edit_renders_only_its_dependants(before: tuple[Path, Output]) -> None:
    content, first = before
    path = content / "validations" / "crusoe-hgx-b300-exemplar.yaml"
    text = path.read_text(encoding="utf-8")
    rendered = _check_edit(content, first, path, text.replace("Crusoe", "Crusoe (edited)", 1))
    # Its page, its checklist, its provider, program and platform pages, its side-by-side
    # pages, and the pages that list every result: not the other results' pages.
    assert 0 < rendered < len(first.pages) // 4, rendered


@pytest.mark.slow
def test_structural_edits_render_what_a_full_render_does(before: tuple[Path, Output]) -> None:
    """Edits that move a result between pages, or change what is derived across results."""
    content, first = before
    # Oracle's: none of its facts is a provider's own statement, so it may move to Lambda.
    path = content / "validations" / "oracle-nvidia-b200-sxm-180gb-mlperf-training-v5-1.yaml"
    text = path.read_text(encoding="utf-8")
    edits = [
        text.replace("provider: oracle", "provider: lambda", 1),
        text.replace("program_release: v5.1", "program_release: v6.0", 1),
        re.sub(r"^announced: .*$", "announced: 2026-01-15", text, count=1, flags=re.M),
        re.sub(r"(\n    value: )([0-9.]+)", r"\g<1>1.5", text, count=1),
    ]
    for edit in edits:
        assert edit != text
        _check_edit(content, first, path, edit)
    # A result removed: its pages go, and every page that listed it changes.
    removed = content / "validations" / "azure-nvidia-h200-sxm5-141gb-mlperf-training-v4-1.yaml"
    kept = removed.read_text(encoding="utf-8")
    removed.unlink()
    try:
        incremental, _ = _render(content, first)
        full, _ = _render(content)
        assert incremental.pages == full.pages
    finally:
        removed.write_text(kept, encoding="utf-8")


@pytest.mark.slow
def test_reading_in_parallel_gives_what_reading_in_turn_does(
    before: tuple[Path, Output], monkeypatch: pytest.MonkeyPatch
) -> None:
    from generator.checks import loader as site_module

    content, _ = before
    serial = load_site(content)
    monkeypatch.setattr(site_module, "PARALLEL_FROM", 2)
    parallel = load_site(content)
    assert parallel == serial
    assert parallel.digests == serial.digests and parallel.warnings == serial.warnings


@pytest.mark.slow
def test_a_load_reads_again_only_the_files_that_changed(before: tuple[Path, Output]) -> None:
    content, _ = before
    known: dict = {}  # type: ignore[type-arg]
    first = load_site(content, known=known)
    path = content / "providers" / "crusoe.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("name: Crusoe", "name: Crusoe 2", 1), encoding="utf-8")
    try:
        second = load_site(content, known=known)
    finally:
        path.write_text(text, encoding="utf-8")
    assert second.providers["crusoe"].name == "Crusoe 2"
    assert second.providers["crusoe"] is not first.providers["crusoe"]
    assert second.providers["lambda"] is first.providers["lambda"]  # not read again
    assert second.sources == first.sources
    assert all(second.sources[i] is first.sources[i] for i in first.sources)
    assert len(known) == len(first.files)  # one reading a record file, no more


@pytest.mark.slow
def test_a_field_added_to_a_view_is_in_the_page_signature(
    before: tuple[Path, Output], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No list of what a page reads is kept by hand: its view is signed as it is, so a field a
    view gains (here, one the result's view did not have) renders its pages again, while every
    page whose view is unchanged is reused."""
    from generator.render import renderer, views

    content, first = before
    unchanged, reused = _render(content, first)
    assert reused == len(unchanged.pages)

    @dataclass(frozen=True)
    class Grown(views.ValidationView):
        added: str = field(default="a value the last render did not have")

    monkeypatch.setattr(renderer, "ValidationView", Grown)
    output, reused = _render(content, first)
    again = {uri for uri, (_, page) in output.signed.items() if first.signed[uri][1] is not page}
    results = {
        uri
        for uri in output.pages
        if uri.startswith("validations/") and uri != "validations/index.md"
    }
    assert results and results <= again
    # A result's printable checklist has a view of its own, without the field: reused.
    assert not {uri for uri in again if uri.startswith("trial-checklists/")}
    # A side-by-side page holds the two results' views in a list of its own: signed by its
    # parts, a part that changed is seen.
    pairs = {uri for uri in output.pages if uri.startswith("pairs/") and uri != "pairs/index.md"}
    assert pairs and pairs <= again
    assert len(again) < len(output.pages)


def test_a_value_is_signed_by_every_part_of_it(before: tuple[Path, Output]) -> None:
    """Lists, tuples, mappings and dataclasses are signed from their parts' hashes: equal
    values sign alike, and a change anywhere inside one, or of its kind, signs differently."""
    from dataclasses import dataclass

    from generator.render.signatures import Signatures

    @dataclass(frozen=True)
    class Pair:
        first: object
        second: object

    content, _ = before
    site = load_site(content)
    from generator.derive.site_facts import derive_site

    policy = Policy(date(2026, 12, 2))

    def signed(value: object) -> str:
        signatures = Signatures(site, derive_site(site, policy), ROOT / "templates", [])
        return signatures.page("a.md", "a.md.j2", None, [], {"value": value})

    record = next(iter(site.validations.values()))
    value = Pair([{"a": (1, record)}], {"b": [2.5, None]})
    same = Pair([{"a": (1, record)}], {"b": [2.5, None]})
    assert signed(value) == signed(same)
    changed = [
        Pair([{"a": (2, record)}], {"b": [2.5, None]}),
        Pair([{"a": [1, record]}], {"b": [2.5, None]}),
        Pair([{"A": (1, record)}], {"b": [2.5, None]}),
        Pair([{"a": (1, record.model_copy(update={"summary": "Edited."}))}], {"b": [2.5, None]}),
        Pair([{"a": (1, record)}], {"b": [2.5]}),
        Pair({"b": [2.5, None]}, [{"a": (1, record)}]),
        (value.first, value.second),
    ]
    assert len({signed(value), *map(signed, changed)}) == 1 + len(changed)


def _sets(value: object, seen: set[int]) -> list[object]:
    """The sets and frozensets anywhere in `value`: records, dataclasses, mappings, sequences."""
    import dataclasses

    from pydantic import BaseModel

    if id(value) in seen or isinstance(value, str | bytes | int | float | type(None)):
        return []
    seen.add(id(value))
    if isinstance(value, set | frozenset):
        return [value]
    if isinstance(value, dict):
        parts: list[object] = [*value.keys(), *value.values()]
    elif isinstance(value, list | tuple):
        parts = list(value)
    elif isinstance(value, BaseModel):
        parts = [getattr(value, name) for name in type(value).model_fields]
    elif dataclasses.is_dataclass(value):
        parts = [getattr(value, f.name) for f in dataclasses.fields(value)]
    else:
        parts = []
    return [found for part in parts for found in _sets(part, seen)]


def test_no_view_holds_a_set(before: tuple[Path, Output], monkeypatch: pytest.MonkeyPatch) -> None:
    """A view is signed as JSON, which writes a set of text in an order that changes with the
    hash seed: a page signed so would never be reused by another process's build."""
    from generator.render.signatures import Signatures

    content, _ = before
    signed: list[object] = []
    original = Signatures._text

    def recorded(self: Signatures, value: object) -> str:
        signed.append(value)
        return original(self, value)

    monkeypatch.setattr(Signatures, "_text", recorded)
    _render(content)
    seen: set[int] = set()
    assert len(signed) > 1000
    assert [found for value in signed for found in _sets(value, seen)] == []
    assert _sets({"a": [("b", frozenset({"c"}))]}, set()) == [frozenset({"c"})]
