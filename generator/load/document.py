"""One content file as read: its values, and the position of every key and value in it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from generator.problems import Position

# A key path into a document: mapping keys and list indexes, as pydantic's error `loc` spells them.
Path_ = tuple[str | int, ...]


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
