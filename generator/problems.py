"""Content problems: what is wrong, and exactly where.

Every check in the core reports a `Problem` instead of raising, so one run can list every mistake in
every file; `ContentError` carries the whole list out of the core once checking is done.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from generator.english import plural


@dataclass(frozen=True, order=True)
class Position:
    """A 1-based line and column in a content file."""

    line: int
    column: int

    @classmethod
    def at(cls, text: str, index: int) -> Position:
        """Where the character at `index` of `text` is: lines split at LF, columns in characters."""
        return cls(text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1)


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
        # workflow commands, so a problem prints only through `plain`, which quotes each part.
        return plain(self)


class ContentError(Exception):
    """Raised once, after checking, when any problem is an error."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems)
        errors = [p for p in self.problems if p.severity == "error"]
        count = plural("error", len(errors))
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


_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(character: str) -> str:
    if character in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[character]
    point = ord(character)
    if point <= 0xFF:
        return f"\\x{point:02x}"
    return f"\\u{point:04x}" if point <= 0xFFFF else f"\\U{point:08x}"


def quote(text: str) -> str:
    """Contributors' text made safe to print on one line of a log, a terminal or an annotation.

    Characters Python's `repr` would escape (line breaks, including U+0085, U+2028 and U+2029;
    other control characters such as ESC; invisible format characters such as bidi overrides;
    lone surrogates from file names that are not UTF-8) become visible escapes such as `\\n`,
    `\\x1b` and `\\u2028`. Backslashes are kept, so ordinary text, including a message that
    already spells an escape, prints unchanged. Then the two ways into a workflow command are
    broken: `##[` anywhere, and `::` at the start.
    """
    if not text.isprintable():
        text = "".join(c if c.isprintable() else _escape(c) for c in text)
    text = text.replace("##[", "##\\x5b")
    # Only spaces can lead now (every other whitespace character was escaped above), and the
    # runner drops them before looking for `::`.
    unindented = text.lstrip(" ")
    if unindented.startswith("::"):
        text = text[: len(text) - len(unindented)] + "\\x3a" + unindented[1:]
    return text


def plain(problem: Problem) -> str:
    """One problem as the log prints it: `path:line:col: field: message`, each part quoted."""
    where = f"{quote(problem.path)}:{problem.position.line}:{problem.position.column}"
    if problem.severity != "error":
        where += f": {quote(problem.severity)}"
    field = f"{quote(problem.field)}: " if problem.field else ""
    return f"{where}: {field}{quote(problem.message)}"
