"""libyaml's parser as the reader's front end (generator/load/libyaml.py): whatever the text, the
reader reads it as it does with ruamel alone, the same values at the same positions, the same
problems with the same messages; and the content's records do take the fast path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz import YAML_TOKENS, yaml_like_text

from generator.load import libyaml
from generator.load.document import Document
from generator.load.reader import load_text
from generator.problems import Problem

CASES = json.loads((ROOT / "tests/fixtures/yaml-test-suite/cases.json").read_text("utf-8"))
RECORDS = sorted((ROOT / "content").rglob("*.yaml"))


def reading(found: tuple[Document | None, list[Problem]]) -> object:
    document, problems = found
    shown = (document.value, document.value_at, document.key_at) if document else None
    return shown, [str(problem) for problem in problems]


def assert_read_as_ruamel_reads(name: str, raw: bytes) -> None:
    assert reading(load_text(name, raw)) == reading(load_text(name, raw, fast=False)), raw


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_suite_case_reads_as_with_ruamel(name: str) -> None:
    assert_read_as_ruamel_reads(name, CASES[name]["yaml"].encode("utf-8"))


@pytest.mark.parametrize("path", RECORDS, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_each_record_reads_as_with_ruamel(path: Path) -> None:
    assert_read_as_ruamel_reads(path.relative_to(ROOT).as_posix(), path.read_bytes())


def test_the_records_take_the_fast_path() -> None:
    """Every validation, the records there are most of and the importers write, is plain: a
    change to the importers' style or to the test that sends a file to ruamel shows here."""
    validations = sorted((ROOT / "content/validations").glob("*.yaml"))
    assert validations
    assert [p.name for p in validations if not libyaml.plain(p.read_text("utf-8"))] == []


# The block style records are written in, with what libyaml and ruamel were found to read
# differently, so that generated text often passes the test for the fast path and the two
# readings are compared.
BLOCK_TOKENS = [
    "a", "b: ", "c:\n", "  ", "\n", "\n  ", "- ", ": ", "'q'", '"d"', '"\\t"', "|\n", "|-\n",
    ">\n", ">+\n", "|2\n", "# c", " #", "1", "-1.5", "2026-01-02", "null", "~", "true", "[a]",
    "{a: b}", "?", "? ", "::", '"k":v', " \n", ">#", "&x ", "*x", "!t ", "\t", "---\n", "...",
    "%YAML 1.2\n", "\\", "é", "\u00a0", "\ufeff", "😀",
]  # fmt: skip
block_like_text = st.lists(st.sampled_from(BLOCK_TOKENS), max_size=60).map("".join)
record_with_insertions = st.builds(
    lambda path, cuts: (path, cuts),
    st.sampled_from(RECORDS),
    st.lists(st.tuples(st.floats(0, 1), st.sampled_from(BLOCK_TOKENS + YAML_TOKENS)), max_size=3),
)


@settings(max_examples=400, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(block_like_text | yaml_like_text)
def test_generated_yaml_reads_as_with_ruamel(text: str) -> None:
    assert_read_as_ruamel_reads("x.yaml", text.encode("utf-8", "surrogatepass"))


@settings(max_examples=200, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(record_with_insertions)
def test_an_edited_record_reads_as_with_ruamel(case: tuple[Path, list[tuple[float, str]]]) -> None:
    path, insertions = case
    text = path.read_text("utf-8")
    for where, token in insertions:
        at = int(where * len(text))
        text = text[:at] + token + text[at:]
    assert_read_as_ruamel_reads("x.yaml", text.encode("utf-8", "surrogatepass"))


# Flow collections with quoted scalars, spaces and colons: libyaml read `["x" :y]` as a mapping
# where ruamel refuses it (issue 43), and the same after any quoted scalar or closing bracket
# followed by spaces and a colon. Each entry is a node, spaces, a colon or none, and a node; a
# space and a colon are drawn twice as often, so that about 3% of the examples hold the case and
# a third take the fast path (measured on 30,000 random examples).
FLOW_NODES = ['"x"', "'y'", "'it''s'", '"a b"', '""', "z", "1", "[z]", "{k: v}", "[]", ""]
flow_entry = st.builds(
    lambda key, gap, colon, value: key + gap + colon + value,
    st.sampled_from(FLOW_NODES),
    st.sampled_from(["", " ", "  ", " ", "\n  ", " #c\n  "]),
    st.sampled_from([":", ":", ": ", "", ","]),
    st.sampled_from(FLOW_NODES),
)
flow_collection = st.builds(
    lambda brackets, entries, separator: (
        f"a: {brackets[0]}{separator.join(entries)}{brackets[1]}\n"
    ),
    st.sampled_from([("[", "]"), ("{", "}"), ("[ ", " ]"), ("[{", "}]")]),
    st.lists(flow_entry, min_size=1, max_size=4),
    st.sampled_from([",", ", ", " , ", ",\n  "]),
)
FLOW_FOUND = ['a: ["x" :y]\n', "a: [ 'b' :c, 'd' :e ]\n", 'a: [x, "y"  :[z]]\n']


@pytest.mark.parametrize("text", FLOW_FOUND)
def test_a_quoted_scalar_spaces_and_a_colon_in_a_flow_sequence_read_as_with_ruamel(
    text: str,
) -> None:
    assert_read_as_ruamel_reads("x.yaml", text.encode("utf-8"))


@settings(max_examples=1000, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(flow_collection)
def test_generated_flow_collections_read_as_with_ruamel(text: str) -> None:
    """Where the fast path is taken, libyaml's reading is ruamel's, or both refuse the text with
    ruamel's message (the reader reads a text libyaml refuses with ruamel)."""
    assert_read_as_ruamel_reads("x.yaml", text.encode("utf-8"))
