"""Writing an import's records into content/, as every importer writes them.

An import owns the files it writes, and only those: each begins with the record's modeline and a
marker line naming the import (and the round, for a round's own records). It never writes over a
file without its marker, so a hand-written record always wins; analysis of an imported result
goes in `content/analyses/`, which no import touches. The same input gives the same bytes, so a
second import changes nothing and `--check` can tell a stale import from a current one.

Nothing is written unless everything is right: the records are built, the whole content folder is
checked with them in place in a temporary copy, and only then are the files replaced.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ruamel.yaml import YAML

from generator.checks.loader import load_site
from generator.checks.record_files import modeline
from generator.importers.core.mapping import ImportFailure
from generator.load.reader import load_text
from generator.model.kinds import KINDS
from generator.problems import ContentError, Position, Problem


@dataclass
class Plan:
    """The files an import writes, by path under content/, those it removes, and its counts;
    each importer's plan adds what its report says of its program."""

    files: dict[str, str] = field(default_factory=dict)
    removed: list[str] = field(default_factory=list)
    validations: int = 0
    measurements: int = 0
    invalid: int = 0
    unchanged: int = 0


class Writes(Protocol):
    """What an import's plan writes and removes, by path under content/: all `apply` needs."""

    files: dict[str, str]
    removed: list[str]


def _yaml() -> YAML:
    yaml = YAML()
    yaml.width = 1 << 16  # one line per value: no folding, so no trailing spaces
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.representer.add_representer(
        type(None), lambda r, _: r.represent_scalar("tag:yaml.org,2002:null", "null")
    )
    # One value used twice (a round's date) is written out twice: the loader refuses aliases.
    yaml.representer.ignore_aliases = lambda _: True
    return yaml


def dump(kind: str, marker: str, data: dict[str, Any]) -> str:
    """A record's file: modeline, marker, then the record in the model's field order."""
    stream = io.StringIO()
    _yaml().dump(data, stream)
    return f"{modeline(kind)}\n{marker}\n{stream.getvalue()}"


def owned(text: str, marker: str) -> bool:
    lines = text.split("\n", 2)
    return len(lines) > 1 and lines[1].startswith(marker)


def existing_records(content: Path) -> dict[str, str]:
    """Every record file under content/, by path relative to it, as text. A byte that is not
    UTF-8 reads as U+FFFD here, and the check of the whole folder names it with its position."""
    found = {}
    for kind in KINDS:
        folder = content / kind
        if folder.is_dir():
            for path in sorted(folder.glob("*.yaml")):
                if path.is_file() and not path.is_symlink():
                    found[f"{kind}/{path.name}"] = path.read_bytes().decode(errors="replace")
    return found


class Planned(Writes, Protocol):
    unchanged: int


def write_records(
    plan: Planned,
    content: Path,
    records: dict[str, tuple[str, dict[str, Any]]],
    existing: dict[str, str],
    program_marker: str,
    round_marker: str,
) -> None:
    """Put each record's file text in the plan, and the files of the same round the import no
    longer writes among those it removes; refuse, naming each, to write over a hand-written file.
    Both imports end their plans here."""
    clashes = [
        Problem(
            f"{content.name}/{path}",
            Position(2, 1),
            "",
            f"expected a file written by the import, found a hand-written one; rename it "
            f"or move its analysis to {content.name}/analyses/",
        )
        for path in records
        if path in existing and not owned(existing[path], program_marker)
    ]
    if clashes:
        raise ImportFailure(clashes)
    for path, (marker, data) in records.items():
        text = dump(path.split("/", 1)[0], marker, data)
        if existing.get(path) == text:
            plan.unchanged += 1
        plan.files[path] = text
    plan.removed = sorted(
        path
        for path, text in existing.items()
        if owned(text, round_marker.split(":", 1)[0] + ":") and path not in plan.files
    )


def commit_problems(root: Path, commit: str) -> list[Problem]:
    """A git checkout must be at the commit the mapping names; a plain folder is taken as is."""
    if not (root / ".git").exists() or shutil.which("git") is None:
        return []
    head = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    if head and head != commit:
        return [
            Problem(
                str(root),
                Position(1, 1),
                "",
                f"expected a checkout at {commit}, as the mapping names, found {head}",
            )
        ]
    return []


def changed(content: Path, plan: Writes) -> list[str]:
    """The paths under content/ that the plan would change, add or remove."""
    paths = []
    for path, text in plan.files.items():
        target = content / path
        if not target.is_file() or target.read_bytes() != text.encode("utf-8"):
            paths.append(path)
    return sorted(paths + plan.removed)


def apply(content: Path, plan: Writes) -> list[str]:
    """Check the whole content folder with the plan applied, then apply it. Returns what changed."""
    paths = changed(content, plan)
    with tempfile.TemporaryDirectory() as temporary:
        staged = Path(temporary) / content.name
        shutil.copytree(content, staged, symlinks=True)
        _write(staged, plan, paths)
        try:
            load_site(staged, shown_root=staged.parent)
        except ContentError as error:
            raise ImportFailure(error.problems) from None
    _write(content, plan, paths)
    return paths


def _write(content: Path, plan: Writes, paths: Iterable[str]) -> None:
    # Each file goes in whole, by rename, so a reader never sees half a record.
    for path in paths:
        target = content / path
        if path in plan.removed:
            target.unlink()
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.importing")
        partial.write_text(plan.files[path], encoding="utf-8")
        partial.replace(target)


def provider_name(existing: dict[str, str], provider: str, fallback: str | None) -> str:
    """The provider's name as its record gives it (a text says "Lambda's results"), else
    `fallback`, the mapping's, else its id; a record that does not load is reported when the
    whole folder is checked."""
    path = f"providers/{provider}.yaml"
    if path in existing:
        document, _ = load_text(path, existing[path].encode("utf-8"))
        value = document.value if document is not None else None
        if isinstance(value, dict) and isinstance(value.get("name"), str):
            return str(value["name"])
    return fallback or provider
