"""Property tests: whatever a contributor puts in a record, the loader and the checks answer with
problems that have a position, never with another exception.

Each property is a plain function of its input, with its strategy beside it, so that
benchmarks/fuzz.py can run the same properties on many more examples than the test suite does.
Here they run derandomized, so CI sees the same examples every time.
"""

from __future__ import annotations

import io
import json
import shutil
import tempfile
import unicodedata
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from generator.checks.loader import load_site
from generator.checks.record_files import modeline
from generator.checks.schema import validate
from generator.load.document import Document
from generator.load.reader import load_text
from generator.model.kinds import KINDS
from generator.problems import ContentError, Problem

CONTENT = ROOT / "content"
RECORDS = sorted(
    (path.parent.name, path) for path in CONTENT.glob("*/*.yaml") if path.parent.name in KINDS
)

# Characters that have broken YAML tools, terminals or page writers, drawn more often than chance.
HOSTILE_CHARACTERS = [
    "\x00", "\x02", "\x08", "\t", "\n", "\x0b", "\x0c", "\r", "\x1b", "\x7f", "\x85", "\x9f",
    "\u00a0", "\u200b", "\u202e", "\u2028", "\u2029", "\ud800", "\udfff", "\ufdd0", "\ufeff",
    "\ufffe", "\uffff", "\U0001fffe", "\U0010ffff", ":", "#", "&", "*", "!", "|", ">", "'", '"',
    "%", "@", "`", "{", "}", "[", "]", ",", "?", "-", "\\", " ",
]  # fmt: skip
hostile_text = st.text(st.sampled_from(HOSTILE_CHARACTERS) | st.characters(), max_size=30)
# Text made of YAML's own punctuation and escapes reaches far more of the parser than arbitrary
# text does.
YAML_TOKENS = [
    *HOSTILE_CHARACTERS, "a", "b1", "0x1F", "1_0", ".5", "~", "null", "2026-02-30", "\n", "\n  ",
    "- ", ": ", "? ", "---\n", "...\n", "%YAML 1.2\n", "%YAML 1.3\n", "&a ", "*a", "!!str ",
    '"\\x0b"', '"\\ud800"', '"\\e"', "'it''s'", "|\n", ">-\n", "# c\n", "{a: ", "[", "\t",
]  # fmt: skip
yaml_like_text = st.lists(st.sampled_from(YAML_TOKENS), max_size=60).map("".join)
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**4000), max_value=10**4000)  # str() refuses 4,300 digits
    | st.floats()
    | st.dates()
    | hostile_text
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.one_of(hostile_text, scalars), inner, max_size=4)
    ),
    max_leaves=12,
)


def is_publishable(text: str) -> bool:
    """The loader's promise for every string it returns, restated from Unicode's categories."""
    for character in text:
        category, code = unicodedata.category(character), ord(character)
        if category == "Cc" and character not in "\t\n":
            return False
        if category in ("Cs", "Zl", "Zp") or 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE:
            return False
    return True


def strings_in(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings_in(key)
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def lines_in(raw: bytes) -> int:
    """How many lines YAML sees, give or take one: a CR alone ends a line too."""
    return raw.count(b"\n") + raw.count(b"\r") + 1


def assert_located(problem: Problem, path: str, raw: bytes) -> None:
    assert isinstance(problem, Problem)
    assert problem.path == path
    assert 1 <= problem.position.line <= lines_in(raw) + 1, problem
    assert problem.position.column >= 1, problem
    assert problem.message.startswith("expected "), problem


def check_load(raw: bytes, path: str = "x.yaml") -> Document | None:
    """Any bytes: a document of publishable text, or located problems; nothing raises."""
    document, problems = load_text(path, raw)
    assert (document is None) == bool(problems)
    for problem in problems:
        assert_located(problem, path, raw)
    if document is not None:
        assert isinstance(document.value, dict)
        assert all(is_publishable(text) for text in strings_in(document.value))
        for position in [*document.value_at.values(), *document.key_at.values()]:
            assert 1 <= position.line <= lines_in(raw) + 1 and position.column >= 1
    return document


def check_text(text: str) -> None:
    check_load(text.encode("utf-8", "surrogatepass"))


def check_bytes(raw: bytes) -> None:
    check_load(raw)


# Nesting as deep as a hostile file likes, in each of YAML's ways to nest: opening and closing.
NESTINGS = {
    "[": "]",
    "{a: ": "}",
    "[{a: ": "}]",
    "&x [": "]",
    "!!map {a: ": "}",
    "- ": "",
    "? ": "",
    "a:\n": "",  # indented one more step each level
}


def nested(depth: int, opener: str, indent: int, closed: bool) -> str:
    if opener == "a:\n":
        return "".join(" " * (level * indent) + opener for level in range(depth)) + " " * depth
    return "a: " + opener * depth + "x" + NESTINGS[opener] * (depth if closed else depth // 2)


deep_text = st.builds(
    nested,
    st.integers(1, 3000) | st.sampled_from([31, 32, 33, 500, 1000, 3000]),
    st.sampled_from(sorted(NESTINGS)),
    st.integers(1, 3),
    st.booleans(),
)


def _tree(path: Path) -> Any:
    document, _ = load_text(path.name, path.read_bytes())
    return document.value if document is not None else {}


def _paths(value: Any, here: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield here
    if isinstance(value, dict | list):
        for key, item in value.items() if isinstance(value, dict) else enumerate(value):
            yield from _paths(item, (*here, key))


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _replace(value[path[0]], path[1:], new)
    return copy


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


def mutate(tree: Any, draw: Callable[[st.SearchStrategy[Any]], Any]) -> Any:
    """One edit a careless or hostile contributor might make, somewhere in a record's values."""
    path = draw(st.sampled_from(list(_paths(tree))))
    target = _at(tree, path)
    edit = draw(
        st.sampled_from(["replace", "hostile", "nest", "drop", "rename", "repeat", "swap-type"])
    )
    if edit == "replace":
        return _replace(tree, path, draw(values))
    if edit == "hostile":
        inserted = draw(st.sampled_from(HOSTILE_CHARACTERS))
        text = str(target)
        cut = draw(st.integers(0, len(text)))
        return _replace(tree, path, text[:cut] + inserted + text[cut:])
    if edit == "nest":
        for _ in range(draw(st.integers(1, 40))):
            target = draw(st.sampled_from([[target], {"a": target}]))
        return _replace(tree, path, target)
    parent_path, key = path[:-1], path[-1] if path else None
    parent = _at(tree, parent_path)
    if edit == "drop" and path:
        copy = dict(parent) if isinstance(parent, dict) else list(parent)
        del copy[key]
        return _replace(tree, parent_path, copy)
    if edit == "rename" and isinstance(parent, dict) and path:
        name = draw(st.one_of(hostile_text, scalars, st.just(str(key)[:-1]), st.just(f"{key}s")))
        renamed = {(name if k == key else k): v for k, v in parent.items()}
        return _replace(tree, parent_path, renamed)
    if edit == "repeat" and isinstance(target, list) and target:
        return _replace(tree, path, target * draw(st.integers(2, 200)))
    return _replace(tree, path, draw(st.sampled_from([None, 0, -1, 1.5, True, "", "x", [], {}])))


def _json_keys(value: Any) -> Any:
    """The tree with every key JSON can write: dates become their text."""
    if isinstance(value, dict):
        return {(str(k) if isinstance(k, date) else k): _json_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_keys(item) for item in value]
    return value


def dump(tree: Any, flow: bool) -> str:
    """A record as YAML text: block style by ruamel, or flow style as JSON, which is YAML too."""
    if flow:
        return json.dumps(_json_keys(tree), default=str)
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.allow_unicode = True
    out = io.StringIO()
    yaml.dump(tree, out)
    return out.getvalue()


_TREES: dict[Path, Any] = {}


def mutated_record(data: st.DataObject) -> tuple[str, Path, bytes]:
    kind, path = data.draw(st.sampled_from(RECORDS))
    tree = _TREES.setdefault(path, _tree(path))
    for _ in range(data.draw(st.integers(1, 4))):
        tree = mutate(tree, data.draw)
    text = f"{modeline(kind)}\n{dump(tree, flow=data.draw(st.booleans()))}"
    return kind, path, text.encode("utf-8", "surrogatepass")


def check_record(data: st.DataObject) -> None:
    """A real record, edited: the loader and the schema answer with located problems."""
    kind, path, raw = mutated_record(data)
    document = check_load(raw, path.name)
    if document is not None:
        record, problems = validate(KINDS[kind], document)
        assert (record is None) == bool(problems)
        for problem in problems:
            assert_located(problem, path.name, raw)


def check_site(data: st.DataObject, content: Path) -> None:
    """A real record, edited, in a copy of the content: `load_site` raises only ContentError."""
    kind, path, raw = mutated_record(data)
    target = content / kind / path.name
    original = target.read_bytes()
    target.write_bytes(raw)
    try:
        load_site(content)
    except ContentError as error:
        assert error.problems
        assert all(problem.position.line >= 1 for problem in error.problems)
    finally:
        target.write_bytes(original)


# The test suite's share of examples; benchmarks/fuzz.py scales them up.
EXAMPLES = {"text": 40, "bytes": 30, "yaml-like": 50, "deep": 20, "record": 50, "site": 10}
FAST = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@settings(FAST, max_examples=EXAMPLES["text"])
@given(st.text())
def test_any_text_loads_or_is_refused(text: str) -> None:
    check_text(text)


@settings(FAST, max_examples=EXAMPLES["bytes"])
@given(st.binary(max_size=300))
def test_any_bytes_load_or_are_refused(raw: bytes) -> None:
    check_bytes(raw)


@settings(FAST, max_examples=EXAMPLES["yaml-like"])
@given(yaml_like_text)
def test_yaml_punctuation_loads_or_is_refused(text: str) -> None:
    check_text(text)


@settings(FAST, max_examples=EXAMPLES["deep"])
@given(deep_text)
def test_deep_nesting_loads_or_is_refused(text: str) -> None:
    check_text(text)


@settings(FAST, max_examples=EXAMPLES["record"])
@given(st.data())
def test_edited_real_record_checks_or_is_refused(data: st.DataObject) -> None:
    check_record(data)


@pytest.fixture(scope="module")
def content_copy() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp())
    shutil.copytree(CONTENT, folder / "content")
    yield folder / "content"
    shutil.rmtree(folder)


@pytest.mark.slow
@settings(FAST, max_examples=EXAMPLES["site"])
@given(data=st.data())
def test_edited_real_record_in_the_site_raises_only_content_errors(
    data: st.DataObject, content_copy: Path
) -> None:
    check_site(data, content_copy)


def test_publishable_restates_the_loaders_rule() -> None:
    assert is_publishable("tab\there, line\nthere, \u00a0, \u200b, é, 漢字, \U0001f600")
    for character in ["\x0b", "\x1b", "\x7f", "\x85", "\u2028", "\ud800", "\ufffe", "\ufdd0"]:
        assert not is_publishable(f"a{character}b"), repr(character)
