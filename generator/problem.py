"""Content problems: what is wrong, and exactly where.

Every check in the core reports a `Problem` instead of raising, so one run can list every mistake in
every file; `ContentError` carries the whole list out of the core once checking is done.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Position:
    """A 1-based line and column in a content file."""

    line: int
    column: int


@dataclass(frozen=True, order=True)
class Problem:
    """One problem in one content file, printed as `path:line:col: field: message`."""

    path: str
    position: Position
    field: str
    message: str
    severity: str = dataclasses.field(default="error", compare=False)

    def __str__(self) -> str:
        # The path, field and message hold contributors' text, and CI parses printed lines for
        # workflow commands, so a problem prints only through `report`, which quotes each part.
        # Imported here, not at the top, because `report` is built on this module.
        from .report import plain

        return plain(self)


class ContentError(Exception):
    """Raised once, after checking, when any problem is an error."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems)
        errors = [p for p in self.problems if p.severity == "error"]
        count = f"{len(errors)} error{'s' if len(errors) != 1 else ''}"
        super().__init__(
            "\n".join([*map(str, self.problems), f"{count} in content; nothing was built."])
        )


def describe(value: object) -> str:
    """How a found value reads in a message: short, and in YAML's words rather than Python's."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value == "":
        return "empty text"
    if isinstance(value, str):
        shown = value if len(value) <= 60 else value[:57] + "..."
        return f'the text "{shown}"'
    return str(value)
