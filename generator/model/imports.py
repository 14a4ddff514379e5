"""What each import maps, edited by hand in `content/imports/`: one schema per import, as every
record kind has one, so an editor checks the file as it is typed (its modeline names
`schemas/imports-PROGRAM.schema.json`) and `cloudqual check` reports it at `path:line:col`.

Each round: its repository, the commit its records are read at, when it was published and who
says so, and when a maintainer last checked its records against it. Each submitter as its
system descriptions spell it: whose cloud its results ran on. Each accelerator: the platform its
results are grouped under. What the import does with these is the importer's (importers/).
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator

from generator.model.base import Strict
from generator.model.fields import Id, Name, Text, Url
from generator.model.grades import Grade
from generator.model.providers import AcceleratorNoun
from generator.model.validation import Cloud, DateBasis

Commit = Annotated[str, StringConstraints(pattern="^[0-9a-f]{40}$")]
RoundName = Annotated[str, StringConstraints(pattern=r"^v\d+\.\d+$")]


class Published(Strict):
    """When a round was published, and who says so: a date every imported result carries."""

    date: date
    basis: DateBasis = Field(
        description="publication: a source dates the round's publication; commit: only the "
        "commit that published its results does."
    )
    source: Id
    grade: Grade


# How a round's records were read: MLCommons' own repository; MLCommons' commit, as a copy others
# hold carries it whole (its hash names MLCommons' content); MLCommons' table of the round
# alone, with no logs; or a copy of files whose commits are not MLCommons' (graded secondary).
ReadFrom = Literal["repository", "commit-in-copy", "table", "copy"]
READ_WORDS: dict[str, str] = {
    "repository": "MLCommons' repository",
    "commit-in-copy": "MLCommons' commit, in a copy another party holds",
    "table": "MLCommons' table of the round alone: no logs or system descriptions",
    "copy": "a copy not authored by MLCommons",
}


class RoundEntry(Strict):
    repository: Url = Field(description="Where the round was read: MLCommons' or a copy's.")
    commit: Commit = Field(description="The commit the round's records are read at.")
    read: ReadFrom = Field(
        default="repository",
        description="repository: MLCommons' own; commit-in-copy: MLCommons' commit as a copy "
        "carries it; table: MLCommons' table alone; copy: a copy not authored by MLCommons.",
    )
    published: Published | None = Field(
        description="When the round was published, and who says so; null where no source we "
        "hold dates it (its results are then undated, never given a guessed date)."
    )
    reviewed: date | None = Field(
        default=None,
        description="When a maintainer last checked the round's records against it; only an "
        "imported round has one.",
    )
    earlier: RoundName | None = Field(
        default=None,
        description="The round whose run logs this round's are compared with, to find results "
        "submitted again (its folder is given with --earlier).",
    )


class AcceleratorEntry(Strict):
    platform: Id = Field(description="The platform its results are grouped under.")
    vendor: Text = Field(description="The maker whose own results are the reference.")
    chip: Text
    noun: AcceleratorNoun


class LeftOut(Strict):
    """Results of a round the import reads that the site does not hold, and why: a program
    page lists them, so a buyer sees what was left out as well as what was kept."""

    round: RoundName
    what: Text = Field(description="Whose results, and which: the submitter, its systems.")
    why: Text


# --- MLPerf Training -------------------------------------------------------------------------

# A result folder as a round lays it out: SUBMITTER/results/SYSTEM/BENCHMARK.
ResultFolder = Annotated[
    str, StringConstraints(pattern=r"^[^/\\]+/results/[^/\\]+/[a-z0-9_]+$", max_length=300)
]


class Excerpts(Strict):
    """Result folders of a round whose run logs are excerpts, not whole logs: from each log, the
    lines the score needs (run_start, run_stop) and the submission lines, verbatim and in order,
    from logs too long to read whole here. Each score follows MLCommons' rule on those lines; the
    rest of each log was not read, so the compliance checker MLCommons' summarizer runs on a whole
    log was not run, and a log submitted again from an earlier round cannot be recognised."""

    round: RoundName
    folders: list[ResultFolder] = Field(min_length=1)


class Rename(Strict):
    """A submitter published under another name, and renamed after."""

    published_as: Text
    note: Text
    source: Id


class TrainingSubmitter(Strict):
    provider: Id
    cloud: Cloud
    name: Text | None = Field(
        default=None, description="Used only where content/providers/ has no record of it."
    )
    summary: Text | None = None
    note: Text | None = None
    renamed: Rename | None = None


class DeploymentEntry(Strict):
    """What a submitter says of where its systems of one round ran, with the source."""

    environment: Text
    source: Id
    grade: Grade
    systems: list[Text] | None = Field(
        default=None,
        description="The system keys it covers; null for every system of the submitter.",
    )


class SubmitterStatement(Strict):
    """What a submitter says of its own results of one round, in its words and with its source:
    the import adds it to the result's claims, so a figure read from the logs keeps the
    submitter's own statements beside it."""

    round: RoundName
    submitter: Text = Field(description="The submitter as published.")
    text: Text
    source: Id
    # A submitter's own words on its own results: reported by it, never more, and never a gap
    # (a not-established claim needs a reason the mapping has no place for).
    grade: Literal["provider-reported"]
    systems: list[Text] | None = Field(
        default=None,
        min_length=1,
        description="The system keys it speaks of; null for every system of the submitter.",
    )


class TrainingMapping(Strict):
    """content/imports/mlperf-training.yaml."""

    @model_validator(mode="after")
    def _every_round_dated(self) -> TrainingMapping:
        # A training round's date decides which results repeat an earlier round's runs.
        undated = [name for name, entry in self.rounds.items() if entry.published is None]
        if undated:
            raise ValueError(
                f"a training round's publication date, found none for {', '.join(undated)}"
            )
        return self

    def published(self, round_name: str) -> Published:
        """The round's publication, which every training round has (checked above)."""
        found = self.rounds[round_name].published
        assert found is not None
        return found

    rounds: dict[RoundName, RoundEntry]
    submitters: dict[Text, TrainingSubmitter]
    accelerators: dict[Text, AcceleratorEntry]
    benchmarks: dict[Annotated[str, StringConstraints(pattern="^[a-z0-9_]+$")], Text] = Field(
        default_factory=dict
    )
    deployments: dict[RoundName, dict[Text, DeploymentEntry]] = Field(
        default_factory=dict, description="By round, then by submitter as published."
    )
    statements: list[SubmitterStatement] = Field(
        default_factory=list,
        description="What submitters say of their own results, added to those results' claims.",
    )
    makers: dict[Text, Text] = Field(
        default_factory=dict,
        description="The chip makers, by submitter as published, to the vendor their chips are "
        "listed under: their closed results are the references a cloud's times are set against.",
    )
    left_out: list[LeftOut] = Field(
        default_factory=list,
        description="Results that might read as a cloud's that the site leaves out, with why.",
    )
    excerpts: list[Excerpts] = Field(
        default_factory=list,
        description="Result folders whose run logs are excerpts of the published logs: the "
        "lines the score needs, verbatim, and no more.",
    )

    def excerpt_folders(self, round_name: str) -> frozenset[str]:
        """The result folders of `round_name` whose logs are excerpts."""
        return frozenset(
            folder
            for entry in self.excerpts
            if entry.round == round_name
            for folder in entry.folders
        )


# --- MLPerf Inference ------------------------------------------------------------------------


class CloudEntry(Strict):
    """Whose cloud a submitter's results, or one system's, ran on."""

    provider: Id
    cloud: Cloud
    name: Text | None = Field(
        default=None, description="Used only where content/providers/ has no record of it."
    )
    summary: Text | None = None
    note: Text | None = Field(
        default=None,
        description="What the descriptions leave unsaid, shown on the result's page.",
    )


class InferenceSubmitter(Strict):
    """A submitter as published. With `provider`, every datacenter system of it is a cloud's;
    with `systems`, only those listed, by key; with neither, none is. `maker` names the chip
    maker it is, whose closed results are the references.

    A cloud that submits (`cloud: submitter`) lists the `names` its descriptions would call it
    by: a system whose description names none of them is `not-named`, whoever submitted it, so
    the one rule holds for every cloud (Lambda's DGX B200 as Google's)."""

    provider: Id | None = None
    cloud: Cloud | None = None
    names: list[Name] = Field(default_factory=list)
    name: Text | None = None
    summary: Text | None = None
    note: Text | None = None
    systems: dict[Text, CloudEntry] = Field(default_factory=dict)
    maker: Name | None = None

    @model_validator(mode="after")
    def _names_a_submitting_cloud(self) -> InferenceSubmitter:
        if self.cloud == "submitter" and not self.names:
            raise ValueError(
                "a cloud that submits lists the names its descriptions would call it by "
                "(names: [Nebius]), found none"
            )
        return self


class InferenceMapping(Strict):
    """content/imports/mlperf-inference.yaml."""

    rounds: dict[RoundName, RoundEntry]
    submitters: dict[Text, InferenceSubmitter]
    accelerators: dict[Text, AcceleratorEntry]
    models: dict[
        Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+([._-][a-z0-9]+)*$")], Name
    ] = Field(description="MLCommons' benchmark ids, to the names pages show.")
    left_out: list[LeftOut] = Field(
        default_factory=list,
        description="Results that might read as a cloud's that the site leaves out, with why.",
    )


# Each import's mapping, by the file name it has in content/imports/ (without .yaml).
MAPPINGS: dict[str, type[Strict]] = {
    "mlperf-training": TrainingMapping,
    "mlperf-inference": InferenceMapping,
}
