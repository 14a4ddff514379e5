"""What an import maps, edited by hand in `content/imports/`: each round's repository, commit
and publication date, each submitter's provider and whose cloud its results ran on, each
accelerator's platform, each benchmark's name, and what a submitter says of its deployment.

A submitter or accelerator the mapping lacks stops the import: a result is never given to a
provider, or grouped under a platform, by guess.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field, StringConstraints

from generator.checks.loader import IMPORTS_FOLDER
from generator.importers.core import mapping as shared
from generator.importers.mlperf.rounds import Round
from generator.model.records import Cloud, Grade, Id, Strict, Text
from generator.problems import Problem

PROGRAM = "mlperf-training"
MAPPING = f"{IMPORTS_FOLDER}/{PROGRAM}.yaml"


class Rename(Strict):
    """A submitter published under another name, and renamed after."""

    published_as: Text
    note: Text
    source: Id


class SubmitterEntry(Strict):
    provider: Id
    cloud: Cloud
    name: Text | None = None
    summary: Text | None = None
    note: Text | None = None
    renamed: Rename | None = None


class DeploymentEntry(Strict):
    """What a submitter says of where its systems of one round ran, with the source."""

    environment: Text
    source: Id
    grade: Grade
    # The system keys it covers; null for every system of the submitter in the round.
    systems: list[Text] | None = None


class Mapping(Strict):
    rounds: dict[shared.RoundName, shared.RoundEntry]
    submitters: dict[Text, SubmitterEntry]
    accelerators: dict[Text, shared.AcceleratorEntry]
    benchmarks: dict[Annotated[str, StringConstraints(pattern="^[a-z0-9_]+$")], Text] = Field(
        default_factory=dict
    )
    # By round, then by submitter as published.
    deployments: dict[shared.RoundName, dict[Text, DeploymentEntry]] = Field(default_factory=dict)
    # The chip makers, by submitter as published, to the vendor their chips are listed under:
    # their closed results are the references a cloud's times are set against.
    makers: dict[Text, Text] = Field(default_factory=dict)


def read_mapping(content: Path) -> Mapping:
    return shared.read_model(content, Mapping, MAPPING)


def mapping_problems(reading: Round, mapping: Mapping, shown: str) -> list[Problem]:
    """Submitters and accelerators the mapping lacks: named, never guessed."""
    problems = []
    for system in reading.systems:
        if system.submitter not in mapping.submitters:
            problems.append(
                shared.unknown_submitter(system.path, shown, system.submitter, "maps to a provider")
            )
        if system.accelerator not in mapping.accelerators:
            problems.append(shared.unknown_accelerator(system.path, shown, system.accelerator))
    return problems
