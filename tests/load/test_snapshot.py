"""Parsed content kept across processes: a snapshot reads back as the very document the parser
made, a file is parsed again whenever its bytes change, and a snapshot that is not one is never
used."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import MINIMAL, ROOT, copy_content

from generator.checks import loader
from generator.checks import pages as pages_module
from generator.checks.loader import load_site
from generator.load import snapshot
from generator.load.document import Document
from generator.load.reader import load_text
from generator.pipeline.memo import Snapshots
from generator.problems import ContentError


def _exactly(value: Any) -> Any:
    """`value` with each leaf's type beside it: True == 1 and 1.0 == 1 in Python, not here."""
    if isinstance(value, dict):
        return [(key, _exactly(item)) for key, item in value.items()]
    if isinstance(value, list):
        return [_exactly(item) for item in value]
    return (type(value).__name__, repr(value))


def _same(a: Document, b: Document) -> bool:
    return (a.path, _exactly(a.value), a.value_at, a.key_at) == (
        b.path,
        _exactly(b.value),
        b.value_at,
        b.key_at,
    )


def test_every_real_file_reads_back_from_its_snapshot_as_parsed() -> None:
    files = sorted((ROOT / "content").rglob("*.yaml"))
    assert len(files) > 200
    for path in files:
        parsed, problems = load_text(path.name, path.read_bytes())
        assert parsed is not None, problems
        # Through JSON text, as the cache folder keeps it.
        data = json.loads(json.dumps(snapshot.snapshot(parsed), ensure_ascii=False))
        assert _same(snapshot.document(path.name, data), parsed), path


def test_types_and_key_paths_survive() -> None:
    text = b"a: 1\nb: 1.0\nc: true\nd: 2026-12-02\ne: '2026-12-02'\nf: [x, {g: null}]\n'1': ''\n"
    parsed, problems = load_text("t.yaml", text)
    assert parsed is not None, problems
    back = snapshot.document("t.yaml", json.loads(json.dumps(snapshot.snapshot(parsed))))
    assert _same(back, parsed)
    assert ("f", 1, "g") in back.value_at  # an index stays an integer, a key text
    assert type(back.value["d"]).__name__ == "date" and back.value["e"] == "2026-12-02"


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"value": {"m": []}, "value_at": []},  # a part missing
        {"value": {"l": []}, "value_at": [], "key_at": []},  # not a mapping of fields
        {"value": {"m": [[1, "x"]]}, "value_at": [], "key_at": []},  # a key that is not text
        {"value": {"m": [["a", {"x": 1}]]}, "value_at": [], "key_at": []},  # an unknown tag
        {"value": {"m": [["a", {"d": "soon"}]]}, "value_at": [], "key_at": []},  # no date
        {"value": {"m": []}, "value_at": [[["a"], 0, 1]], "key_at": []},  # line 0
        {"value": {"m": []}, "value_at": [[["a"], True, 1]], "key_at": []},
        {"value": {"m": []}, "value_at": [[[None], 1, 1]], "key_at": []},
        {"value": {"m": []}, "value_at": [], "key_at": {"a": [1, 1]}},
    ],
)
def test_a_snapshot_that_is_not_one_is_refused(data: object) -> None:
    with pytest.raises(ValueError, match="expected"):
        snapshot.document("t.yaml", data)


class _Store:
    """A store in memory, counting what it was asked."""

    def __init__(self) -> None:
        self.kept: dict[str, Any] = {}
        self.read = self.written = 0
        self.held: set[str] = set()

    def get(self, key: str) -> Any:
        self.read += 1
        return self.kept.get(key)

    def put(self, key: str, value: Any) -> None:
        self.written += 1
        self.kept[key] = value

    def keep(self, key: str) -> None:
        self.held.add(key)


def test_a_load_parses_only_the_files_without_a_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    content = copy_content(MINIMAL, tmp_path / "content")
    store = _Store()
    first = load_site(content, stored=store)
    files = len(list(content.rglob("*.yaml"))) - len(list(content.glob("imports/*")))
    pages = len(list(content.glob("pages/*.md")))
    assert pages and store.written == files + pages  # each record's snapshot, each page clean
    parsed: list[str] = []
    real_load_text = loader.load_text

    def counted(shown: str, raw: bytes) -> Any:
        parsed.append(shown)
        return real_load_text(shown, raw)

    checked: list[str] = []
    real_check_record, real_check_page = loader.check_record, pages_module.check_page
    monkeypatch.setattr(loader, "load_text", counted)
    monkeypatch.setattr(
        loader, "check_record", lambda d: checked.append(d.path) or real_check_record(d)
    )
    monkeypatch.setattr(
        pages_module,
        "check_page",
        lambda shown, raw: checked.append(shown) or real_check_page(shown, raw),
    )
    assert load_site(content, stored=store) == first
    # Nothing parsed again, nor checked again: every reading was clean.
    assert parsed == [] and checked == [] and store.written == files + pages
    provider = content / "providers" / "test-provider.yaml"
    provider.write_text(provider.read_text("utf-8").replace("A synthetic", "An edited"), "utf-8")
    edited = load_site(content, stored=store)
    assert parsed == checked == ["content/providers/test-provider.yaml"]
    assert edited.providers["test-provider"].summary.startswith("An edited")
    assert edited == load_site(content)  # as a load with no snapshots reads it
    # A page with a problem is checked again, every time.
    page = content / "pages" / "methodology.md"
    original = page.read_text("utf-8")
    page.write_text(original + "\n[a link](javascript:alert(1))\n", "utf-8")
    parsed.clear()
    checked.clear()
    for _ in range(2):
        with pytest.raises(ContentError, match="found the scheme javascript:"):
            load_site(content, stored=store)
    assert parsed == [] and checked == ["content/pages/methodology.md"] * 2
    page.write_text(original, "utf-8")
    # And a record: parsed once, its snapshot kept, but its reading checked again every time.
    text = provider.read_text("utf-8")
    provider.write_text(text.replace("id: test-provider", "id: test-provider\nunknown: 1"), "utf-8")
    parsed.clear()
    checked.clear()
    for _ in range(2):
        with pytest.raises(ContentError, match="unknown"):
            load_site(content, stored=store)
    assert parsed == ["content/providers/test-provider.yaml"]
    assert checked == ["content/providers/test-provider.yaml"] * 2
    provider.write_text(text, "utf-8")
    # A snapshot that is not one is parsed again, and the load is the same; a page's mark
    # that is not one, checked again.
    for key in store.kept:
        store.kept[key] = {"value": "not a document"}
    parsed.clear()
    checked.clear()
    assert load_site(content, stored=store) == edited
    assert len(parsed) == files and len(checked) == files + pages


def test_snapshots_are_sealed_pruned_and_keyed_by_the_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    content = copy_content(MINIMAL, tmp_path / "content")
    cache = tmp_path / "cache"
    stored = Snapshots(cache)
    load_site(content, stored=stored)
    stored.prune()
    files = sorted((cache / Snapshots.FOLDER).glob("document-*.json"))
    assert files
    # A snapshot changed on disk no longer matches its seal: not read. (Files are named by a hash
    # the code's version is part of, so which sorts first varies: pick one the edit changes.)
    first = next(path for path in files if b'"m"' in path.read_bytes())
    first.write_bytes(first.read_bytes().replace(b'"m"', b'"l"', 1))
    again = Snapshots(cache)
    found = [again.get(key) for key in _keys(content)]
    assert sum(value is None for value in found) == 1
    # Another version of the code reads none of them.
    from generator.pipeline import memo

    monkeypatch.setattr(memo, "code_version", lambda: "another version")
    assert all(Snapshots(cache).get(key) is None for key in _keys(content))
    monkeypatch.undo()
    # A file removed from the content: its snapshot is pruned with the next build's.
    (content / "case-studies" / "test-case.yaml").unlink()
    pruned = Snapshots(cache)
    load_site(content, stored=pruned)
    pruned.prune()
    assert len(list((cache / Snapshots.FOLDER).glob("document-*.json"))) == len(files) - 1


def _keys(content: Path) -> list[str]:
    import hashlib

    paths = [p for p in content.rglob("*.yaml") if "imports" not in p.parts]
    return [hashlib.sha256(p.read_bytes()).hexdigest() for p in paths]
