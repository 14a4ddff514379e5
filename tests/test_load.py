"""The loader: YAML 1.2 values with positions, and every construct content may not use."""

from __future__ import annotations

from datetime import date

import pytest

from generator.load import load_text
from generator.problem import Position


def test_values_are_yaml_1_2_and_keep_positions() -> None:
    text = b"a: [1, 0x1F, 0o17, 1.5]\nb:\n  c: 2026-12-02\n  d: yes\n  e: ~\n  f: true\n"
    document, problems = load_text("x.yaml", text)
    assert problems == []
    assert document is not None
    # YAML 1.2: "yes" is text, not a boolean; octal needs 0o.
    assert document.value == {
        "a": [1, 31, 15, 1.5],
        "b": {"c": date(2026, 12, 2), "d": "yes", "e": None, "f": True},
    }
    assert document.value_at[("b", "c")] == Position(3, 6)
    assert document.key_at[("b", "d")] == Position(4, 3)
    assert document.value_at[("a", 2)] == Position(1, 14)


def test_quoted_scalars_stay_text() -> None:
    document, _ = load_text("x.yaml", b"a: '12'\nb: \"2026-12-02\"\nc: 'null'\n")
    assert document is not None
    assert document.value == {"a": "12", "b": "2026-12-02", "c": "null"}


def test_position_falls_back_to_nearest_ancestor() -> None:
    document, _ = load_text("x.yaml", b"top:\n  inner: 1\n")
    assert document is not None
    assert document.position(("top", "missing")) == Position(2, 3)
    assert document.position(("top", "inner"), key=True) == Position(2, 3)
    assert document.position(("top", "inner")) == Position(2, 10)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (b"a: 1\na: 2\n", "x.yaml:2:1: a: expected each key once, found 'a' again"),
        (b"a: &x 1\n", "x.yaml:1:4: a: expected a value, found the anchor &x"),
        (b"a: 1\nb: *x\n", "x.yaml:2:4: b: expected a value written out, found the alias *x"),
        (b"a: !!str 1\n", "x.yaml:1:4: a: expected a plain value, found the tag !!str"),
        (b"a: !custom 1\n", "x.yaml:1:4: a: expected a plain value, found the tag !custom"),
        (b"a:\n\tb: 1\n", "x.yaml:2:1: expected valid YAML, found character '\\t'"),
        (b"", "x.yaml:1:1: expected a mapping of fields, found an empty file"),
        (b"# just a comment\n", "x.yaml:1:1: expected a mapping of fields, found an empty file"),
        (b"- 1\n", "x.yaml:1:1: expected a mapping of fields, found a list"),
        (b"a: 1\n\xff\n", "x.yaml:2:1: expected UTF-8 text, found the byte 0xff"),
        (b"a: 2026-02-30\n", "x.yaml:1:4: a: expected a calendar date as YYYY-MM-DD"),
        (b"a: .inf\n", "x.yaml:1:4: a: expected a finite number, found .inf"),
        (b"a: 1\n---\nb: 2\n", "x.yaml:2:1: expected one YAML document per file"),
        (b"a: b: c\n", "x.yaml:1:5: expected valid YAML"),
        (b"a: [1, 2\n", "x.yaml:2:1: expected valid YAML"),
    ],
)
def test_refused_constructs_name_their_position(text: bytes, expected: str) -> None:
    document, problems = load_text("x.yaml", text)
    assert document is None
    assert any(str(problem).startswith(expected) for problem in problems), problems


def test_every_problem_in_a_file_is_collected() -> None:
    _, problems = load_text("x.yaml", b"a: &x 1\nb: *x\nc: !!int 3\nb: 4\n")
    assert [p.position.line for p in problems] == [1, 2, 3, 4]
