"""`cloudqual import mlperf-inference`: a round's cloud results, written as content records.

As the training import does, it owns the files it writes and only those (each carries its marker
line), never writes over a hand-written record, gives the same bytes for the same input, and
writes nothing unless the whole content folder checks with the records in place. A provider or
platform record that is already there, whoever wrote it, is kept as it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.importers.core import writing
from generator.importers.core.mapping import ImportFailure, check_round, missing_provider
from generator.importers.core.round_builder import platform_record, provider_record
from generator.importers.mlperf_inference.mapping import (
    MAPPING,
    mapping_problems,
    provider_words,
    read_mapping,
)
from generator.importers.mlperf_inference.metrics import MODELS
from generator.importers.mlperf_inference.records import MARKER, Group, RoundRecords
from generator.importers.mlperf_inference.results import Result, Round, read_round
from generator.importers.mlperf_inference.table import read_table
from generator.model.imports import InferenceMapping
from generator.problems import Position, Problem


@dataclass
class Plan(writing.Plan):
    """What the import writes, with the round it read and what its report says of it."""

    round: Round | None = None
    references: int = 0
    # The clouds' results with no valid figure, listed in the import's report.
    without_figure: list[Result] = field(default_factory=list)


def _round_problems(content: Path, mapping: InferenceMapping, root: Path, round_name: str) -> None:
    shown = f"{content.name}/{MAPPING}"
    if round_name not in MODELS:
        known = ", ".join(sorted(MODELS))
        raise ImportFailure(
            [
                Problem(
                    "--round",
                    Position(1, 1),
                    "",
                    f"expected a round whose figures the import knows ({known}), "
                    f"found {round_name!r}",
                )
            ]
        )
    check_round(mapping.rounds, round_name, root, shown)


def plan_import(content: Path, root: Path, round_name: str) -> Plan:
    """What importing the round at `root` would write. Raises ImportFailure with every problem."""
    mapping = read_mapping(content)
    _round_problems(content, mapping, root, round_name)
    problems = writing.commit_problems(root, mapping.rounds[round_name].commit)
    # A round whose logs cannot be read is read from MLCommons' table of it alone.
    table = mapping.rounds[round_name].read == "table"
    reading = read_table(root, round_name) if table else read_round(root, round_name)
    problems += reading.problems + mapping_problems(reading, mapping, f"{content.name}/{MAPPING}")
    if problems:
        raise ImportFailure(problems)
    builder = RoundRecords(reading, mapping, round_name)
    existing = writing.existing_records(content)
    plan = Plan(round=reading)
    records: dict[str, tuple[str, dict[str, Any]]] = {}
    for group in builder.groups():
        system = group.systems[0]
        platform_path = f"platforms/{group.platform}.yaml"
        if platform_path not in existing or writing.owned(existing[platform_path], MARKER):
            platform = platform_record(system.accelerator, mapping.accelerators[system.accelerator])
            records[platform_path] = (builder.shared_marker, platform)
        entry = group.entries[0]
        provider_path = f"providers/{entry.provider}.yaml"
        if provider_path in existing and not writing.owned(existing[provider_path], MARKER):
            continue  # a record of the provider wins, whoever wrote it
        provider = provider_record(entry.provider, *provider_words(mapping, entry.provider))
        if provider is None:
            shown = f"{content.name}/{MAPPING}"
            raise ImportFailure([missing_provider(shown, system.submitter, entry.provider)])
        records[provider_path] = (builder.shared_marker, provider)
    for system in builder.cited():
        source = builder.source(system)
        records[f"sources/{source['id']}.yaml"] = (builder.marker, source)
    for group in builder.groups():
        validation = builder.validation(group, _provider_name(group, existing))
        records[f"validations/{validation['id']}.yaml"] = (builder.marker, validation)
        plan.validations += 1
        plan.measurements += len(validation["measurements"])
        plan.invalid += len(validation["invalid"])
        plan.without_figure += [r for r in group.results if r.figure is None]
        plan.references += sum(1 for m in validation["measurements"] if "reference" in m)
    writing.write_records(plan, content, records, existing, MARKER, builder.marker)
    return plan


def _provider_name(group: Group, existing: dict[str, str]) -> str:
    """The provider's name as its record gives it, else the mapping's."""
    return writing.provider_name(
        existing, group.provider, next((e.name for e in group.entries if e.name), None)
    )
