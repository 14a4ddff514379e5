"""What `cloudqual import mlperf-inference` maps (its schema: model/imports.py
`InferenceMapping`): each round's repository, commit and publication date; each submitter,
whether its results are a cloud's, and whose; the chip makers whose own results the clouds' are
set against; each accelerator's platform; each model's name.

Inference has no "Available cloud" label: a result is a cloud's because the mapping says whose
cloud ran it, for the whole submitter (Nebius) or per system where the submitter is not a cloud
but its system description names one (The_Stage on Nebius). A submitter the mapping lacks stops
the import, as an accelerator of a cloud's system does: nothing is given to a provider by guess.
"""

from __future__ import annotations

import re
from pathlib import Path

from generator.checks.loader import IMPORTS_FOLDER
from generator.importers.core import mapping as shared
from generator.importers.mlperf_inference.results import Round, SystemFile
from generator.model.imports import CloudEntry, InferenceMapping, InferenceSubmitter
from generator.model.validation import Cloud
from generator.problems import Position, Problem

PROGRAM = "mlperf-inference"
MAPPING = f"{IMPORTS_FOLDER}/{PROGRAM}.yaml"


def entry_for(submitter: InferenceSubmitter, system: SystemFile) -> CloudEntry | None:
    """Whose cloud one system's results ran on: its own entry, the submitter's (a submitting
    cloud's by `naming`), or none."""
    if system.key in submitter.systems:
        return submitter.systems[system.key]
    if submitter.provider is None or submitter.cloud is None:
        return None
    cloud, note = submitter.cloud, submitter.note
    if cloud == "submitter":
        cloud, note = naming(system, submitter.names)
    return CloudEntry(
        provider=submitter.provider,
        cloud=cloud,
        name=submitter.name,
        summary=submitter.summary,
        note=note,
    )


QUOTED = 100  # the most of a description's field a note quotes


def _quote(value: str, start: int, end: int) -> str:
    """The part of `value` around [start, end) a note quotes, whole where it is short."""
    if len(value) <= QUOTED:
        return value
    left = max(0, min(start - QUOTED // 3, len(value) - QUOTED))
    shown = value[left : left + QUOTED]
    return ("…" if left else "") + shown + ("…" if left + QUOTED < len(value) else "")


def naming(system: SystemFile, names: list[str]) -> tuple[Cloud, str]:
    """Whether the system's description names the submitting cloud by any of `names` (a whole
    word, in any case, in any field but the submitter's own line), and the note that says
    where, or that it names none."""
    for name in names:
        pattern = re.compile(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", re.IGNORECASE)
        for field_name, value in system.texts:
            found = pattern.search(value)
            if found:
                quoted = _quote(value, found.start(), found.end())
                return "submitter", (
                    f"The {system.described_by} names {found[0]} in its {field_name}: '{quoted}'."
                )
    return "not-named", (
        f"The {system.described_by} names no cloud (its {system.name_field} reads "
        f"'{system.name}'); the result is listed here because {system.submitter}, a cloud, "
        "submitted it."
    )


def read_mapping(content: Path) -> InferenceMapping:
    return shared.read_model(content, InferenceMapping, MAPPING)


def provider_words(mapping: InferenceMapping, provider: str) -> tuple[str | None, str | None]:
    """The name and summary the mapping gives a provider, on whichever entry of it gives them:
    one entry names a provider for every round's systems."""
    entries: list[InferenceSubmitter | CloudEntry] = []
    for submitter in mapping.submitters.values():
        entries += [submitter, *submitter.systems.values()]
    for entry in entries:
        if entry.provider == provider and entry.name and entry.summary:
            return entry.name, entry.summary
    return None, None


def cloud_of(mapping: InferenceMapping, system: SystemFile) -> CloudEntry | None:
    entry = mapping.submitters.get(system.submitter)
    return entry_for(entry, system) if entry is not None else None


def maker_of(mapping: InferenceMapping, system: SystemFile) -> str | None:
    entry = mapping.submitters.get(system.submitter)
    return entry.maker if entry is not None else None


def mapping_problems(reading: Round, mapping: InferenceMapping, shown: str) -> list[Problem]:
    """Submitters the mapping lacks, and the accelerators and models of clouds' results it lacks:
    named, never guessed."""
    problems = []
    measured = {r.system.path for r in reading.results}
    for system in reading.systems:
        if system.submitter not in mapping.submitters:
            wanted = "lists (with the provider whose cloud ran it, or none)"
            problems.append(shared.unknown_submitter(system.path, shown, system.submitter, wanted))
            continue
        if (
            system.path in measured
            and cloud_of(mapping, system) is not None
            and system.accelerator not in mapping.accelerators
        ):
            problems.append(shared.unknown_accelerator(system.path, shown, system.accelerator))
    for result in reading.results:
        if (
            cloud_of(mapping, result.system) is not None
            and result.figure is not None
            and result.benchmark not in mapping.models
        ):
            problems.append(
                Problem(
                    result.folder,
                    Position(1, 1),
                    "",
                    f"expected a model that {shown} names, found {result.benchmark!r}: add it "
                    "under models",
                )
            )
    return sorted(problems)
