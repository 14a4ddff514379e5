"""A validation: one provider's result under a program, with its scope, deployment,
outcome, answers to the evidence questions, caveats, dating and submission; and the hand-written
analysis that adds to an imported one."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from generator.model.base import Record, Sourced, Statement, Strict
from generator.model.fields import (
    Architecture,
    Day,
    Id,
    Name,
    PlatformRef,
    Precision,
    ProgramRef,
    ProviderRef,
    QuestionRef,
    SourceRef,
    SuiteRef,
    Text,
    ValidationRef,
)
from generator.model.grades import Answer
from generator.model.measurements import InvalidResult, Measurement, System
from generator.model.providers import AcceleratorNoun, Platform


class Scope(Sourced):
    accelerators: int | None = Field(
        gt=0,
        description="How many accelerators (GPUs, TPU chips) the result ran on; null if not "
        "stated. The platform's accelerator_noun names them.",
    )
    framework: Text | None = Field(description="Training framework, e.g. Megatron-Bridge.")
    recipe_release: Text | None
    models: int | None = Field(ge=0)
    configurations: int | None = Field(ge=0)
    precisions: list[Precision] = Field(description="Numerical formats tested, e.g. BF16, FP8.")
    architectures: list[Architecture] = Field(description="Model architectures tested.")


class Deployment(Sourced):
    location: Text | None
    energy_source: Text | None
    environment: Text | None = Field(
        description="Bare metal, virtualized, ...; null if not stated."
    )


class Outcome(Sourced):
    result: Text = Field(description="One of the program's outcomes.")
    text: Text = Field(description="The result, in the source's words.")


class Offer(Sourced):
    """What the provider offers on the validated capacity, as a source states it."""

    available_now: bool | None = Field(
        description="Whether it is available now; null if not stated."
    )
    trial_before_commitment: bool | None = Field(
        description="Whether trial runs are offered before commitment; null if not stated."
    )


class EvidenceAnswer(Strict):
    answer: Answer = Field(description="See the methodology page for what each answer means.")
    detail: Text | None = None
    source: SourceRef = Field(description="Id of the source the answer rests on.")


class Caveat(Strict):
    id: Id
    text: Text
    source: SourceRef


# What a date is: the day a source gives for publication, or, where no source we hold dates the
# publication, the date of the commit that published the results in the program's repository.
DateBasis = Literal["publication", "commit"]


class Dating(Sourced):
    """Where a validation's date comes from."""

    basis: DateBasis = Field(
        description="publication: the source dates the publication; commit: the date of the "
        "commit that published the results, where no source we hold dates the publication."
    )


# Whose cloud a submitted result ran on, as the submission says: the submitter's own, one named
# in a joint submission, or one the submitter does not name.
Cloud = Literal["submitter", "joint", "not-named", "named"]


class Submission(Sourced):
    """Who submitted a result, as the program publishes it, and whose cloud it ran on."""

    submitter: Name = Field(description="The submitter as the program publishes it.")
    cloud: Cloud = Field(
        description="submitter: the submitter is the cloud; joint: a joint submission of the "
        "cloud with others; not-named: the submitter names no cloud; named: the submitter is "
        "not the cloud, and its system description names the cloud it ran on."
    )
    note: Text | None = Field(
        default=None, description="What the submission leaves unsaid, or a later rename."
    )


class Validation(Record):
    provider: ProviderRef = Field(
        description="Id of the provider record the result is listed under: the cloud, or, where "
        "a submission names no cloud, its submitter."
    )
    platform: PlatformRef | None = Field(
        description="null when the result covers the whole cloud, or names no platform."
    )
    chip: Name | None = Field(
        default=None,
        description="The chip family a result names when its source names no platform, e.g. "
        "GB300 for 'GB300-class systems'; leave out when a platform is given.",
    )
    accelerator_noun: AcceleratorNoun | None = Field(
        default=None,
        description="What one of its accelerators is called (GPU, TPU chip), for a result that "
        "names no platform; leave out when a platform is given.",
    )
    program: ProgramRef = Field(description="Id of the program the result is under.")
    program_release: Text | None = Field(description="Round or version of the program, e.g. v6.0.")
    stated_suite: SuiteRef | None = Field(
        description="The suite the provider says it ran; null when not stated. When null, the "
        "site infers the likely suite from the counts."
    )
    announced: Day | None = Field(description="null when no source we hold states the date.")
    dating: Dating | None = Field(
        default=None,
        description="Where the announced date comes from; required with a date.",
    )
    submission: Submission | None = Field(
        default=None,
        description="Who submitted the result, where a program publishes submitters; leave out "
        "when the provider published it itself.",
    )
    last_reviewed: Day = Field(
        description="When a contributor last checked this record against its sources."
    )
    summary: Text = Field(
        description="Two or three sentences for a buyer: the result and its main limit."
    )
    scope: Scope = Field(
        description="What was tested, as the source states it; null where it does not."
    )
    deployment: Deployment = Field(description="Where the tested capacity runs.")
    outcome: Outcome = Field(description="The result under the program.")
    measurements: list[Measurement] = Field(
        default_factory=list, description="Published figures, each with its source and grade."
    )
    claims: list[Statement] = Field(
        min_length=1,
        description="What the evidence establishes, and what it does not (grade not-established "
        "or not-published, with a reason).",
    )
    evidence: dict[QuestionRef, EvidenceAnswer] = Field(
        description="An answer to every evidence question in content/questions/, by its id."
    )
    caveats: list[Caveat] = Field(
        default_factory=list,
        description="Limits of the result that the site does not already derive by rule.",
    )
    predecessor: ValidationRef | None = Field(
        description="Id of the earlier validation this one follows, if any."
    )
    offer: Offer | None = Field(
        default=None,
        description="Availability and trial runs, as a source states them; leave out or null "
        "when no source does.",
    )
    systems: list[System] = Field(
        default_factory=list,
        description="The systems the measurements ran on, when the source describes them.",
    )
    invalid: list[InvalidResult] = Field(
        default_factory=list,
        description="Results submitted but not scored under the program's rules, with why.",
    )


class Analysis(Record):
    """Hand-written analysis of a validation whose file an import writes. The import never
    touches this file, and this file never restates the import's facts: it adds claims and
    caveats, and answers only the evidence questions the import leaves not-stated."""

    claims: list[Statement] = Field(default_factory=list)
    caveats: list[Caveat] = Field(default_factory=list)
    evidence: dict[QuestionRef, EvidenceAnswer] = Field(
        default_factory=dict,
        description="Answers to questions the validation's file answers not-stated.",
    )


def accelerator_noun(platform: Platform | None, validation: Validation | None = None) -> str:
    """What a result's accelerators are called: its platform's word, else the word the result
    gives where it names no platform, else the neutral one."""
    if platform is not None:
        return platform.accelerator_noun
    if validation is not None and validation.accelerator_noun is not None:
        return validation.accelerator_noun
    return "accelerator"


def answer_word(validation: Validation, question: str) -> str:
    """A validation's answer to an evidence question ("yes", "partial", ...), or "unanswered"
    where the record gives none: the caveat rules, the checklist and its wording all read it."""
    answer = validation.evidence.get(question)
    return answer.answer if answer is not None else "unanswered"
