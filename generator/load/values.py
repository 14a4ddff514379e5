"""One document's YAML events turned into values with positions.

It walks ruamel.yaml's event stream itself instead of using a constructor, because it has to see
what a constructor hides: anchors, aliases, explicit tags and repeated keys are all refused here,
and every key and value keeps its position so a schema error can point at `path:line:col`. Plain
scalars are resolved by YAML 1.2's core schema alone.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Iterator
from datetime import date
from typing import Any

from ruamel.yaml.error import MarkedYAMLError
from ruamel.yaml.events import (
    AliasEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from ruamel.yaml.reader import ReaderError

from generator.load.characters import (
    UNPUBLISHABLE,
    UNPUBLISHABLE_IN_KEY,
    code_point,
    refused_character,
)
from generator.load.document import Document, Path_
from generator.load.limits import MAX_DEPTH, MAX_LIST_ITEMS, MAX_MAPPING_KEYS, MAX_VALUES, too_deep
from generator.load.scanner import parse_error
from generator.problems import Position, Problem

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


class Stop(Exception):
    """Reading cannot go on: the YAML is malformed, or a limit is reached."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem


def event_position(event: Event) -> Position:
    return Position(event.start_mark.line + 1, event.start_mark.column + 1)


class Values:
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

    def stop(self, position: Position, message: str, loc: Path_ = ()) -> Stop:
        return Stop(Problem(self.document.path, position, _field(loc), message))

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
                    refused_character(chr(code_point(error.character))),
                ) from None
            except MarkedYAMLError as error:
                raise self.stop(*parse_error(error, self.text)) from None
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
        position = event_position(event)
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
                raise self.stop(position, too_deep(depth), loc)
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
                    event_position(self.peek()),
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
            key_position = event_position(key_event)
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
        position = event_position(event)
        self.count(position, loc)
        unpublishable = UNPUBLISHABLE_IN_KEY.search(event.value)
        if unpublishable:
            self.refuse(position, refused_character(unpublishable[0]), loc)
            return None
        if event.implicit[0] and _NULL.fullmatch(event.value):
            found = "an empty key" if not event.value else f"the key {event.value}, read as null"
            self.refuse(position, f"expected a text key, found {found}", loc)
            return None
        self.check_after_quote(event, loc)
        return None if self.misread_colon(event, loc) else str(event.value)

    def scalar(self, event: ScalarEvent, loc: Path_) -> Any:
        text: str = event.value
        unpublishable = UNPUBLISHABLE.search(text)
        if unpublishable:
            self.refuse(event_position(event), refused_character(unpublishable[0]), loc)
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
                    event_position(event),
                    f"expected a number of at most {sys.get_int_max_str_digits():,} digits, "
                    f"found {len(digits):,}",
                    loc,
                )
                return None
            return int(digits, base)
        if _FLOAT.fullmatch(text) and math.isfinite(float(text)):
            return float(text)
        if _FLOAT.fullmatch(text) or _NOT_FINITE.fullmatch(text):  # 1e999 is infinite too
            self.refuse(event_position(event), f"expected a finite number, found {text}", loc)
            return None
        if _DATE.fullmatch(text):
            try:
                return date.fromisoformat(text)
            except ValueError:
                self.refuse(
                    event_position(event),
                    f"expected a calendar date as YYYY-MM-DD, found {text}",
                    loc,
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
            event_position(event),
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
