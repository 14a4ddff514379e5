"""A qualification program, with its criteria and published catalogue, and the suites it
runs: what a result under the program can and cannot establish."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from pydantic import Field, StringConstraints

from generator.model.base import Record, Sourced, Statement, Strict
from generator.model.fields import ID_PATTERN, Architecture, Name, Precision, ProgramRef, Text, Url


class Criterion(Sourced):
    text: Text = Field(description="The criterion, in our words.")
    quote: Text | None = Field(default=None, description="The source's exact words, if quoted.")
    reference: Text | None = Field(default=None, description="Section or requirement id.")


class Validity(Sourced):
    months: int = Field(gt=0, description="How long a qualification stays valid.")


class Tolerance(Sourced):
    percent: float = Field(gt=0, lt=100, description="Allowed shortfall, in percent.")
    against: Text = Field(
        description="What the shortfall is measured from, in the source's words, e.g. "
        "'an NVIDIA-provided target'."
    )


class ReleaseNotHeld(Strict):
    """A release of the program the site does not hold, and why: said, never left to guess."""

    release: Text = Field(description="The round or version, e.g. v5.0.")
    why: Text = Field(description="Why its results are not on the site.")


class CatalogueEntry(Strict):
    """One criterion of a program's published catalogue, as the file gives it."""

    id: Annotated[str, StringConstraints(min_length=1, max_length=80, pattern=ID_PATTERN)]
    label: Name
    category: Name
    coverage: Name = Field(description="How fully the program checks it, in its own word.")
    harnesses: list[Name] = Field(description="Where it runs, in the program's own words.")


class Catalogue(Sourced):
    """Every criterion a program's own file lists, copied whole at one version."""

    at: Text = Field(description="The file and the version it was read at.")
    applies: Text = Field(
        description="What the catalogue is, and what it may not be read as: e.g. that it is "
        "newer than the ratings published, so no criterion is shown to be one a rating applied."
    )
    criteria: list[CatalogueEntry] = Field(min_length=1)


class Program(Record):
    name: Name
    owner: Name = Field(description="Who defines the program and its criteria.")
    url: Url | None
    summary: Text
    outcomes: list[Text] = Field(
        min_length=1, description="The results a qualification can have: pass, a tier, published."
    )
    validity: Validity | None = Field(
        description="How long a result stays valid; null if not stated."
    )
    tolerance: Tolerance | None = Field(
        description="Shortfall allowed from reference; null if none."
    )
    criteria: list[Criterion] = Field(min_length=1)
    means: list[Statement] = Field(description="What a result under the program establishes.")
    does_not_mean: list[Statement] = Field(description="What a result does not establish.")
    releases_not_held: list[ReleaseNotHeld] = Field(
        default_factory=list,
        description="Releases whose results the site does not hold, and why; the releases it "
        "holds are those of its validations.",
    )
    catalogue: Catalogue | None = Field(
        default=None,
        description="The program's own list of criteria, copied whole from its file, where it "
        "publishes one.",
    )


class Workload(Strict):
    model: Name
    size: Text | None = Field(description="Parameter count as published, e.g. 671B.")
    architecture: Architecture | None = Field(description="null when no source we hold states it.")
    precisions: list[Precision] = Field(min_length=1)


class StatedCounts(Strict):
    models: int = Field(ge=0)
    configurations: int = Field(ge=0)
    precisions: list[Precision]


class Suite(Sourced, Record):
    program: ProgramRef
    chip: Name
    release: Text = Field(description="The recipe release or commit the matrix was read at.")
    gpus: int | None = Field(gt=0, description="The scale the suite runs at.")
    tagged: date | None = Field(
        default=None,
        description="The date of the release's commit, where the program releases by tag: a "
        "result announced before it cannot have run this suite.",
    )
    workloads: list[Workload] | None = Field(
        description="The model-by-precision matrix; null when only counts are known."
    )
    stated_counts: StatedCounts | None = Field(
        description="Counts from a summary, for a suite whose matrix we have not read."
    )
    note: Text | None = None
