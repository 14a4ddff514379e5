"""`cloudqual import mlperf-training`: a round's cloud results, written as content records by
the importers' one writer (`importers/core/writing.py`), which owns the files it writes and only
those, and writes nothing unless the whole content folder checks with them in place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from generator.importers.core import writing
from generator.importers.core.mapping import ImportFailure, check_round, missing_provider
from generator.importers.core.round_builder import platform_record, provider_record
from generator.importers.mlperf.mapping import MAPPING, mapping_problems, read_mapping
from generator.importers.mlperf.records import MARKER, Group, RoundRecords
from generator.importers.mlperf.resubmission import EarlierLogs, Resubmission, find, read_earlier
from generator.importers.mlperf.rounds import Round, read_round
from generator.importers.mlperf.tables import round_number
from generator.model.imports import TrainingMapping
from generator.problems import Position, Problem


@dataclass
class Plan(writing.Plan):
    """What the import writes, with the round it read and the results it found submitted
    again, by benchmark folder."""

    round: Round | None = None
    repeats: dict[str, Resubmission] = field(default_factory=dict)


def _version(round_name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in round_name.removeprefix("v").split("."))


def _previous(mapping: TrainingMapping, round_name: str) -> tuple[str, date] | None:
    """The round published before this one, of those the mapping holds, and its date."""
    earlier = [name for name in mapping.rounds if _version(name) < _version(round_name)]
    if not earlier:
        return None
    name = max(earlier, key=_version)
    return name, mapping.published(name).date


def _earlier_logs(
    mapping: TrainingMapping, round_name: str, earlier_root: Path | None, shown_mapping: str
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
    problems = writing.commit_problems(earlier_root, mapping.rounds[earlier].commit)
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
    check_round(mapping.rounds, round_name, root, shown_mapping)
    problems = writing.commit_problems(root, mapping.rounds[round_name].commit)
    excerpts = mapping.excerpt_folders(round_name)
    reading = read_round(root, number, frozenset(mapping.makers), excerpts)
    problems += reading.problems + mapping_problems(reading, mapping, shown_mapping, round_name)
    if problems:
        raise ImportFailure(problems)
    earlier = _earlier_logs(mapping, round_name, earlier_root, shown_mapping)
    previous = _previous(mapping, round_name)
    resubmissions: dict[str, Resubmission] = {}
    for scored in reading.scores:
        if scored.minutes is not None and (repeat := find(scored, earlier, previous)):
            resubmissions[scored.folder] = repeat
    builder = RoundRecords(reading, mapping, round_name, resubmissions)
    existing = writing.existing_records(content)
    plan = Plan(round=reading, repeats=resubmissions)
    records: dict[str, tuple[str, dict[str, Any]]] = {}
    for submitter in sorted({s.submitter for s in reading.systems}):
        entry = mapping.submitters[submitter]
        provider = provider_record(entry.provider, entry.name, entry.summary)
        if f"providers/{entry.provider}.yaml" in existing and not writing.owned(
            existing[f"providers/{entry.provider}.yaml"], MARKER
        ):
            continue  # a hand-written provider record wins
        if provider is None:
            raise ImportFailure([missing_provider(shown_mapping, submitter, entry.provider)])
        records[f"providers/{entry.provider}.yaml"] = (builder.shared_marker, provider)
    for accelerator in sorted({s.accelerator for s in reading.systems}):
        entry_a = mapping.accelerators[accelerator]
        path = f"platforms/{entry_a.platform}.yaml"
        if path in existing and not writing.owned(existing[path], MARKER):
            continue
        records[path] = (builder.shared_marker, platform_record(accelerator, entry_a))
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
        name = _provider_name(mapping, group, existing)
        validation = builder.validation(group, name)
        records[f"validations/{validation['id']}.yaml"] = (builder.marker, validation)
        plan.validations += 1
        plan.measurements += len(validation["measurements"])
        plan.invalid += len(validation["invalid"])
    writing.write_records(plan, content, records, existing, MARKER, builder.marker)
    return plan


def _provider_name(mapping: TrainingMapping, group: Group, existing: dict[str, str]) -> str:
    entry = next(e for e in mapping.submitters.values() if e.provider == group.provider)
    return writing.provider_name(existing, group.provider, entry.name)
