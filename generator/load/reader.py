"""Reading YAML content files into plain values that remember where each value came from.

A file's bytes are decoded and checked here, then read by libyaml's parser where it reads as
ruamel does (libyaml.py), else by ruamel's, bounded and corrected (scanner.py); the events become
values with positions (values.py) in a Document (document.py).

Content comes from strangers' pull requests, so nothing in a file may crash or stall the build:
characters the site cannot publish (characters.py), nesting, size and item counts (limits.py)
are all bounded, each refusal with a position, and plain scalars are resolved by YAML 1.2's core
schema alone.
"""

from __future__ import annotations

from collections.abc import Generator

from ruamel.yaml import YAML
from ruamel.yaml.events import (
    DocumentEndEvent,
    DocumentStartEvent,
    Event,
    StreamEndEvent,
    StreamStartEvent,
)

from generator.load import libyaml
from generator.load.characters import UNPUBLISHABLE, refused_character
from generator.load.document import Document
from generator.load.limits import MAX_FILE_BYTES
from generator.load.scanner import BoundedScanner
from generator.load.values import Stop, Values, event_position
from generator.problems import Position, Problem, describe


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
    unpublishable = UNPUBLISHABLE.search(text)
    if unpublishable:
        position = Position.at(text, unpublishable.start())
        return Problem(path, position, "", refused_character(unpublishable[0]))
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
    yaml.Scanner = BoundedScanner
    return _read(path, text, yaml.parse(text))


def _read(
    path: str, text: str, events: Generator[Event, None, None]
) -> tuple[Document | None, list[Problem]]:
    document = Document(path, None)
    builder = Values(document, text, events)
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
        except Stop as stop:
            return None, [*builder.problems, stop.problem]
        try:
            following = builder.peek()
        except Stop:
            # Reading on past the document failed: whatever follows is another document.
            following = None
        if not isinstance(following, StreamEndEvent):
            builder.refuse(
                event_position(following) if following else _after(text, end.end_mark.index),
                "expected one YAML document per file, found another",
            )
    finally:
        events.close()
    if not isinstance(document.value, dict) and not builder.problems:
        builder.refuse(
            Position(1, 1), f"expected a mapping of fields, found {describe(document.value)}"
        )
    return (None if builder.problems else document), builder.problems
