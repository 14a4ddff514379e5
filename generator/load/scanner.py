"""ruamel's scanner as the reader uses it: bounded in depth, reading "?" as YAML 1.2 does,
and its errors put in the words of a contributor reading the message."""

from __future__ import annotations

import re
from typing import Any

from ruamel.yaml.error import MarkedYAMLError, StreamMark
from ruamel.yaml.scanner import Scanner

from generator.load.limits import MAX_DEPTH, too_deep
from generator.problems import Position

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


class _LimitReached(MarkedYAMLError):
    """Raised by the scanner when nesting passes `MAX_DEPTH`, before its cost grows with depth."""

    def __init__(self, mark: StreamMark, depth: int) -> None:
        super().__init__(problem=too_deep(depth), problem_mark=mark)


class BoundedScanner(Scanner):
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


def parse_error(error: MarkedYAMLError, text: str) -> tuple[Position, str]:
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
