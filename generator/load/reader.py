"""Reading YAML content files into plain values that remember where each value came from.

The loader walks ruamel.yaml's event stream itself instead of using a constructor, because it has
to see what a constructor hides: anchors, aliases, explicit tags and repeated keys are all refused
here, and every key and value keeps its position so a schema error can point at `path:line:col`.

Content comes from strangers' pull requests, so nothing in a file may crash or stall the build:
characters the site cannot publish, nesting, size and item counts are all bounded here, each
refusal with a position, and plain scalars are resolved by YAML 1.2's core schema alone.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, StreamMark
from ruamel.yaml.events import (
    AliasEvent,
    DocumentEndEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
    StreamStartEvent,
)
from ruamel.yaml.reader import ReaderError
from ruamel.yaml.scanner import Scanner

from generator.load import libyaml
from generator.problems import Position, Problem, describe

# A key path into a document: mapping keys and list indexes, as pydantic's error `loc` spells them.
Path_ = tuple[str | int, ...]

# Limits that no real record comes near, so that a hostile file fails in well under a second
# instead of holding the build (a 63 MB file once took 129 s and 3.5 GB before its error). The
# largest record, content/validations/crusoe-hgx-b300-exemplar.yaml, has 8.7 kB, 184 values, a
# list of 20 items, a mapping of 17 keys and 4 levels of nesting. Pure-Python ruamel reads about
# 10,000 values a second on a busy 2-core machine, so a file at the limits takes half a second.
MAX_FILE_BYTES = 256 * 1024  # 30 times the largest record
MAX_VALUES = 5_000  # every key, value and item in one file: 27 times the most in a record
MAX_LIST_ITEMS = 500  # 25 times the longest list
MAX_MAPPING_KEYS = 500  # 29 times the widest mapping
# Records nest 4 levels deep; 32 leaves room for any schema change while keeping this module's
# recursion far from Python's limit and the scanner fast: its cost per token grows with the flow
# depth, so 2,000 nested brackets on one line took it 14 s.
MAX_DEPTH = 32

# Characters refused in every string, keys included. YAML refuses most of them as raw bytes, but
# its escapes ("\x0b", "\e", "\0", "\ud800", "\uFFFE") put them inside quoted text, where they
# pass the schema and then break the pages, the JSON API or the chart converter far from the file
# (vl-convert panics with no position). Refused:
# - C0 controls other than tab and line feed, which block scalars hold legitimately; carriage
#   return only ever comes from a "\r" escape, as raw line breaks are read as line feeds;
# - DEL and the C1 controls, NEL included: invisible, and shown differently by every tool;
# - the line and paragraph separators: YAML 1.1 and ruamel read them as line breaks, YAML 1.2 as
#   text, so a file holding one reads differently by tool, and they end lines in JavaScript;
# - surrogates, which cannot be written as UTF-8 at all;
# - the non-characters U+FDD0-U+FDEF and the last two code points of every plane, which Unicode
#   keeps for programs' internal use and XML refuses.
_NON_CHARACTERS = "\ufdd0-\ufdef" + "".join(
    f"{chr(plane + 0xFFFE)}{chr(plane + 0xFFFF)}" for plane in range(0, 0x110000, 0x10000)
)
_UNPUBLISHABLE = re.compile(
    f"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff{_NON_CHARACTERS}]"
)
# A key names a field or a record on one line, so it holds no tab or line feed either.
_UNPUBLISHABLE_IN_KEY = re.compile(f"[\t\n]|{_UNPUBLISHABLE.pattern}")

# YAML 1.2's core schema, which ruamel's resolver does not follow (it reads 1_000 as 1000 and
# 2001-12-14t21:59:43 as a timestamp); anything that matches none of these is text.
_NULL = re.compile(r"null|Null|NULL|~|")
_TRUE, _FALSE = re.compile(r"true|True|TRUE"), re.compile(r"false|False|FALSE")
_INT = re.compile(r"[-+]?[0-9]+")
_OCTAL, _HEXADECIMAL = re.compile(r"0o[0-7]+"), re.compile(r"0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_NOT_FINITE = re.compile(r"[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)")
# The project's one extension: a plain YYYY-MM-DD is a date, as every record's dates are.
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")

# ruamel's names for tokens, in the words of a contributor reading the message.
_TOKEN_WORDS = {
    "scalar": "a value",
    "block end": "the end of the indented block",
    "stream end": "the end of the file",
    "document start": "'---'",
    "document end": "'...'",
    "block mapping start": "a mapping",
    "block sequence start": "a list",
    "alias": "an alias",
    "anchor": "an anchor",
    "tag": "a tag",
}
_TOKEN = re.compile(r"\(?'?<([a-z ]+)>'?,?\)?")
_ENDS_OF_LINE = " \t\n\r\0\x85\u2028\u2029"


@dataclass
class Document:
    """One content file: its values, and the position of every key and value in it."""

    path: str
    value: Any
    value_at: dict[Path_, Position] = field(default_factory=dict)
    key_at: dict[Path_, Position] = field(default_factory=dict)

    def position(self, loc: Path_, *, key: bool = False) -> Position:
        """The position of `loc`, or of its nearest ancestor that exists in the file."""
        while True:
            table = self.key_at if key and loc in self.key_at else self.value_at
            if loc in table:
                return table[loc]
            if not loc:
                return Position(1, 1)
            loc = loc[:-1]


class _LimitReached(MarkedYAMLError):
    """Raised by the scanner when nesting passes `MAX_DEPTH`, before its cost grows with depth."""

    def __init__(self, mark: StreamMark, depth: int) -> None:
        super().__init__(problem=_too_deep(depth), problem_mark=mark)


def _too_deep(depth: int) -> str:
    return (
        f"expected at most {MAX_DEPTH} levels of nested lists and mappings, "
        f"found level {depth} here"
    )


class _Scanner(Scanner):
    """ruamel's scanner, bounded in depth, and reading "?" in flow collections as YAML 1.2 does."""

    def fetch_flow_collection_start(self, token_class: Any, to_push: str) -> None:
        if len(self.flow_context) >= MAX_DEPTH:
            raise _LimitReached(self.reader.get_mark(), len(self.flow_context) + 1)
        super().fetch_flow_collection_start(token_class, to_push)

    def add_indent(self, column: int) -> bool:
        if self.indent < column and len(self.indents) >= MAX_DEPTH:
            raise _LimitReached(self.reader.get_mark(), len(self.indents) + 1)
        return bool(super().add_indent(column))

    # ruamel 0.19 takes every "?" in a flow collection for the explicit-key indicator, so
    # `{?foo: bar}` loses the "?" of its key "?foo" (yaml-test-suite 652Z). In YAML 1.2 it is the
    # indicator only before a space, a line break or a flow indicator; otherwise it begins text.
    def check_key(self) -> bool:
        if self.flow_level:
            return self.reader.peek(1) in _ENDS_OF_LINE + ",[]{}"
        return bool(super().check_key())

    def check_plain(self) -> bool:
        if self.flow_level and self.reader.peek() == "?":
            return self.reader.peek(1) not in _ENDS_OF_LINE + ",[]{}"
        return bool(super().check_plain())


class _Stop(Exception):
    """Reading cannot go on: the YAML is malformed, or a limit is reached."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem


def _at(event: Event) -> Position:
    return Position(event.start_mark.line + 1, event.start_mark.column + 1)


def _unpublishable(character: str) -> str:
    """The found part of a message about a refused character, named by its Unicode class."""
    code = ord(character)
    if 0xD800 <= code <= 0xDFFF:
        kind = "the surrogate"
    elif code in (0x2028, 0x2029):
        kind = "the line separator" if code == 0x2028 else "the paragraph separator"
    elif code >= 0xFDD0 and (code <= 0xFDEF or code & 0xFFFE == 0xFFFE):
        kind = "the non-character"
    else:
        kind = "the control character"
    return f"expected printable text, found {kind} U+{code:04X}"


def _parse_error(error: MarkedYAMLError, text: str) -> tuple[Position, str]:
    mark = error.problem_mark or error.context_mark
    position = Position(mark.line + 1, mark.column + 1) if mark else Position(1, 1)
    if isinstance(error, _LimitReached):
        return position, str(error.problem)
    reason = (error.problem or error.context or "invalid YAML").strip()
    # ruamel words some problems as "expected X, but found Y" in its own token names.
    reason = _TOKEN.sub(lambda token: _TOKEN_WORDS.get(token[1], token[0]), reason)
    reason = re.sub(r",? but (got|found) ", ", found ", reason)
    message = (
        reason
        if reason.startswith("expected ")
        else "expected valid YAML, found " + (reason.removeprefix("found "))
    )
    # ruamel reports a tab-indented line as a generic scanner error; name the real cause.
    nearby = text.splitlines()[max(position.line - 2, 0) : position.line]
    if any(line.lstrip(" ").startswith("\t") for line in nearby):
        message += " (a line is indented with a tab: indent with spaces)"
    return position, message


class _Values:
    """Turns one document's events into values, collecting problems rather than stopping at one.

    Events are pulled one at a time, so a limit stops ruamel reading the rest of a hostile file.
    """

    def __init__(self, document: Document, text: str, events: Iterator[Event]) -> None:
        self.document = document
        self.text = text
        self.lines = text.split("\n")
        self.events = events
        self.pending: Event | None = None
        self.last_end = Position(1, 1)
        self.problems: list[Problem] = []
        self.values = 0
        # Columns of the block lists and mappings around the current node, innermost last, and
        # how deep in flow collections it is; with them, `check_continuation` applies the rule
        # ruamel skips: a flow value's later lines are indented past its block parent.
        self.block_columns: list[int] = []
        self.flow_depth = 0
        self.quoted_lines: set[int] = set()

    def refuse(self, position: Position, message: str, loc: Path_ = ()) -> None:
        self.problems.append(Problem(self.document.path, position, _field(loc), message))

    def stop(self, position: Position, message: str, loc: Path_ = ()) -> _Stop:
        return _Stop(Problem(self.document.path, position, _field(loc), message))

    def count(self, position: Position, loc: Path_) -> None:
        self.values += 1
        if self.values > MAX_VALUES:
            raise self.stop(
                position,
                f"expected at most {MAX_VALUES:,} keys, values and items in one file, "
                f"found more: number {MAX_VALUES + 1:,} is here",
                loc,
            )

    def peek(self) -> Event:
        if self.pending is None:
            try:
                self.pending = next(self.events)
            except ReaderError as error:
                # Raw characters are refused before parsing; this is what ruamel refuses besides.
                raise self.stop(
                    Position.at(self.text, error.position),
                    _unpublishable(chr(_code_point(error.character))),
                ) from None
            except MarkedYAMLError as error:
                raise self.stop(*_parse_error(error, self.text)) from None
            except Exception as error:
                # A parser bug met on hostile input is still a content problem, not a traceback.
                raise self.stop(
                    self.last_end,
                    f"expected YAML that ruamel.yaml can read, found input it fails on ({error})",
                ) from None
            mark = self.pending.end_mark
            if mark is not None:
                self.last_end = Position(mark.line + 1, mark.column + 1)
        return self.pending

    def next(self) -> Event:
        event = self.peek()
        self.pending = None
        return event

    def node(self, loc: Path_, depth: int) -> Any:
        event = self.next()
        position = _at(event)
        self.count(position, loc)
        self.document.value_at[loc] = position
        if isinstance(event, AliasEvent):
            self.refuse(
                position,
                f"expected a value written out, found the alias *{getattr(event, 'anchor', '')}; "
                "anchors and aliases are not allowed, so every record reads on its own",
                loc,
            )
            return None
        anchor, tag = getattr(event, "anchor", None), getattr(event, "tag", None)
        if anchor:
            self.refuse(
                position,
                f"expected a value, found the anchor &{anchor}; "
                "anchors and aliases are not allowed, so every record reads on its own",
                loc,
            )
        if tag is not None:
            tag = str(tag).replace("tag:yaml.org,2002:", "!!")
            self.refuse(
                position,
                f"expected a plain value, found the tag {tag}; tags are not allowed in content",
                loc,
            )
        outermost_flow = self.flow_depth == 0 and bool(self.block_columns)
        if outermost_flow:
            self.quoted_lines = set()
        if isinstance(event, MappingStartEvent | SequenceStartEvent):
            if depth > MAX_DEPTH:
                raise self.stop(position, _too_deep(depth), loc)
            flow = bool(event.flow_style)
            if flow:
                self.flow_depth += 1
            else:
                self.block_columns.append(event.start_mark.column)
            if isinstance(event, MappingStartEvent):
                value: Any = self.mapping(loc, depth)
            else:
                value = self.sequence(loc, depth)
            end_event = self.next()
            if flow:
                self.flow_depth -= 1
            else:
                self.block_columns.pop()
            if flow and outermost_flow:
                self.check_continuation(event, end_event, loc, collection=True)
            return value
        assert isinstance(event, ScalarEvent)
        value = self.scalar(event, loc)
        if event.style in ("'", '"'):
            self.check_after_quote(event, loc)
            self.quoted_lines.update(range(event.start_mark.line + 1, event.end_mark.line + 1))
        if outermost_flow and event.style not in ("|", ">"):
            self.check_continuation(event, event, loc, collection=False)
        return value

    def sequence(self, loc: Path_, depth: int) -> list[Any]:
        items: list[Any] = []
        while not isinstance(self.peek(), SequenceEndEvent):
            if len(items) == MAX_LIST_ITEMS:
                raise self.stop(
                    _at(self.peek()),
                    f"expected at most {MAX_LIST_ITEMS:,} items in one list, "
                    f"found more: item {MAX_LIST_ITEMS + 1:,} is here",
                    loc,
                )
            items.append(self.node((*loc, len(items)), depth + 1))
        return items

    def mapping(self, loc: Path_, depth: int) -> dict[str, Any]:
        result: dict[str, Any] = {}
        entries = 0
        while not isinstance(self.peek(), MappingEndEvent):
            key_event = self.peek()
            key_position = _at(key_event)
            entries += 1
            if entries > MAX_MAPPING_KEYS:
                raise self.stop(
                    key_position,
                    f"expected at most {MAX_MAPPING_KEYS:,} keys in one mapping, "
                    f"found more: key {MAX_MAPPING_KEYS + 1:,} is here",
                    loc,
                )
            if not isinstance(key_event, ScalarEvent) or key_event.anchor or key_event.tag:
                self.refuse(key_position, "expected a plain text key, found a complex key", loc)
                self.node((*loc, "?"), depth + 1)
                self.node((*loc, "?"), depth + 1)
                continue
            key = self.key(key_event, loc)
            if key is None:
                self.node((*loc, "?"), depth + 1)
                continue
            if key in result:
                first = self.document.key_at[(*loc, key)]
                self.refuse(
                    key_position,
                    f"expected each key once, found {key!r} again "
                    f"(first at line {first.line}, column {first.column})",
                    (*loc, key),
                )
                self.node((*loc, "?"), depth + 1)
                continue
            self.document.key_at[(*loc, key)] = key_position
            result[key] = self.node((*loc, key), depth + 1)
        return result

    def key(self, event: ScalarEvent, loc: Path_) -> str | None:
        """The key `event` (the next event) as text, or None once refused: keys name fields and
        records, so they are text on one line."""
        self.next()
        position = _at(event)
        self.count(position, loc)
        unpublishable = _UNPUBLISHABLE_IN_KEY.search(event.value)
        if unpublishable:
            self.refuse(position, _unpublishable(unpublishable[0]), loc)
            return None
        if event.implicit[0] and _NULL.fullmatch(event.value):
            found = "an empty key" if not event.value else f"the key {event.value}, read as null"
            self.refuse(position, f"expected a text key, found {found}", loc)
            return None
        self.check_after_quote(event, loc)
        return None if self.misread_colon(event, loc) else str(event.value)

    def scalar(self, event: ScalarEvent, loc: Path_) -> Any:
        text: str = event.value
        unpublishable = _UNPUBLISHABLE.search(text)
        if unpublishable:
            self.refuse(_at(event), _unpublishable(unpublishable[0]), loc)
            return None
        if not event.implicit[0]:  # quoted or block scalars are always text
            return text
        if _NULL.fullmatch(text):
            return None
        if _TRUE.fullmatch(text) or _FALSE.fullmatch(text):
            return text[0] in "tT"
        if _INT.fullmatch(text) or _OCTAL.fullmatch(text) or _HEXADECIMAL.fullmatch(text):
            base = {"0o": 8, "0x": 16}.get(text[:2], 10)
            digits = text[2:] if base != 10 else text
            if base == 10 and len(digits) > sys.get_int_max_str_digits():
                self.refuse(
                    _at(event),
                    f"expected a number of at most {sys.get_int_max_str_digits():,} digits, "
                    f"found {len(digits):,}",
                    loc,
                )
                return None
            return int(digits, base)
        if _FLOAT.fullmatch(text) and math.isfinite(float(text)):
            return float(text)
        if _FLOAT.fullmatch(text) or _NOT_FINITE.fullmatch(text):  # 1e999 is infinite too
            self.refuse(_at(event), f"expected a finite number, found {text}", loc)
            return None
        if _DATE.fullmatch(text):
            try:
                return date.fromisoformat(text)
            except ValueError:
                self.refuse(
                    _at(event), f"expected a calendar date as YYYY-MM-DD, found {text}", loc
                )
                return None
        if self.misread_colon(event, loc):
            return None
        return text

    def misread_colon(self, event: ScalarEvent, loc: Path_) -> bool:
        """ruamel reads `{key:, b}` as the text "key:", where YAML 1.2 reads the key "key" with an
        empty value (yaml-test-suite 4ABK and FRK4): refuse rather than misread."""
        if not (self.flow_depth and event.implicit[0] and event.value.endswith(":")):
            return False
        self.refuse(
            _at(event),
            f"expected a space after ':' in a flow collection, found the text {event.value!r}",
            loc,
        )
        return True

    def check_after_quote(self, event: ScalarEvent, loc: Path_) -> None:
        """A comment after quoted text needs a space first: `"a"#b` is not YAML (test SU5Z)."""
        if (
            event.style in ("'", '"')
            and self.text[event.end_mark.index : event.end_mark.index + 1] == "#"
        ):
            mark = event.end_mark
            self.refuse(
                Position(mark.line + 1, mark.column + 1),
                "expected a space before the comment, found '#' right after the quoted text",
                loc,
            )

    def check_continuation(self, start: Event, end: Event, loc: Path_, *, collection: bool) -> None:
        """Later lines of a flow value go past its block parent's column; ruamel lets them not.

        YAML 1.2 indents a flow value one column past the key or dash holding it, and counts only
        spaces; yaml-test-suite 9C9N, QB6E and DK95/01 are files that ruamel reads anyway. Blank
        lines, and comment lines between a collection's entries, may sit anywhere.
        """
        parent = self.block_columns[-1]
        for number in range(start.start_mark.line + 1, end.end_mark.line + 1):
            line = self.lines[number] if number < len(self.lines) else ""
            content = line.lstrip(" \t")
            if not content or (
                collection and content[0] == "#" and number not in self.quoted_lines
            ):
                continue
            spaces = len(line) - len(line.lstrip(" "))
            if spaces <= parent:
                found = "a tab" if line[spaces:].startswith("\t") else "text"
                self.refuse(
                    Position(number + 1, spaces + 1),
                    f"expected this line of a value that goes on from line "
                    f"{start.start_mark.line + 1} indented with spaces past column {parent + 1}, "
                    f"found {found} at column {spaces + 1}",
                    loc,
                )
                return


def _field(loc: Path_) -> str:
    return ".".join(str(part) for part in loc)


def _code_point(character: object) -> int:
    # ruamel passes the offending character as a str or as its code point, by version.
    return character if isinstance(character, int) else ord(str(character))


def _version_problem(path: str, text: str) -> Problem | None:
    """A %YAML directive for another version than 1.2, which the loader would misread.

    ruamel fails on %YAML 1.3 with an assertion; a 1.1 file means true by `yes`, which 1.2 reads
    as the text "yes".
    """
    for number, line in enumerate(text.removeprefix("\ufeff").split("\n"), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if not line.startswith("%"):
            return None
        if words[0] == "%YAML" and len(words) > 1 and words[1] != "1.2":
            return Problem(
                path,
                Position(number, 1),
                "",
                f"expected YAML 1.2, found a %YAML {words[1][:10]} directive; "
                "content is read as YAML 1.2, so remove the directive",
            )
    return None


def _decode(path: str, raw: bytes) -> str | Problem:
    """The file's text with line feeds for line breaks, or the first thing that stops reading."""
    if len(raw) > MAX_FILE_BYTES:
        return Problem(
            path,
            Position(1, 1),
            "",
            f"expected a file of at most {MAX_FILE_BYTES:,} bytes, found {len(raw):,} bytes",
        )
    # YAML reads every line break as a line feed; normalizing first keeps line counts simple, and
    # is safe on the bytes, as no byte of a multi-byte UTF-8 character is a CR or LF.
    raw = raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        return Problem(
            path,
            Position(line, column),
            "",
            f"expected UTF-8 text, found the byte 0x{raw[error.start]:02x}",
        )
    # ruamel drops a block scalar's last line of spaces when no line feed ends the file
    # (yaml-test-suite L24T/01); a final line feed changes no value otherwise.
    text = text if text.endswith("\n") or not text else text + "\n"
    unpublishable = _UNPUBLISHABLE.search(text)
    if unpublishable:
        position = Position.at(text, unpublishable.start())
        return Problem(path, position, "", _unpublishable(unpublishable[0]))
    return _version_problem(path, text) or text


def _after(text: str, index: int) -> Position:
    """Where the next line that is not blank or a comment starts, from `index` on."""
    lines = text[index:].split("\n")
    for offset, line in enumerate(lines):
        if line.split("#", 1)[0].strip() and not (offset == 0 and line.strip() == "..."):
            skipped = sum(len(previous) + 1 for previous in lines[:offset])
            return Position.at(text, index + skipped + len(line) - len(line.lstrip()))
    return Position.at(text, index)


def load_text(path: str, raw: bytes, *, fast: bool = True) -> tuple[Document | None, list[Problem]]:
    """Parse one content file: the document, or None and the reasons it could not be read.
    `fast=False` reads it with ruamel alone, as the tests compare."""
    text = _decode(path, raw)
    if isinstance(text, Problem):
        return None, [text]
    if fast and libyaml.plain(text):
        # libyaml's C parser reads such a file as ruamel does, ten times as fast; a file it reads
        # with any problem is read again by ruamel, so each message is ruamel's.
        document, problems = _read(path, text, libyaml.events(text))
        if not problems:
            return document, problems
    yaml = YAML(typ="safe", pure=True)
    yaml.version = (1, 2)
    yaml.Scanner = _Scanner
    return _read(path, text, yaml.parse(text))


def _read(
    path: str, text: str, events: Generator[Event, None, None]
) -> tuple[Document | None, list[Problem]]:
    document = Document(path, None)
    builder = _Values(document, text, events)
    try:
        try:
            assert isinstance(builder.next(), StreamStartEvent)
            if isinstance(builder.peek(), StreamEndEvent):
                return None, [
                    Problem(
                        path,
                        Position(1, 1),
                        "",
                        "expected a mapping of fields, found an empty file",
                    )
                ]
            assert isinstance(builder.next(), DocumentStartEvent)
            document.value = builder.node((), 1)
            end = builder.next()
            assert isinstance(end, DocumentEndEvent)
        except _Stop as stop:
            return None, [*builder.problems, stop.problem]
        try:
            following = builder.peek()
        except _Stop:
            # Reading on past the document failed: whatever follows is another document.
            following = None
        if not isinstance(following, StreamEndEvent):
            builder.refuse(
                _at(following) if following else _after(text, end.end_mark.index),
                "expected one YAML document per file, found another",
            )
    finally:
        events.close()
    if not isinstance(document.value, dict) and not builder.problems:
        builder.refuse(
            Position(1, 1), f"expected a mapping of fields, found {describe(document.value)}"
        )
    return (None if builder.problems else document), builder.problems
