"""The loader: YAML 1.2 values with positions, and every construct content may not use."""

from __future__ import annotations

import time
from datetime import date

import pytest

from generator.load.limits import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_LIST_ITEMS,
    MAX_MAPPING_KEYS,
    MAX_VALUES,
)
from generator.load.reader import load_text
from generator.problems import Position


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
        (b"a: [1, 2\n", "x.yaml:2:1: expected ',' or ']', found the end of the file"),
    ],
)
def test_refused_constructs_name_their_position(text: bytes, expected: str) -> None:
    document, problems = load_text("x.yaml", text)
    assert document is None
    assert any(str(problem).startswith(expected) for problem in problems), problems


def test_every_problem_in_a_file_is_collected() -> None:
    _, problems = load_text("x.yaml", b"a: &x 1\nb: *x\nc: !!int 3\nb: 4\n")
    assert [p.position.line for p in problems] == [1, 2, 3, 4]


@pytest.mark.parametrize(
    ("escape", "code"),
    [
        (r"\x0b", "U+000B"),
        (r"\0", "U+0000"),
        (r"\x00", "U+0000"),
        (r"\e", "U+001B"),
        (r"\x1b", "U+001B"),
        (r"\x02", "U+0002"),
        (r"\r", "U+000D"),
        (r"\x7f", "U+007F"),
        (r"\N", "U+0085"),
        (r"\x9f", "U+009F"),
        (r"\L", "U+2028"),
        (r"\P", "U+2029"),
        (r"\ud800", "U+D800"),
        (r"\udfff", "U+DFFF"),
        (r"\uFDD0", "U+FDD0"),
        (r"\uFFFE", "U+FFFE"),
        (r"\uFFFF", "U+FFFF"),
        (r"\U0001FFFE", "U+1FFFE"),
        (r"\U0010FFFF", "U+10FFFF"),
    ],
)
def test_escaped_unpublishable_characters_are_refused_where_the_text_starts(
    escape: str, code: str
) -> None:
    text = f'name: ok\nitems:\n  - "Crusoe{escape}x"\n"key{escape}": 1\n'.encode()
    document, problems = load_text("x.yaml", text)
    assert document is None
    shown = [str(problem) for problem in problems]
    assert len(shown) == 2, shown
    assert shown[0].startswith("x.yaml:3:5: items.0: expected printable text, found the ")
    assert shown[0].endswith(code)
    assert shown[1].startswith("x.yaml:4:1: expected printable text, found the ")
    assert shown[1].endswith(code)


def test_characters_are_named_by_their_kind() -> None:
    for escape, kind in [
        (r"\x0b", "the control character U+000B"),
        (r"\ud800", "the surrogate U+D800"),
        (r"\uFFFE", "the non-character U+FFFE"),
        (r"\L", "the line separator U+2028"),
    ]:
        _, problems = load_text("x.yaml", f'a: "{escape}"\n'.encode())
        assert [p.message for p in problems] == [f"expected printable text, found {kind}"]


@pytest.mark.parametrize(
    ("raw", "position"),
    [
        ("a: b\ufdd0c\n", (1, 5)),
        ("a: b\U0001fffec\n", (1, 5)),
        ("a:\n  - b\u2028c\n", (2, 6)),
        ("a: b\x85c\n", (1, 5)),
        ("# \x1b[31m\na: b\n", (1, 3)),
    ],
)
def test_raw_unpublishable_characters_are_refused_where_they_are(
    raw: str, position: tuple[int, int]
) -> None:
    _, problems = load_text("x.yaml", raw.encode())
    assert [(p.position.line, p.position.column) for p in problems] == [position]
    assert problems[0].message.startswith("expected printable text, found the ")


def test_tab_and_line_feed_are_text_in_values_but_not_in_keys() -> None:
    text = b'a: "one\\ttwo\\nthree"\nb: |\n  x\ty\n  z\n'
    document, problems = load_text("x.yaml", text)
    assert problems == []
    assert document is not None
    assert document.value == {"a": "one\ttwo\nthree", "b": "x\ty\nz\n"}
    _, problems = load_text("x.yaml", b'top:\n  "a\\tb": 1\n')
    assert [str(p) for p in problems] == [
        "x.yaml:2:3: top: expected printable text, found the control character U+0009"
    ]


def nested_flow(depth: int) -> bytes:
    return b"a: " + b"{a: " * depth + b"1" + b"}" * depth + b"\n"


def nested_block(depth: int, indent: int = 1) -> bytes:
    return b"".join(b" " * (indent * level) + b"a:\n" for level in range(depth))


@pytest.mark.parametrize(
    ("text", "line"),
    [
        (nested_flow(500), 1),
        (b"a: " + b"[" * 250_000 + b"\n", 1),
        (b"- " * 120_000 + b"x\n", 1),
        (nested_block(700), 33),
        (nested_block(20) + b" " * 20 + b"b: " + b"[" * 20 + b"\n", 21),
    ],
    ids=["flow-mappings", "brackets", "compact-lists", "block-mappings", "block-then-flow"],
)
def test_nesting_is_limited_quickly(text: bytes, line: int) -> None:
    started = time.perf_counter()
    document, problems = load_text("x.yaml", text)
    elapsed = time.perf_counter() - started
    assert document is None
    assert problems[-1].position.line == line
    assert problems[-1].message == (
        f"expected at most {MAX_DEPTH} levels of nested lists and mappings, "
        f"found level {MAX_DEPTH + 1} here"
    )
    assert elapsed < 2, f"took {elapsed:.1f} s"  # 18 s and a RecursionError before the limit


def test_nesting_at_the_limit_loads() -> None:
    document, problems = load_text("x.yaml", nested_flow(MAX_DEPTH - 2))
    assert problems == []
    assert document is not None
    document, problems = load_text("x.yaml", nested_block(MAX_DEPTH))
    assert problems == []


def test_a_file_too_big_is_refused_before_it_is_read() -> None:
    started = time.perf_counter()
    _, problems = load_text("x.yaml", b"a: " + b"x" * 63_000_000 + b"\n")
    assert time.perf_counter() - started < 2
    assert [str(p) for p in problems] == [
        f"x.yaml:1:1: expected a file of at most {MAX_FILE_BYTES:,} bytes, found 63,000,004 bytes"
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            b"a: [" + b"1, " * (MAX_LIST_ITEMS + 1) + b"]\n",
            f"x.yaml:1:{5 + 3 * MAX_LIST_ITEMS}: a: expected at most {MAX_LIST_ITEMS:,} items "
            f"in one list, found more: item {MAX_LIST_ITEMS + 1:,} is here",
        ),
        (
            b"".join(b"k%d: 1\n" % i for i in range(MAX_MAPPING_KEYS + 1)),
            f"x.yaml:{MAX_MAPPING_KEYS + 1}:1: expected at most {MAX_MAPPING_KEYS:,} keys in one "
            f"mapping, found more: key {MAX_MAPPING_KEYS + 1:,} is here",
        ),
        (
            # The file's mapping, then 50 a line: a key, its list and 48 items.
            b"".join(b"k%d: [%s]\n" % (i, b", ".join([b"1"] * 48)) for i in range(101)),
            "x.yaml:100:",
        ),
    ],
    ids=["list", "mapping", "values"],
)
def test_item_counts_are_limited(text: bytes, expected: str) -> None:
    document, problems = load_text("x.yaml", text)
    assert document is None
    assert [str(p) for p in problems][-1].startswith(expected), problems
    if expected.endswith(":"):
        assert problems[-1].message == (
            f"expected at most {MAX_VALUES:,} keys, values and items in one file, "
            f"found more: number {MAX_VALUES + 1:,} is here"
        )


def test_item_counts_at_the_limits_load() -> None:
    items = b"a: [" + b"1, " * MAX_LIST_ITEMS + b"]\n"
    keys = b"".join(b"k%d: 1\n" % i for i in range(MAX_MAPPING_KEYS))
    for text in (items, keys):
        assert load_text("x.yaml", text)[1] == []


@pytest.mark.parametrize(
    ("plain", "value"),
    [
        ("1_000", "1_000"),
        ("+12", 12),
        ("-0", 0),
        ("0o17", 15),
        ("0x1f", 31),
        ("-0x1F", "-0x1F"),
        ("0b101", "0b101"),
        ("1.", 1.0),
        (".5", 0.5),
        ("-1.5e3", -1500.0),
        ("1e3", 1000.0),
        ("1_0.5", "1_0.5"),
        ("~", None),
        ("Null", None),
        ("NULL", None),
        ("nULL", "nULL"),
        ("TRUE", True),
        ("False", False),
        ("yes", "yes"),
        ("on", "on"),
        ("2026-12-02", date(2026, 12, 2)),
        ("2026-1-5", "2026-1-5"),
        ("2001-12-14t21:59:43.10-05:00", "2001-12-14t21:59:43.10-05:00"),
        ("٢٠٢٦-١٢-٠٢", "٢٠٢٦-١٢-٠٢"),
        ("12:30", "12:30"),
    ],
)
def test_plain_values_follow_the_yaml_1_2_core_schema(plain: str, value: object) -> None:
    document, problems = load_text("x.yaml", f"a: {plain}\n".encode())
    assert problems == []
    assert document is not None
    assert document.value == {"a": value}
    assert type(document.value["a"]) is type(value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (b"a: -.inf\n", "x.yaml:1:4: a: expected a finite number, found -.inf"),
        (b"a: .NaN\n", "x.yaml:1:4: a: expected a finite number, found .NaN"),
        (b"a: 1e999\n", "x.yaml:1:4: a: expected a finite number, found 1e999"),
        (b"a: " + b"9" * 5000 + b"\n", "x.yaml:1:4: a: expected a number of at most 4,300"),
        (b'%YAML 1.3\n---\n"foo"\n', "x.yaml:1:1: expected YAML 1.2, found a %YAML 1.3 directive"),
        (b"%YAML 1.1\n---\na: yes\n", "x.yaml:1:1: expected YAML 1.2, found a %YAML 1.1 directive"),
        (b"\xef\xbb\xbf%YAML 1.3\n---\na: 1\n", "x.yaml:1:1: expected YAML 1.2, found a %YAML 1.3"),
        (b"a: 1\n...\n%YAML 1.3\n---\nb: 2\n", "x.yaml:3:1: expected one YAML document per file"),
        (b"a: 1\n%YAML 1.1\n---\nb: 2\n", "x.yaml:3:1: expected one YAML document per file"),
        (b": 1\n", "x.yaml:1:1: expected a text key, found an empty key"),
        (b"~: 1\n", "x.yaml:1:1: expected a text key, found the key ~, read as null"),
        (b"a: {b:, c: 1}\n", "x.yaml:1:5: a: expected a space after ':' in a flow collection"),
        (b'key: "value"# comment\n', "x.yaml:1:13: key: expected a space before the comment"),
        (
            b"---\nflow: [a,\nb,\nc]\n",
            "x.yaml:3:1: flow: expected this line of a value that goes on from line 2 "
            "indented with spaces past column 1, found text at column 1",
        ),
        (b'---\nquoted: "a\nb\nc"\n', "x.yaml:3:1: quoted: expected this line of a value"),
        (b'foo: "bar\n\tbaz"\n', "x.yaml:2:1: foo: expected this line of a value"),
        (b'- a: "b\n  c"\n', "x.yaml:2:3: 0.a: expected this line of a value"),
        (b"a: [\n]\n", "x.yaml:2:1: a: expected this line of a value"),
    ],
)
def test_yaml_the_parser_misreads_is_refused(text: bytes, expected: str) -> None:
    document, problems = load_text("x.yaml", text)
    assert document is None
    assert any(str(problem).startswith(expected) for problem in problems), problems


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (b'a: "b\n c"\n', {"a": "b c"}),
        (b'foo: "bar\n  \tbaz"\n', {"foo": "bar baz"}),
        (b'- a: "b\n   c"\n', None),
        (b"a: [b,\n # a comment\n c]\n", {"a": ["b", "c"]}),
        (b"a: [b,\n\n c]\n", {"a": ["b", "c"]}),
        (b"{a: [b,\nc],\nd: 1}\n", {"a": ["b", "c"], "d": 1}),
        (b"{ ?foo: bar,\nbar: 42\n}\n", {"?foo": "bar", "bar": 42}),
        (b"a: {? b : c}\n", {"a": {"b": "c"}}),
        (b"%YAML 1.2\n---\na: 1\n", {"a": 1}),
        (b"foo: |\n  x\n   ", {"foo": "x\n \n"}),
        (b'a: "#"#\n', None),
    ],
)
def test_yaml_the_parser_used_to_misread_reads_as_yaml_1_2_says(text: bytes, value: object) -> None:
    document, problems = load_text("x.yaml", text)
    if value is None:  # a list at the top, or a comment without a space: refused, not misread
        assert problems
        return
    assert problems == []
    assert document is not None
    assert document.value == value


def test_every_line_break_counts_as_one_line() -> None:
    for newline in (b"\n", b"\r\n", b"\r"):
        _, problems = load_text("x.yaml", newline.join([b"a: 1", b"b: 2", b"c: \xff"]))
        assert [str(p) for p in problems] == [
            "x.yaml:3:4: expected UTF-8 text, found the byte 0xff"
        ]
        _, problems = load_text("x.yaml", newline.join([b"a: 1", b"b: 2", b'c: "\\e"']))
        assert [(p.position.line, p.position.column) for p in problems] == [(3, 4)]
