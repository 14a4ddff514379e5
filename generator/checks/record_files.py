"""File checks: where a record sits, how it starts, what it is named; and each import's mapping
against its schema."""

from __future__ import annotations

import re
from pathlib import Path

from generator.checks.schema import validate
from generator.load.document import Document
from generator.load.reader import load_text
from generator.model.base import Record, Strict
from generator.model.fields import ID_PATTERN
from generator.model.imports import MAPPINGS
from generator.model.kinds import KINDS
from generator.problems import Position, Problem


def modeline(kind: str) -> str:
    """The first line of every record file: it points an editor at the kind's JSON Schema."""
    return f"# yaml-language-server: $schema=../../schemas/{kind}.schema.json"


def check_placement(
    files: list[Path], content_dir: Path, shown_root: Path
) -> tuple[list[tuple[str, Path, str]], list[Problem]]:
    """The record files among `files` as (kind, path, shown path), and misplaced files."""
    found: list[tuple[str, Path, str]] = []
    problems: list[Problem] = []
    for path in files:
        relative = path.relative_to(content_dir)
        shown = path.relative_to(shown_root).as_posix()
        kind = relative.parts[0]
        if len(relative.parts) != 2 or kind not in KINDS:
            problems.append(
                Problem(
                    shown,
                    Position(1, 1),
                    "",
                    "expected a record in one of "
                    f"content/{{{','.join(KINDS)}}}/, found a file elsewhere",
                )
            )
        elif path.suffix != ".yaml":
            problems.append(
                Problem(shown, Position(1, 1), "", f"expected a .yaml file, found {path.name}")
            )
        else:
            found.append((kind, path, shown))
    return found, problems


def check_modeline(kind: str, shown: str, raw: bytes, severity: str = "error") -> list[Problem]:
    """A record file starts with its kind's modeline, so an editor checks it as it is typed."""
    if raw.startswith(modeline(kind).encode() + b"\n"):
        return []
    return [
        Problem(
            shown,
            Position(1, 1),
            "",
            f"expected the first line to be "
            f"'{modeline(kind)}', so editors check this file as you type",
            severity,
        )
    ]


def check_file_name(record: Record, path: Path, document: Document) -> list[Problem]:
    """A record's id is its file's name, so every reference to the id finds the file."""
    if re.match(ID_PATTERN, path.stem) and record.id == path.stem:
        return []
    return [
        Problem(
            document.path,
            document.position(("id",)),
            "id",
            f"expected the id to equal the file name {path.stem!r}, found {record.id!r}",
        )
    ]


def check_mappings(paths: list[Path], shown_root: Path) -> tuple[dict[str, Strict], list[Problem]]:
    """Each import's mapping against its schema (model/imports.py), as a record is checked:
    a contributor's edit to one is reported at its position before any import runs. Returns
    the mappings that pass, by program."""
    problems: list[Problem] = []
    found: dict[str, Strict] = {}
    for path in paths:
        shown = path.relative_to(shown_root).as_posix()
        model = MAPPINGS.get(path.stem) if path.suffix == ".yaml" else None
        if model is None:
            known = ", ".join(f"{name}.yaml" for name in MAPPINGS)
            problems.append(
                Problem(shown, Position(1, 1), "", f"expected one of {known}, found {path.name}")
            )
            continue
        raw = path.read_bytes()
        document, read = load_text(shown, raw)
        # A warning, not an error: the mappings gained their schema long after the content's
        # history began, and the changelog and `cloudqual diff` read each earlier revision with
        # today's checks. A missing modeline changes no fact; refusing it would leave every
        # revision before the schema unread.
        problems += read + check_modeline(f"imports-{path.stem}", shown, raw, "warning")
        if document is None:
            continue
        mapping, invalid = validate(model, document)
        problems += invalid
        if mapping is not None:
            found[path.stem] = mapping
    return found, problems
