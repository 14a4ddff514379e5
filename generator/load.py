"""Reading YAML content files into plain values that remember where each value came from.

The loader walks ruamel.yaml's event stream itself instead of using a constructor, because it has
to see what a constructor hides: anchors, aliases, explicit tags and repeated keys are all refused
here, and every key and value keeps its position so a schema error can point at `path:line:col`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError
from ruamel.yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.reader import ReaderError
from ruamel.yaml.resolver import VersionedResolver

from .problem import Position, Problem, describe

# A key path into a document: mapping keys and list indexes, as pydantic's error `loc` spells them.
Path_ = tuple[str | int, ...]

_RESOLVER = VersionedResolver(version=(1, 2))
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


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


class _Refused(Exception):
    def __init__(self, position: Position, message: str) -> None:
        self.position, self.message = position, message


def _at(event: Event) -> Position:
    return Position(event.start_mark.line + 1, event.start_mark.column + 1)


class _Builder:
    """Turns one document's events into values, collecting problems rather than stopping at one."""

    def __init__(self, document: Document, events: list[Event]) -> None:
        self.document = document
        self.events = events
        self.index = 0
        self.problems: list[Problem] = []

    def refuse(self, position: Position, message: str, loc: Path_ = ()) -> None:
        field_name = ".".join(str(part) for part in loc)
        self.problems.append(Problem(self.document.path, position, field_name, message))

    def next(self) -> Event:
        event = self.events[self.index]
        self.index += 1
        return event

    def node(self, loc: Path_) -> Any:
        event = self.next()
        position = _at(event)
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
        if isinstance(event, MappingStartEvent):
            return self.mapping(loc)
        if isinstance(event, SequenceStartEvent):
            items: list[Any] = []
            while not isinstance(self.events[self.index], SequenceEndEvent):
                items.append(self.node((*loc, len(items))))
            self.next()
            return items
        assert isinstance(event, ScalarEvent)
        return self.scalar(event, loc)

    def mapping(self, loc: Path_) -> dict[str, Any]:
        result: dict[str, Any] = {}
        while not isinstance(self.events[self.index], MappingEndEvent):
            key_event = self.events[self.index]
            key_position = _at(key_event)
            if not isinstance(key_event, ScalarEvent) or key_event.anchor or key_event.tag:
                self.refuse(key_position, "expected a plain text key, found a complex key", loc)
                self.node((*loc, "?"))
                self.node((*loc, "?"))
                continue
            self.next()
            key = key_event.value
            if key in result:
                first = self.document.key_at[(*loc, key)]
                self.refuse(
                    key_position,
                    f"expected each key once, found {key!r} again "
                    f"(first at line {first.line}, column {first.column})",
                    (*loc, key),
                )
                self.node((*loc, "?"))
                continue
            self.document.key_at[(*loc, key)] = key_position
            result[key] = self.node((*loc, key))
        self.next()
        return result

    def scalar(self, event: ScalarEvent, loc: Path_) -> Any:
        text = event.value
        if not event.implicit[0]:  # quoted or block scalars are always text
            return text
        tag = str(_RESOLVER.resolve(ScalarNode, text, (True, False)))
        kind = tag.rsplit(":", 1)[-1]
        if kind == "null":
            return None
        if kind == "bool":
            return text.lower() == "true"
        if kind == "int":
            digits = text.replace("_", "")
            sign = -1 if digits.startswith("-") else 1
            digits = digits.lstrip("+-")
            if digits[:2] in ("0o", "0x"):
                return sign * int(digits[2:], 8 if digits[1] == "o" else 16)
            return sign * int(digits)
        if kind == "float":
            number = float(text.replace("_", "").replace(".inf", "inf").replace(".nan", "nan"))
            if math.isfinite(number):
                return number
            self.refuse(_at(event), f"expected a finite number, found {text}", loc)
            return None
        if kind == "timestamp":
            if _DATE.match(text):
                try:
                    return date.fromisoformat(text)
                except ValueError:
                    pass
            self.refuse(_at(event), f"expected a calendar date as YYYY-MM-DD, found {text}", loc)
            return None
        return text


def _code_point(character: object) -> int:
    # ruamel passes the offending character as a str or as its code point, by version.
    return character if isinstance(character, int) else ord(str(character))


def load_text(path: str, raw: bytes) -> tuple[Document | None, list[Problem]]:
    """Parse one content file: the document, or None and the reasons it could not be read."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        column = error.start - (raw.rfind(b"\n", 0, error.start) + 1) + 1
        return None, [
            Problem(
                path,
                Position(line, column),
                "",
                f"expected UTF-8 text, found the byte 0x{raw[error.start]:02x}",
            )
        ]
    yaml = YAML(typ="safe", pure=True)
    yaml.version = (1, 2)
    try:
        events = list(yaml.parse(text))
    except ReaderError as error:
        # A character YAML does not allow anywhere, such as NUL or another control character.
        line = text.count("\n", 0, error.position) + 1
        column = error.position - (text.rfind("\n", 0, error.position) + 1) + 1
        return None, [
            Problem(
                path,
                Position(line, column),
                "",
                f"expected printable text, "
                f"found the control character U+{_code_point(error.character):04X}",
            )
        ]
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        position = Position(mark.line + 1, mark.column + 1) if mark else Position(1, 1)
        reason = (error.problem or "invalid YAML").strip().removeprefix("found ")
        # ruamel reports a tab-indented line as a generic scanner error; name the real cause.
        nearby = text.splitlines()[max(position.line - 2, 0) : position.line]
        if any(line.lstrip(" ").startswith("\t") for line in nearby):
            reason += " (a line is indented with a tab: indent with spaces)"
        return None, [Problem(path, position, "", f"expected valid YAML, found {reason}")]

    starts = [i for i, event in enumerate(events) if isinstance(event, DocumentStartEvent)]
    if not starts:
        return None, [
            Problem(path, Position(1, 1), "", "expected a mapping of fields, found an empty file")
        ]
    document = Document(path, None)
    builder = _Builder(document, events)
    builder.index = starts[0] + 1
    document.value = builder.node(())
    if len(starts) > 1:
        extra = events[starts[1]]
        builder.refuse(_at(extra), "expected one YAML document per file, found another")
    if not isinstance(document.value, dict) and not builder.problems:
        builder.refuse(
            Position(1, 1), f"expected a mapping of fields, found {describe(document.value)}"
        )
    assert isinstance(events[-1], StreamEndEvent)
    return (None if builder.problems else document), builder.problems
