"""`cloudqual import mlperf-training`: a round's cloud results, written as content records.

The import owns the files it writes, and only those: each begins with the record's modeline and a
marker line naming the import (and the round, for a round's own records). It never writes over a
file without its marker, so a hand-written record always wins; analysis of an imported result
goes in `content/analyses/`, which the import never touches. The same input gives the same bytes,
so a second import changes nothing and `--check` can tell a stale import from a current one.

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
from datetime import date
from pathlib import Path
from typing import Any, Protocol

from ruamel.yaml import YAML

from generator.checks.files import modeline
from generator.checks.loader import load_site
from generator.importers.mlperf.mapping import (
    MAPPING,
    PROGRAM,
    ImportFailure,
    Mapping,
    mapping_problems,
    read_mapping,
)
from generator.importers.mlperf.records import MARKER, Group, RoundRecords
from generator.importers.mlperf.resubmission import EarlierLogs, Resubmission, find, read_earlier
from generator.importers.mlperf.rounds import Round, read_round, round_number
from generator.load.reader import load_text
from generator.model.records import KINDS
from generator.problems import ContentError, Position, Problem

__all__ = [
    "PROGRAM",
    "ImportFailure",
    "Plan",
    "apply",
    "changed",
    "commit_problems",
    "dump",
    "existing_records",
    "owned",
    "plan_import",
    "write_records",
]


class Writes(Protocol):
    """What an import's plan writes and removes, by path under content/: all `apply` needs."""

    files: dict[str, str]
    removed: list[str]


@dataclass
class Plan:
    """The files an import writes, by path under content/, and those it removes."""

    files: dict[str, str] = field(default_factory=dict)
    removed: list[str] = field(default_factory=list)
    round: Round | None = None
    validations: int = 0
    measurements: int = 0
    invalid: int = 0
    unchanged: int = 0
    repeats: dict[str, Resubmission] = field(default_factory=dict)  # by benchmark folder


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


def _version(round_name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in round_name.removeprefix("v").split("."))


def _previous(mapping: Mapping, round_name: str) -> tuple[str, date] | None:
    """The round published before this one, of those the mapping holds, and its date."""
    earlier = [name for name in mapping.rounds if _version(name) < _version(round_name)]
    if not earlier:
        return None
    name = max(earlier, key=_version)
    return name, mapping.rounds[name].published.date


def _earlier_logs(
    mapping: Mapping, round_name: str, earlier_root: Path | None, shown_mapping: str
) -> EarlierLogs | None:
    """The run logs of the round the mapping compares this one with, from its folder."""
    earlier = mapping.rounds[round_name].earlier
    if earlier is None:
        if earlier_root is not None:
            raise ImportFailure(
                [
                    Problem(
                        "--earlier",
                        Position(1, 1),
                        "",
                        f"expected no folder: {shown_mapping} names no earlier round for "
                        f"{round_name} (rounds.{round_name}.earlier)",
                    )
                ]
            )
        return None
    if earlier_root is None:
        raise ImportFailure(
            [
                Problem(
                    shown_mapping,
                    Position(1, 1),
                    f"rounds.{round_name}.earlier",
                    f"expected the folder of round {earlier}, whose run logs {round_name}'s are "
                    f"compared with, found none: give it with --earlier FOLDER",
                )
            ]
        )
    if earlier not in mapping.rounds:
        raise ImportFailure(
            [
                Problem(
                    shown_mapping,
                    Position(1, 1),
                    f"rounds.{round_name}.earlier",
                    f"expected a round the mapping holds, found {earlier!r}",
                )
            ]
        )
    if not earlier_root.is_dir():
        found = "a file" if earlier_root.exists() else "none"
        raise ImportFailure(
            [Problem(str(earlier_root), Position(1, 1), "", f"expected a folder, found {found}")]
        )
    problems = commit_problems(earlier_root, mapping.rounds[earlier].commit)
    logs = read_earlier(earlier_root, earlier)
    if problems or logs.problems:
        raise ImportFailure(problems + logs.problems)
    return logs


def plan_import(
    content: Path, root: Path, round_name: str, earlier_root: Path | None = None
) -> Plan:
    """What importing the round at `root` would write, comparing its run logs with those of the
    earlier round at `earlier_root` where the mapping names one. Raises ImportFailure with every
    problem."""
    try:
        number = round_number(round_name)
    except ValueError as error:
        raise ImportFailure([Problem("--round", Position(1, 1), "", str(error))]) from None
    mapping = read_mapping(content)
    shown_mapping = f"{content.name}/{MAPPING}"
    if round_name not in mapping.rounds:
        raise ImportFailure(
            [
                Problem(
                    shown_mapping,
                    Position(1, 1),
                    "rounds",
                    f"expected an entry for {round_name} (its repository and commit), found none",
                )
            ]
        )
    if not root.is_dir():
        found = "a file" if root.exists() else "none"
        problem = Problem(str(root), Position(1, 1), "", f"expected a folder, found {found}")
        raise ImportFailure([problem])
    if mapping.rounds[round_name].reviewed is None:
        raise ImportFailure(
            [
                Problem(
                    shown_mapping,
                    Position(1, 1),
                    f"rounds.{round_name}.reviewed",
                    "expected the date its records were last checked against the round, found none",
                )
            ]
        )
    problems = commit_problems(root, mapping.rounds[round_name].commit)
    reading = read_round(root, number, frozenset(mapping.makers))
    problems += reading.problems + mapping_problems(reading, mapping, shown_mapping)
    if problems:
        raise ImportFailure(problems)
    earlier = _earlier_logs(mapping, round_name, earlier_root, shown_mapping)
    previous = _previous(mapping, round_name)
    resubmissions: dict[str, Resubmission] = {}
    for scored in reading.scores:
        if scored.minutes is not None and (repeat := find(scored, earlier, previous)):
            resubmissions[scored.folder] = repeat
    builder = RoundRecords(reading, mapping, round_name, resubmissions)
    existing = existing_records(content)
    plan = Plan(round=reading, repeats=resubmissions)
    records: dict[str, tuple[str, dict[str, Any]]] = {}
    for submitter in sorted({s.submitter for s in reading.systems}):
        entry = mapping.submitters[submitter]
        provider = builder.provider(entry)
        if f"providers/{entry.provider}.yaml" in existing and not owned(
            existing[f"providers/{entry.provider}.yaml"], MARKER
        ):
            continue  # a hand-written provider record wins
        if provider is None:
            raise ImportFailure(
                [
                    Problem(
                        shown_mapping,
                        Position(1, 1),
                        f"submitters.{submitter}",
                        f"expected a name and summary for provider {entry.provider!r}, which "
                        "content/providers/ does not hold, found none",
                    )
                ]
            )
        records[f"providers/{entry.provider}.yaml"] = (builder.shared_marker, provider)
    for accelerator in sorted({s.accelerator for s in reading.systems}):
        entry_a = mapping.accelerators[accelerator]
        path = f"platforms/{entry_a.platform}.yaml"
        if path in existing and not owned(existing[path], MARKER):
            continue
        records[path] = (builder.shared_marker, builder.platform(accelerator, entry_a))
    for system in [*reading.systems, *builder.reference_systems()]:
        # A system described without results is listed on its group's page, so it is cited too;
        # a maker's, where a cloud's time is set against its own.
        source = builder.source(system)
        records[f"sources/{source['id']}.yaml"] = (builder.marker, source)
    for repeat in resubmissions.values():
        if repeat.folder is not None:
            source = builder.earlier_source(repeat)
            records[f"sources/{source['id']}.yaml"] = (builder.marker, source)
    for group in builder.groups():
        if not group.scores:
            continue
        name = _provider_name(content, mapping, group, existing)
        validation = builder.validation(group, name)
        records[f"validations/{validation['id']}.yaml"] = (builder.marker, validation)
        plan.validations += 1
        plan.measurements += len(validation["measurements"])
        plan.invalid += len(validation["invalid"])
    write_records(plan, content, records, existing, MARKER, builder.marker)
    return plan


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


def _provider_name(content: Path, mapping: Mapping, group: Group, existing: dict[str, str]) -> str:
    """The provider's name as its record gives it (the text says "Lambda's results"), else the
    mapping's; a record that does not load is reported when the whole folder is checked."""
    entry = next(e for e in mapping.submitters.values() if e.provider == group.provider)
    path = f"providers/{group.provider}.yaml"
    if path in existing:
        document, _ = load_text(path, existing[path].encode("utf-8"))
        value = document.value if document is not None else None
        if isinstance(value, dict) and isinstance(value.get("name"), str):
            return str(value["name"])
    return entry.name or group.provider


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
