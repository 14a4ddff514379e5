"""Reading a round's folder, as every importer reads one: a published round is untrusted input.

Every file is read only if it is a regular file in its folder, never through a link (a link could
point anywhere: /dev/zero never ends, a private file is not the round's), of at most a size fit
for what it is, so a huge file cannot fill memory; a log is read line by line, each line cut at
MAX_LINE; JSON that nests deeper than the parser goes, or holds a number of more digits than it
reads, is a problem at the file, never a traceback. Each problem names the round's own file, at
`path:line:col`, so a bad value spoils only what it belongs to and the report says where.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.escape import character_name, first_invisible
from generator.problems import Position, Problem

# A line longer than this is not read whole: the longest published MLLOG line is a few kB, and
# a log of gigabytes with no newline would otherwise be held in memory at once.
MAX_LINE = 1 << 20
# A description's text longer than this is not a name: the longest published (a framework and
# its versions) is under 200 characters. Records hold at most 4,000.
MAX_FIELD = 500
TOO_DEEP = "expected JSON, found arrays or objects nested deeper than the parser goes"
TOO_LONG = "expected JSON, found a number of more digits than the parser reads (4,300)"


def folders(path: Path) -> list[Path]:
    """The folders in `path`, never through a link: a linked folder could lead anywhere on the
    machine, or back into itself."""
    if path.is_symlink() or not path.is_dir():
        return []
    return sorted(
        p
        for p in path.iterdir()
        if p.is_dir() and not p.is_symlink() and not p.name.startswith(".")
    )


def files(path: Path, pattern: str) -> list[Path]:
    """The entries of the folder `path` matching `pattern`, links and all, in order: the reader
    refuses what is not a regular file, and names it, rather than skip it unseen."""
    if path.is_symlink() or not path.is_dir():
        return []
    return sorted(path.glob(pattern))


def not_regular(path: Path) -> str | None:
    """What `path` is, where it is not a regular file of its folder; None where it is."""
    if path.is_symlink():
        return "a symbolic link"
    if path.is_dir():
        return "a folder"
    if not path.is_file():
        return "a special file" if path.exists() else "nothing"
    return None


def read_file(path: Path, shown: str, limit: int, what: str) -> bytes | Problem:
    """A file of the round, read only if it is a regular file in its folder of at most `limit`
    bytes: a link could point anywhere, a FIFO would block the reader, and a huge file would
    fill memory. Each is refused before a byte of it is read."""
    found = not_regular(path)
    if found is not None:
        return Problem(
            shown, Position(1, 1), "", f"expected {what} as a regular file, found {found}"
        )
    try:
        size = path.stat().st_size
        if size > limit:
            return Problem(
                shown, Position(1, 1), "", f"expected {what} of at most {limit} bytes, found {size}"
            )
        with path.open("rb") as stream:
            return stream.read(limit + 1)
    except OSError as error:
        return Problem(shown, Position(1, 1), "", f"cannot be read: {error.strerror}")


@dataclass(frozen=True)
class Json:
    """A JSON file as read: its text (for positions) and its value."""

    text: str
    value: Any


def read_json(path: Path, shown: str, limit: int, what: str) -> Json | Problem:
    """A JSON file of the round, read as `read_file` reads: UTF-8 (a byte-order mark allowed),
    parsed with NaN and infinities refused, which are not JSON."""
    raw = read_file(path, shown, limit, what)
    if isinstance(raw, Problem):
        return raw
    try:
        text = raw.decode("utf-8-sig")
        return Json(text, json.loads(text, parse_constant=_no_constant))
    except UnicodeDecodeError as error:
        return Problem(shown, Position(1, 1), "", f"expected UTF-8 JSON: {error.reason}")
    except json.JSONDecodeError as error:
        return Problem(
            shown, Position(error.lineno, error.colno), "", f"expected JSON: {error.msg}"
        )
    except _Constant as error:
        return Problem(shown, key_position(text, str(error)), "", f"expected JSON, found {error}")
    except ValueError:  # json raises it for a number past Python's int() limit
        return Problem(shown, Position(1, 1), "", TOO_LONG)
    except RecursionError:
        return Problem(shown, Position(1, 1), "", TOO_DEEP)


def read_object(path: Path, shown: str, limit: int, what: str) -> Json | Problem:
    """A JSON file of the round that must hold an object (a system description)."""
    read = read_json(path, shown, limit, what)
    if isinstance(read, Json) and not isinstance(read.value, dict):
        return Problem(shown, Position(1, 1), "", "expected a JSON object")
    return read


class _Constant(ValueError):
    """NaN, Infinity or -Infinity in a JSON text: Python reads them, JSON has none."""


def _no_constant(name: str) -> object:
    raise _Constant(name)


def json_line(text: str) -> object:
    """One line's JSON value (an MLLOG entry), or None where it is none a reader can use: not
    JSON, nested deeper than the parser goes, or a number past its reach. NaN is read, as
    MLCommons' own log parser reads it: an entry that holds one still parses, and a figure read
    from it is held to `positive`."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError
        return None


def lines(path: Path, limit: int) -> Iterator[bytes]:
    """The lines of a regular file of at most `limit` bytes, read as a stream, each of at most
    MAX_LINE bytes (a longer one is cut, its remainder read apart). Raises OSError, naming what
    the file is, where it is not one to read."""
    found = not_regular(path)
    if found is not None:
        raise OSError(f"not a regular file: {found}")
    if (size := path.stat().st_size) > limit:
        raise OSError(f"{size} bytes, past the {limit} it may hold")
    with path.open("rb") as stream:
        while line := stream.readline(MAX_LINE):
            yield line


def key_position(text: str, key: str) -> Position:
    """Where `"key":` (or, for NaN and the infinities, the bare word) first appears in a JSON
    text, or 1:1 where it does not."""
    match = re.search(rf'"{re.escape(key)}"\s*:', text) or re.search(
        rf"(?<![\w\"]){re.escape(key)}(?![\w\"])", text
    )
    return Position(1, 1) if match is None else Position.at(text, match.start())


def count(value: object) -> int | None:
    """A node or accelerator count, published as a number or as text ("18"), or None: zero, a
    negative, or text that is not ASCII digits ("²" passes isdigit(), and int() refuses it)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value > 0 else None
    text = value.strip() if isinstance(value, str) else ""
    if not (text.isascii() and text.isdigit()):
        return None
    try:
        number = int(text)
    except ValueError:  # past the 4,300 digits int() reads
        return None
    return number if number > 0 else None


def positive(value: object) -> float | None:
    """A published figure as a finite, positive float, or None: NaN, an infinity, zero or a
    negative is no rate, time or latency."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = float(value)
    except (ValueError, OverflowError):
        return None
    return number if math.isfinite(number) and number > 0 else None


def name_problem(shown: str, text: str, field: str, value: str) -> Problem | None:
    """A problem where a name a record will show holds a character that changes what is read
    (U+202E turns text around, U+200B hides), or is longer than a name: the round's file is
    named, not the record it would have been written into."""
    hidden = first_invisible(value)
    if hidden is not None:
        return Problem(
            shown,
            key_position(text, field),
            field,
            "expected a name without invisible or direction-changing characters, found "
            f"{character_name(hidden[1])} at character {hidden[0]}",
        )
    if len(value) > MAX_FIELD:
        return Problem(
            shown,
            key_position(text, field),
            field,
            f"expected text of at most {MAX_FIELD} characters, found {len(value)}",
        )
    return None
