"""A parsed content file as JSON, and back: what a build keeps across processes so that, after an
edit, only the edited file is parsed again. Even through libyaml (load/libyaml.py), reading a
file walks every event in Python; a snapshot read back costs about half of that.

JSON has no dates, and would read an integer key path and a string one alike, so each value says
its type: a mapping is `{"m": [[key, value], ...]}` (in the file's order), a list `{"l": [...]}`,
a date `{"d": "YYYY-MM-DD"}`; text, numbers, booleans and null are themselves. Every position is
`[line, column]` under its key path. Reading one back checks every part of it: a snapshot that is
not one is refused (ValueError), and the file is parsed again.
"""

from __future__ import annotations

from datetime import date
from typing import Any, Protocol

from generator.load.document import Document, Path_
from generator.problems import Position


class Store(Protocol):
    """Where snapshots are kept, by a key: pipeline/memo.py's `Kept`, sealed in the cache folder."""

    def get(self, key: str) -> Any: ...

    def put(self, key: str, value: Any) -> None: ...

    def keep(self, key: str) -> None:
        """Keep what is under `key` though it was not read: its file was read in this process."""


def _value(value: Any) -> Any:
    if isinstance(value, dict):
        return {"m": [[key, _value(item)] for key, item in value.items()]}
    if isinstance(value, list):
        return {"l": [_value(item) for item in value]}
    if isinstance(value, date):
        return {"d": value.isoformat()}
    return value


def _positions(table: dict[Path_, Position]) -> list[Any]:
    return [[list(loc), position.line, position.column] for loc, position in table.items()]


def snapshot(document: Document) -> dict[str, Any]:
    """`document`'s values and positions, as JSON data."""
    return {
        "value": _value(document.value),
        "value_at": _positions(document.value_at),
        "key_at": _positions(document.key_at),
    }


def _read_value(data: Any) -> Any:
    if data is None or isinstance(data, str | bool | int | float):
        return data
    if isinstance(data, dict) and len(data) == 1:
        if isinstance(pairs := data.get("m"), list):
            found = {}
            for pair in pairs:
                if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
                    raise ValueError(f"expected a [key, value] pair, found {pair!r:.80}")
                found[pair[0]] = _read_value(pair[1])
            return found
        if isinstance(items := data.get("l"), list):
            return [_read_value(item) for item in items]
        if isinstance(day := data.get("d"), str):
            try:
                return date.fromisoformat(day)
            except ValueError:
                raise ValueError(f"expected a date, found {day!r:.80}") from None
    raise ValueError(f"expected a value, found {data!r:.80}")


# What a key path's parts and a position's numbers may be. Exact types, as JSON reads them: a
# bool is no number here.
_PARTS = frozenset({str, int})


def _read_positions(data: Any) -> dict[Path_, Position]:
    if type(data) is not list:
        raise ValueError(f"expected a list of positions, found {data!r:.80}")
    table: dict[Path_, Position] = {}
    # Every part checked as before, at C speed where it can be: a thousand validations keep
    # over a million positions.
    for entry in data:
        if not (
            type(entry) is list
            and len(entry) == 3
            and type(loc := entry[0]) is list
            and type(line := entry[1]) is int
            and type(column := entry[2]) is int
            and line > 0
            and column > 0
            and set(map(type, loc)) <= _PARTS
        ):
            raise ValueError(f"expected [key path, line, column], found {entry!r:.80}")
        table[tuple(loc)] = Position(line, column)
    return table


def document(path: str, data: Any) -> Document:
    """The document a snapshot holds, read as the file at `path`; ValueError if it holds none."""
    if not isinstance(data, dict) or sorted(data) != ["key_at", "value", "value_at"]:
        raise ValueError(f"expected a snapshot of a document, found {data!r:.80}")
    value = _read_value(data["value"])
    if not isinstance(value, dict):
        raise ValueError("expected a document holding a mapping of fields")
    return Document(path, value, _read_positions(data["value_at"]), _read_positions(data["key_at"]))
