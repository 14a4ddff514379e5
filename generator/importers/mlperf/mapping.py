"""What an import maps, edited by hand in `content/imports/`: each round's repository, commit
and publication date, each submitter's provider and whose cloud its results ran on, each
accelerator's platform, each benchmark's name, and what a submitter says of its deployment.

A submitter or accelerator the mapping lacks stops the import: a result is never given to a
provider, or grouped under a platform, by guess.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Annotated, TypeVar

from pydantic import Field, StringConstraints

from generator.checks.loader import IMPORTS_FOLDER
from generator.checks.schema import validate
from generator.importers.mlperf.rounds import Round
from generator.load.reader import load_text
from generator.model.records import AcceleratorNoun, Cloud, DateBasis, Grade, Id, Strict, Text, Url
from generator.problems import Position, Problem

PROGRAM = "mlperf-training"
MAPPING = f"{IMPORTS_FOLDER}/{PROGRAM}.yaml"


class ImportFailure(Exception):
    """The import cannot go on; `problems` say where, and nothing was written."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems)
        super().__init__("\n".join(map(str, self.problems)))


Commit = Annotated[str, StringConstraints(pattern="^[0-9a-f]{40}$")]
RoundName = Annotated[str, StringConstraints(pattern=r"^v\d+\.\d+$")]


class Published(Strict):
    """When a round was published, and who says so: a date every imported result carries."""

    date: date
    basis: DateBasis
    source: Id
    grade: Grade


class RoundEntry(Strict):
    repository: Url
    commit: Commit
    published: Published
    # Only an imported round has one: when its records were last checked against the round.
    reviewed: date | None = None
    # The round whose run logs this round's are compared with, to find results submitted again;
    # its folder is given to the import with --earlier.
    earlier: RoundName | None = None


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


class AcceleratorEntry(Strict):
    platform: Id
    vendor: Text
    chip: Text
    noun: AcceleratorNoun


class DeploymentEntry(Strict):
    """What a submitter says of where its systems of one round ran, with the source."""

    environment: Text
    source: Id
    grade: Grade
    # The system keys it covers; null for every system of the submitter in the round.
    systems: list[Text] | None = None


class Mapping(Strict):
    rounds: dict[RoundName, RoundEntry]
    submitters: dict[Text, SubmitterEntry]
    accelerators: dict[Text, AcceleratorEntry]
    benchmarks: dict[Annotated[str, StringConstraints(pattern="^[a-z0-9_]+$")], Text] = Field(
        default_factory=dict
    )
    # By round, then by submitter as published.
    deployments: dict[RoundName, dict[Text, DeploymentEntry]] = Field(default_factory=dict)
    # The chip makers, by submitter as published, to the vendor their chips are listed under:
    # their closed results are the references a cloud's times are set against.
    makers: dict[Text, Text] = Field(default_factory=dict)


M = TypeVar("M", bound=Strict)


def read_mapping(content: Path) -> Mapping:
    return read_model(content, Mapping, MAPPING)


def read_model(content: Path, model: type[M], relative: str) -> M:
    """The mapping at `relative` under `content`, validated as `model`: each import's own; every
    problem is an ImportFailure at its position."""
    path = content / relative
    shown = f"{content.name}/{relative}"
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise ImportFailure(
            [Problem(shown, Position(1, 1), "", f"cannot be read: {error.strerror}")]
        ) from None
    document, problems = load_text(shown, raw)
    if document is None:
        raise ImportFailure(problems)
    found, problems = validate(model, document)
    if found is None:
        raise ImportFailure(problems)
    return found


def mapping_problems(reading: Round, mapping: Mapping, shown: str) -> list[Problem]:
    """Submitters and accelerators the mapping lacks: named, never guessed."""
    problems = []
    for system in reading.systems:
        if system.submitter not in mapping.submitters:
            problems.append(
                Problem(
                    system.path,
                    Position(1, 1),
                    "submitter",
                    f"expected a submitter that {shown} maps to a provider, found "
                    f"{system.submitter!r}: add it under submitters",
                )
            )
        if system.accelerator not in mapping.accelerators:
            problems.append(
                Problem(
                    system.path,
                    Position(1, 1),
                    "accelerator_model_name",
                    f"expected an accelerator that {shown} maps to a platform, found "
                    f"{system.accelerator!r}: add it under accelerators",
                )
            )
    return problems
