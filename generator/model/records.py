"""The content model: one pydantic schema for every record kind, and the only statement of it.

The JSON Schema that editors use is generated from these classes (`cloudqual schema`), so a field
is added or renamed here and nowhere else. Fields that name another record are annotated with
`Ref`, which is how `checks.py` finds every reference without a list of them kept by hand.

Nullable fields without a default are deliberate: the contributor must write `null`, which the site
shows as "not stated". A missing key is an omission; `null` is a statement that no source says.
"""

from __future__ import annotations

import types
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from generator.escape import character_name, first_invisible

ID_PATTERN = r"^[a-z0-9]+(-[a-z0-9]+)*$"


@dataclass(frozen=True)
class Ref:
    """Marks a field whose value is the id of a record of `kind`."""

    kind: str


Id = Annotated[str, StringConstraints(pattern=ID_PATTERN, max_length=80)]
Text = Annotated[str, StringConstraints(min_length=1, max_length=4000)]


def _visible_name(value: str) -> str:
    """A name or title may not hold a character that shows nothing or turns the text around
    it: two providers would look alike, or a title would read backwards (U+202E). Elsewhere
    such characters are shown as their code point (escape.visible)."""
    found = first_invisible(value)
    if found is not None:
        place, character = found
        raise ValueError(
            f"a name with no invisible or direction-changing character, as "
            f"{character_name(character)} at character {place} is"
        )
    return value


Name = Annotated[Text, AfterValidator(_visible_name)]
# Patterns are written for ECMAScript too: editors check files against the generated JSON Schema.
URL_PATTERN = '^https?://[^\\s<>"]+$'
PRECISION_PATTERN = "^[A-Z][A-Z0-9]*$"
Url = Annotated[str, StringConstraints(pattern=URL_PATTERN, max_length=500)]
Precision = Annotated[str, StringConstraints(pattern=PRECISION_PATTERN, max_length=12)]
# MLCommons' own names: a benchmark id (llama2_70b_lora in Training, llama3.1-405b and
# llama2-70b-99.9 in Inference) and a system file's name, which holds capitals, dots and plus
# signs (1xBM.GPU.B200.8) and is the only unique key of a system.
BENCHMARK_PATTERN = "^[a-z0-9]+([._-][a-z0-9]+)*$"
SYSTEM_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._+-]*$"
BenchmarkId = Annotated[str, StringConstraints(pattern=BENCHMARK_PATTERN, max_length=40)]
SystemKey = Annotated[str, StringConstraints(pattern=SYSTEM_PATTERN, max_length=120)]

SourceRef = Annotated[str, StringConstraints(pattern=ID_PATTERN), Ref("sources")]
ProgramRef = Annotated[str, StringConstraints(pattern=ID_PATTERN), Ref("programs")]
ProviderRef = Annotated[str, StringConstraints(pattern=ID_PATTERN), Ref("providers")]
PlatformRef = Annotated[str, StringConstraints(pattern=ID_PATTERN), Ref("platforms")]
SuiteRef = Annotated[str, StringConstraints(pattern=ID_PATTERN), Ref("suites")]
ValidationRef = Annotated[str, StringConstraints(pattern=ID_PATTERN), Ref("validations")]
QuestionRef = Annotated[str, StringConstraints(pattern=ID_PATTERN), Ref("questions")]

# The last day a record may name. Pages compute from a record's dates (a validity of months
# after an announcement, a review due a year after the last, a calendar event's next day), and
# none of that may run past the last day Python's dates hold; no source dates anything this late.
LAST_DAY = date(2999, 12, 31)
Day = Annotated[date, Field(le=LAST_DAY)]

Grade = Literal[
    "independent",
    "program-owner",
    "provider-reported",
    "secondary",
    "not-published",
    "not-stated",
    "not-established",
]
GRADES: tuple[Grade, ...] = Grade.__args__  # type: ignore[attr-defined]

# Grades of a statement that the evidence does not support; they go under "does not establish".
UNESTABLISHED: tuple[Grade, ...] = ("not-established", "not-published", "not-stated")
# Kinds of source that report or reason about other documents: they carry only `secondary` or
# an unestablished grade, whoever they report.
REPORTING_KINDS = ("analysis", "summary")

Answer = Literal["yes", "partial", "no", "not-published", "not-stated"]
ANSWERS: tuple[Answer, ...] = Answer.__args__  # type: ignore[attr-defined]

# The one vocabulary of grades and answers, with what each means: pages, the methodology and
# the JSON Schema all show these words.
GRADE_MEANINGS: dict[str, str] = {
    "independent": "Measured or confirmed by a party other than the provider and program owner.",
    "program-owner": "Stated by the program owner, e.g. NVIDIA's own documents.",
    "provider-reported": "Stated by the provider about itself.",
    "secondary": "Reached through someone else's summary.",
    "not-published": "The figure exists, but nobody has published it.",
    "not-stated": "No source we hold states it, or says that it exists.",
    "not-established": "Does not follow from the published evidence; the reason is given.",
}
ANSWER_MEANINGS: dict[str, str] = {
    "yes": "The sources publish it.",
    "partial": "The sources publish part of it.",
    "no": "The sources show it is not so, or cannot be.",
    "not-published": "It exists, but the sources do not publish it.",
    "not-stated": "The sources we hold are silent.",
}
# What pages show where a validation gives no answer: none recorded, or a question that does not
# apply to its program. Neither is an answer a contributor can write.
SHOWN_MEANINGS: dict[str, str] = {
    **ANSWER_MEANINGS,
    "unanswered": "The record gives no answer.",
    "not-applicable": "The question does not apply to this program's results.",
}
assert set(GRADE_MEANINGS) == set(GRADES) and set(ANSWER_MEANINGS) == set(ANSWERS)

Architecture = Literal["dense", "moe", "hybrid"]
SourceKind = Literal[
    "program-document",
    "repository",
    "announcement",
    "blog",
    "analysis",
    "results",
    "rating",
    "summary",
]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Record(Strict):
    id: Id = Field(description="Kebab-case id; equals the file name without .yaml.")


class Sourced(Strict):
    """Anything that states a fact: it names where the fact comes from and how strong it is."""

    source: SourceRef = Field(description="Id of the source record that states this.")
    grade: Grade = Field(description="Evidence grade, as defined on the methodology page.")


class Statement(Sourced):
    """A graded sentence. A `not-established` statement must say why it does not follow, and a
    `not-published` one what shows that the figure exists, in `reason`; a `not-stated` one may
    say what is silent."""

    text: Text = Field(description="The statement, in Markdown.")
    reason: Text | None = Field(
        default=None,
        description="Required for not-established (why it does not follow) and for not-published "
        "(what shows the figure exists); allowed for not-stated; not allowed otherwise.",
    )


class Attributed(Sourced):
    """A sentence that is one source's reading, graded like any other."""

    text: Text = Field(description="The sentence, in Markdown.")


# --- sources -------------------------------------------------------------------------------------


class Source(Record):
    title: Name = Field(
        description="The title as published, or a plain description if it has none."
    )
    publisher: Name | None = Field(description="Who published it; null when not stated.")
    kind: SourceKind = Field(description="What sort of document it is.")
    url: Url | None = Field(description="Its address; null when we do not hold one. Never guess.")
    published: Day | None = Field(description="Publication date; null when not stated.")
    note: Text | None = Field(default=None, description="How we read it, and its limits.")
    # Whose own words a source is decides which grades it can carry: only a provider's own
    # document is provider-reported, only a program owner's is program-owner.
    provider: ProviderRef | None = Field(
        default=None,
        description="The provider whose own statement this is, if it is one. Only such a source "
        "can carry the grade provider-reported.",
    )
    program: ProgramRef | None = Field(
        default=None,
        description="The program whose owner published this, if it did. Only such a source can "
        "carry the grade program-owner.",
    )


# --- programs and suites -------------------------------------------------------------------------


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


# --- providers and platforms ---------------------------------------------------------------------


class Provider(Record):
    name: Name
    url: Url | None
    summary: Text = Field(description="What the provider is, in plain words that need no source.")
    statements: list[Statement] = Field(
        default_factory=list,
        description="What the provider says about itself, or others about it: each graded and "
        "sourced, never in the summary.",
    )


# What one accelerator is called where pages count them: a TPU is not a GPU.
AcceleratorNoun = Literal["GPU", "TPU chip", "accelerator"]


def accelerator_noun(platform: Platform | None, validation: Validation | None = None) -> str:
    """What a result's accelerators are called: its platform's word, else the word the result
    gives where it names no platform, else the neutral one."""
    if platform is not None:
        return platform.accelerator_noun
    if validation is not None and validation.accelerator_noun is not None:
        return validation.accelerator_noun
    return "accelerator"


class Platform(Record):
    name: Name
    vendor: Name
    chip: Name
    accelerator_noun: AcceleratorNoun = Field(
        description="What one of its accelerators is called where pages count them: GPU, TPU "
        "chip, or accelerator."
    )
    summary: Text
    specifications: list[Statement] = Field(
        description="Specification claims. They are not measurements, and the site says so."
    )


# --- validations ---------------------------------------------------------------------------------


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


class System(Sourced):
    """A system a result ran on, as its system description states it."""

    key: SystemKey = Field(
        description="The system description's file name without .json: MLCommons' key for it."
    )
    name: Name = Field(description="The system's name as published; not unique.")
    division: Literal["closed", "open"]
    status: Text = Field(description="The availability status as published, e.g. Available cloud.")
    accelerator: Text = Field(description="The accelerator model as published.")
    nodes: int = Field(gt=0)
    accelerators_per_node: int = Field(gt=0)
    framework: Text | None
    framework_in_logs: Text | None = Field(
        default=None,
        description="The framework the run logs' own system lines give, where they give one: "
        "the framework as run, which may differ from the description's.",
    )
    results_published: bool = Field(
        default=True,
        description="false for a system that was described but has no published result.",
    )
    host_processor: Text | None = Field(default=None, description="The host CPU as described.")
    cooling: Text | None = Field(default=None, description="The cooling as described.")
    driver: Text | None = Field(
        default=None, description="The accelerator driver's version as described."
    )

    @property
    def accelerator_count(self) -> int:
        """Its accelerators: nodes times accelerators per node."""
        return self.nodes * self.accelerators_per_node


class RunDates(Strict):
    """When a figure's runs started, in UTC, as their logs record it."""

    first: Day
    last: Day


class Resubmitted(Sourced):
    """That a figure is an earlier round's result submitted again, and what shows it: its run
    logs found in the earlier round, its runs started before that round was published, or both."""

    round: Text = Field(description="The earlier round, e.g. v5.0.")
    folder: Text | None = Field(
        description="The earlier round's folder holding the same run logs; null if not compared."
    )
    identical_logs: int = Field(ge=0, description="How many of the run logs equal one there.")
    runs: int = Field(gt=0, description="How many run logs the figure has.")
    before: Day | None = Field(
        description="The earlier round's publication date, where every run started before it."
    )


# MLPerf Inference's scenarios (inference_rules.adoc, "Scenarios"): Offline is throughput with
# every sample sent at once; Server and Interactive are throughput under a latency bound.
Scenario = Literal["Offline", "Server", "Interactive", "SingleStream", "MultiStream"]


class Reference(Sourced):
    """The chip maker's own result for the same benchmark, scenario, accuracy target and number
    of accelerators in the same round and division: what a cloud's figure is set against."""

    submitter: Name = Field(description="The maker, as the program publishes its submitter.")
    system: SystemKey = Field(description="The key of the maker's system description.")
    accelerators: int = Field(gt=0)
    value: float = Field(gt=0)
    framework: Text | None = Field(description="The maker's framework, as its system says.")
    host_processor: Text | None = Field(
        default=None, description="The maker's host CPU, as its system says."
    )
    cooling: Text | None = Field(
        default=None, description="The maker's cooling, as its system says."
    )
    driver: Text | None = Field(
        default=None, description="The maker's accelerator driver, as its system says."
    )


class AccuracyValue(Strict):
    metric: Text = Field(description="The metric as the submission checker names it, e.g. ROUGE1.")
    value: float


class ReportedAccuracy(Strict):
    """What an open-division run's accuracy file reports. The open division holds a result to no
    accuracy target; this says which of the closed division's it would meet."""

    values: list[AccuracyValue] = Field(min_length=1)
    meets: list[Text] = Field(
        description="The closed division's targets it meets, e.g. 99% of the FP32 reference."
    )
    misses: list[Text] = Field(description="The closed division's targets it does not meet.")


class Measurement(Sourced):
    workload: Name
    metric: Text
    value: float
    unit: Text
    note: Text | None = None
    system: SystemKey | None = Field(
        default=None, description="The key of the system in `systems` this was measured on."
    )
    benchmark: BenchmarkId | None = Field(
        default=None, description="The program's own id of the benchmark, e.g. llama2_70b_lora."
    )
    runs_started: RunDates | None = Field(
        default=None, description="When the runs behind the figure started, where logs say."
    )
    resubmitted: Resubmitted | None = Field(
        default=None,
        description="Set when the figure is an earlier round's result submitted again: it "
        "measures nothing new, and pages never count it as progress.",
    )
    scenario: Scenario | None = Field(
        default=None, description="The MLPerf Inference scenario the figure was measured in."
    )
    accuracy_target: Text | None = Field(
        default=None,
        description="The accuracy the result had to reach, e.g. 99% of the FP32 reference.",
    )
    reference: Reference | None = Field(
        default=None, description="The chip maker's own result it is set against, if any."
    )
    model_run: Text | None = Field(
        default=None,
        description="The model the submitter ran, where the open division let it differ from "
        "the benchmark's.",
    )
    accuracy: ReportedAccuracy | None = Field(
        default=None,
        description="What an open-division run's logs report of its accuracy, in place of a "
        "target it was not held to.",
    )


class InvalidResult(Sourced):
    """A result the program's rules do not let be scored, and why: never a silent gap."""

    system: SystemKey
    benchmark: BenchmarkId
    reason: Text
    scenario: Scenario | None = None


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


# --- case studies, checklist, questions ----------------------------------------------------------


class Finding(Strict):
    workload: Text
    metric: Text
    gap_low_percent: float | None = Field(ge=0, description="null when only a bound is published.")
    gap_high_percent: float = Field(ge=0)


class CaseStudy(Sourced, Record):
    title: Name
    program: ProgramRef
    platform: PlatformRef | None
    summary: Text
    findings: list[Finding] = Field(min_length=1)
    cause: Text
    fix: Text | None
    lesson: Attributed = Field(
        description="What the case shows a buyer, cited to whoever draws the lesson."
    )


# When a checklist item applies to a validation at all; derive.APPLIES tests each.
Applies = Literal["every-validation", "energy-claim"]
# What an evidence question is about. Only a question about a published figure can close a
# checklist item: knowing what was tested never settles what a buyer's own allocation does.
About = Literal["published-figure", "tested-result"]


class ChecklistItem(Strict):
    id: Id
    text: Text = Field(
        description="The check, in the source's words. Facts of one validation are written as "
        "slots that the site fills for each validation, e.g. {configurations} or {location}; "
        "the checklist page lists them. Never write one validation's number here."
    )
    applies_when: Applies = Field(
        description="every-validation, or energy-claim: only for validations that state an "
        "energy source."
    )
    closed_by: list[QuestionRef] = Field(
        description="Evidence questions about a published figure whose yes answers, together, "
        "settle the check itself; an empty list means no published evidence can close it."
    )
    # Optional, unlike most fields: content written before items named programs reads as it
    # did (every item for every program), so the changelog and `cloudqual diff` read old
    # revisions.
    programs: list[ProgramRef] | None = Field(
        default=None,
        description="The programs whose results the item applies to; null or left out for "
        "every program. A check that asks for what a program's results never hold (a "
        "model-and-precision matrix, of a rating) is left out of that program's checklists.",
    )


class Checklist(Sourced, Record):
    title: Name
    summary: Text
    items: list[ChecklistItem] = Field(min_length=1)


class Question(Sourced, Record):
    """An evidence question. Its `why` is reasoning, cited to `source` at `grade`."""

    order: int = Field(ge=0, description="Position in tables.")
    question: Text
    label: Annotated[str, StringConstraints(min_length=1, max_length=28)] = Field(
        description="A few words for chart axes, e.g. Pricing."
    )
    asks_for: Text = Field(
        description="What a yes puts in a buyer's hands, as a noun phrase, e.g. 'pricing'."
    )
    about: About = Field(
        description="published-figure, or tested-result (what was tested, e.g. the deployment); "
        "only a published-figure question can close a checklist item."
    )
    programs: list[ProgramRef] | None = Field(
        description="The programs whose results the question applies to; null for every "
        "program. Elsewhere the site shows it as not applicable, never as a gap: the margin "
        "above a threshold means nothing for a program with no threshold."
    )
    why: Text


CoverWord = Literal["checks", "in-part", "does-not"]
COVER_MEANINGS: dict[str, str] = {
    "checks": "The program's own documents say it examines this, and how.",
    "in-part": "The program examines part of it, or only at the system it ran on; the quote "
    "says which part.",
    "does-not": "The program's documents say nothing of it, or say it is left out: a result "
    "of the program tells a buyer nothing here.",
}


class ConcernAnswer(Sourced):
    """What one program's own documents say of a buyer's concern, quoted, at a named version."""

    answer: CoverWord = Field(description="checks, in-part or does-not.")
    says: Text = Field(description="In one sentence, what the program examines of the concern.")
    quote: Text = Field(
        description="The program's own words, verbatim, that the answer rests on; for "
        "does-not, the words that leave it out, or the list that does not name it."
    )
    at: Text = Field(
        description="Where the quote is and which version of the document: a file, line or "
        "section, and a commit, tag or version, e.g. 'training_rules.adoc line 220, commit "
        "d73e20f'."
    )
    categories: list[Name] = Field(
        default_factory=list,
        description="The program's own categories that bear on the concern, as it names them.",
    )
    closed_only: bool = Field(
        default=False,
        description="True where the answer holds for closed-division results only, as the "
        "program's open division relaxes what it checks (MLPerf's latency bounds, accuracy and "
        "model): a result whose every system is in the open division is not counted.",
    )
    scenarios: list[Scenario] = Field(
        default_factory=list,
        description="Where the answer holds only for figures of some scenarios (latency bounds "
        "hold in Server and Interactive, never Offline): a result with no figure in one of "
        "them is not counted. Empty for every scenario.",
    )
    since: date | None = Field(
        default=None,
        description="The earliest date the quoted version is known to be in force; null where "
        "it held for every result the site has. A result announced before it, or undated, is "
        "never counted as covered by this answer.",
    )


class Concern(Record):
    """Something a buyer must trust before renting, and what each program checks of it."""

    order: int = Field(ge=0, description="Position in tables.")
    concern: Text = Field(description="The concern in a buyer's words.")
    label: Annotated[str, StringConstraints(min_length=1, max_length=28)] = Field(
        description="A few words for table headings, e.g. Storage."
    )
    why: Text = Field(description="Why a buyer must know it before renting.")
    answers: dict[ProgramRef, ConcernAnswer] = Field(
        description="Each program's answer, by program id: every program has one."
    )


# The content folder of each kind, in the order pages list them.
KINDS: dict[str, type[Record]] = {
    "sources": Source,
    "programs": Program,
    "suites": Suite,
    "providers": Provider,
    "platforms": Platform,
    "validations": Validation,
    "case-studies": CaseStudy,
    "checklists": Checklist,
    "questions": Question,
    "analyses": Analysis,
    "concerns": Concern,
}


def unwrap(annotation: Any) -> Any:
    """Strip Annotated and Optional from a type, leaving the type that holds the value."""
    while True:
        origin = get_origin(annotation)
        if origin is Annotated:
            annotation = get_args(annotation)[0]
        elif origin in (Union, types.UnionType):
            options = [arg for arg in get_args(annotation) if arg is not type(None)]
            if len(options) != 1:
                return annotation
            annotation = options[0]
        else:
            return annotation


def references(
    value: Any, annotation: Any, loc: tuple[str | int, ...] = ()
) -> Iterator[tuple[str, str, tuple[str | int, ...]]]:
    """Every `(kind, id, loc)` that a validated record refers to, found through `Ref` marks."""
    if get_origin(annotation) in (Union, types.UnionType) and value is not None:
        # An optional reference (`PlatformRef | None`) carries its mark inside the union.
        options = [arg for arg in get_args(annotation) if arg is not type(None)]
        if len(options) == 1:
            annotation = options[0]
    refs = [m for m in getattr(annotation, "__metadata__", ()) if isinstance(m, Ref)]
    if refs and isinstance(value, str):
        yield refs[0].kind, value, loc
        return
    annotation = unwrap(annotation)
    if isinstance(value, BaseModel):
        for name, info in type(value).model_fields.items():
            field_refs = [m for m in info.metadata if isinstance(m, Ref)]
            child = getattr(value, name)
            if field_refs and isinstance(child, str):
                yield field_refs[0].kind, child, (*loc, name)
            else:
                yield from references(child, info.annotation, (*loc, name))
    elif isinstance(value, list) and get_origin(annotation) is list:
        for index, item in enumerate(value):
            yield from references(item, get_args(annotation)[0], (*loc, index))
    elif isinstance(value, dict) and get_origin(annotation) is dict:
        key_type, value_type = get_args(annotation)
        for key, item in value.items():
            yield from references(key, key_type, (*loc, key))
            yield from references(item, value_type, (*loc, key))


def answer_word(validation: Validation, question: str) -> str:
    """A validation's answer to an evidence question ("yes", "partial", ...), or "unanswered"
    where the record gives none: the caveat rules, the checklist and its wording all read it."""
    answer = validation.evidence.get(question)
    return answer.answer if answer is not None else "unanswered"
