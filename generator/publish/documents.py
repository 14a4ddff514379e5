"""The documents of the JSON API, version 1, as models: the API publishes each document dumped
from one of these, and its JSON Schema generated from the same model.

Every document carries the API version, the build's `as_of` date and the sources it rests on. A
record's own fields sit under `record`, exactly as a contributor wrote them; what the site computes
sits under `derived`, so a script can tell the two apart.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from generator.model.base import Record
from generator.model.checklists import Checklist, Question
from generator.model.concerns import Concern, CoverWord
from generator.model.kinds import KINDS
from generator.model.programs import Program, Suite
from generator.model.providers import Provider
from generator.model.sources import Source
from generator.model.validation import Validation

API = "api/v1"
VERSION = 1
# The kinds with a document per record. Analyses are not among them: an analysis is part of the
# validation it adds to, and is published in that validation's record.
DOCUMENT_KINDS = tuple(kind for kind in KINDS if kind != "analyses")
FEEDS = "feeds"


class Document(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    version: Literal[1] = Field(description="The API version; a breaking change is api/v2/.")
    as_of: date = Field(description="The date the build judged validity and review on.")
    sources: list[Source] = Field(description="Every source the document's facts rest on.")


class Row(BaseModel):
    """One row of the measurements table: a validation's value on one system and benchmark, or
    an invalid result, with no value."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    validation: str
    provider: str
    submitter: str | None = Field(
        description="The submitter as the program publishes it, where it names one."
    )
    cloud: str | None = Field(
        description="Whose cloud the result ran on, as the submission says: submitter, joint, "
        "named or not-named; null for a result that is not a submission."
    )
    program: str
    release: str | None
    announced: date | None
    system: str | None
    accelerator: str | None
    accelerators: int | None = Field(description="How many accelerators the system has.")
    accelerator_noun: str = Field(description="What one is called: GPU, TPU chip, accelerator.")
    gpus: int | None = Field(
        description="Version 1's name for accelerators, kept for its readers: the same count "
        "where the accelerators are GPUs, and null for any other kind."
    )
    benchmark: str | None
    metric: str
    value: float | None = Field(description="Unrounded; null where the result is not valid.")
    unit: str
    valid: bool
    first_run: date | None = Field(description="When the first run started, in UTC.")
    last_run: date | None = Field(description="When the last run started, in UTC.")
    resubmitted_from: str | None = Field(
        description="The earlier round whose result this is, submitted again: it measures "
        "nothing new. Null for a new result."
    )
    scenario: str | None = Field(
        default=None, description="The MLPerf Inference scenario; null for a timed result."
    )
    accuracy_target: str | None = Field(
        default=None,
        description="The accuracy the result had to reach, where stated; null in the open "
        "division, which holds a result to none.",
    )
    division: str | None = Field(
        default=None, description="closed or open, as the system is published; null if none."
    )
    availability: str | None = Field(
        default=None,
        description="The system's availability as published (available, preview, Available "
        "cloud, …); null if the result names no system.",
    )
    accuracy_reported: str | None = Field(
        default=None,
        description="What an open-division run's logs report of its accuracy, metric by metric "
        "('ROUGE1 41.6143; ROUGE2 19.5677'), and the closed division's targets it meets or misses.",
    )
    model_run: str | None = Field(
        default=None,
        description="The model the submitter ran in the benchmark's place (open division).",
    )
    reference_submitter: str | None = Field(
        default=None, description="The chip maker whose own result this is set against."
    )
    reference_value: float | None = Field(
        default=None, description="The chip maker's own value, in the same unit; unrounded."
    )
    source: str


class Caveat(BaseModel):
    """A caveat derived by rule, with where its fact and its reasoning are stated."""

    rule: str
    text: str
    source: str
    grade: str
    reasoning_source: str | None
    reasoning_grade: str | None


class OpenCheck(BaseModel):
    """A trial-checklist item this result leaves open, worded for it, and why it is open."""

    item: str
    check: str
    open_because: str


class EvidenceAnswer(BaseModel):
    question: str
    asks: str
    answer: str = Field(
        description="The record's answer; 'unanswered' where it gives none, 'not-applicable' "
        "where the question does not apply to the result's program."
    )
    detail: str | None
    source: str | None


class Coverage(BaseModel):
    reported_models: int | None
    reported_configurations: int | None
    reported_precisions: list[str]
    full_grid: int | None
    grid_exceeds_reported: bool


class ValidationDerived(BaseModel):
    likely_suite: str | None
    suite_basis: str
    full_grid: int | None
    coverage: Coverage
    scale: str | None
    validity_end: date | None
    validity_status: str
    validity_words: str = Field(
        description="Until when the result is valid, or why that cannot be said, as its page "
        "says it: the end date and the program's period, or the program's silence, or the "
        "missing announcement date."
    )
    review_stale: bool
    review_due: date = Field(description="Last reviewed plus the review window.")
    standard_caveats: list[Caveat]
    open_checklist_items: dict[str, list[str]] = Field(description="Item ids, by checklist.")
    open_checks: dict[str, list[OpenCheck]] = Field(description="The same items, worded.")
    evidence_answers: list[EvidenceAnswer] = Field(
        description="Every evidence question, with the record's answer, 'unanswered' or "
        "'not-applicable'."
    )
    evidence_words: str = Field(
        description="What the evidence establishes, in the compare page's words: whether a "
        "source states the outcome and the scale, then how many questions are published, in "
        "part, not published, answered no and not stated."
    )


class Result(BaseModel):
    """A validation as a provider's, program's or platform's document lists it."""

    id: str
    title: str
    document: str
    page: str
    provider: str
    program: str
    program_release: str | None
    platform: str | None
    chip: str | None
    announced: date | None
    outcome: str
    scale: str | None
    validity_end: date | None
    validity_status: str
    measurements: list[Row]


class ValidationEntry(BaseModel):
    id: str
    title: str
    page: str
    file: str | None
    record: Validation
    derived: ValidationDerived


class ValidationDocument(Document, ValidationEntry):
    kind: Literal["validation"]


class ResultsDerived(BaseModel):
    results: list[Result] = Field(description="Newest first by announced date; undated last.")


class ProgramDerived(ResultsDerived):
    suites: list[str] = Field(description="Ids of the program's suites, by chip.")


class ConcernCovered(BaseModel):
    concern: str = Field(description="The concern's id.")
    best: CoverWord | None = Field(
        description="The strongest answer of a result that covers it; null where none does."
    )
    results: list[str] = Field(
        description="Ids of the results that cover it, newest first: their program checks it, "
        "in the version of its words in force when the result was announced."
    )
    not_counted: list[str] = Field(
        description="Ids of results whose program would cover it but for their date (undated, "
        "or older than the version of the program's words quoted) or their division (wholly "
        "open, where the answer holds for the closed division only)."
    )


class ProviderDerived(ResultsDerived):
    concerns: list[ConcernCovered] = Field(
        description="Each buyer's concern against the provider's results, in the concerns' order."
    )


class NoDerived(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _record_document(name: str, kind: str, record: type[Record], derived: type[BaseModel]) -> Any:
    fields: dict[str, Any] = {
        "kind": (Literal[kind], ...),
        "id": (str, ...),
        "title": (str, ...),
        "page": (str | None, Field(description="Its page on the site, if it has one.")),
        "file": (str | None, Field(description="Its content file in the repository.")),
        "record": (record, ...),
        "derived": (derived, ...),
    }
    return create_model(name, __base__=Document, **fields)


RECORD_DOCUMENTS: dict[str, Any] = {
    "validations": ValidationDocument,
    "providers": _record_document("ProviderDocument", "provider", Provider, ProviderDerived),
    "programs": _record_document("ProgramDocument", "program", Program, ProgramDerived),
    "platforms": _record_document(
        "PlatformDocument", "platform", KINDS["platforms"], ResultsDerived
    ),
    "suites": _record_document("SuiteDocument", "suite", Suite, NoDerived),
    "sources": _record_document("SourceDocument", "source", Source, NoDerived),
    "case-studies": _record_document(
        "CaseStudyDocument", "case-study", KINDS["case-studies"], NoDerived
    ),
    "checklists": _record_document("ChecklistDocument", "checklist", Checklist, NoDerived),
    "questions": _record_document("QuestionDocument", "question", Question, NoDerived),
    "concerns": _record_document("ConcernDocument", "concern", Concern, NoDerived),
}


class ValidationsDocument(Document):
    validations: list[ValidationEntry]


class MeasurementsDocument(Document):
    columns: list[str]
    measurements: list[Row]


class Endpoint(BaseModel):
    path: str = Field(description="Relative to the site's root; {id} stands for a record's id.")
    media_type: str
    description: str
    schema_path: str | None = Field(alias="schema", description="Its JSON Schema, if JSON.")

    model_config = ConfigDict(populate_by_name=True)


class KindIndex(BaseModel):
    document: str
    ids: list[str]


class IndexDocument(Document):
    endpoints: list[Endpoint]
    records: dict[str, KindIndex] = Field(description="Each kind's document path and its ids.")


MEASUREMENT_COLUMNS = tuple(Row.model_fields)
SCHEMAS: dict[str, type[BaseModel]] = {
    "index": IndexDocument,
    "validations": ValidationsDocument,
    "measurements": MeasurementsDocument,
    **{f"{kind}-item": model for kind, model in RECORD_DOCUMENTS.items()},
}


def schema_path(name: str) -> str:
    return f"{API}/schemas/{name}.schema.json"


def dump(document: BaseModel) -> bytes:
    """A document as published: stable key order, so equal content gives equal bytes."""
    text = json.dumps(document.model_dump(mode="json", by_alias=True), indent=2, sort_keys=True)
    return (text + "\n").encode("utf-8")
