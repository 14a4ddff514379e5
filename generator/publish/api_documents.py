"""Every document of the JSON API for one build (`Documents`): an index, a list and a document
per record of each kind, and the flat measurements table, beside the schemas `api` makes.

Each document is built as one of the models in `documents` and dumped from it, so the schemas
published beside the documents are the schemas the documents were made to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from generator.derive import page_words
from generator.derive import validation as derive
from generator.derive.validity import review_due
from generator.model.base import Record
from generator.model.links import page_url, record_uri
from generator.model.programs import Program, Suite
from generator.model.providers import Provider
from generator.model.site import Site
from generator.model.sources import Source
from generator.model.validation import Validation
from generator.publish.api import INDEX, MEASUREMENTS, endpoints, schema_files
from generator.publish.documents import (
    API,
    DOCUMENT_KINDS,
    MEASUREMENT_COLUMNS,
    RECORD_DOCUMENTS,
    VERSION,
    Caveat,
    ConcernCovered,
    Coverage,
    EvidenceAnswer,
    IndexDocument,
    KindIndex,
    MeasurementsDocument,
    NoDerived,
    OpenCheck,
    ProgramDerived,
    ProviderDerived,
    Result,
    ResultsDerived,
    Row,
    ValidationDerived,
    ValidationDocument,
    ValidationEntry,
    ValidationsDocument,
    dump,
)
from generator.publish.measurement_table import measurement_rows

if TYPE_CHECKING:
    from generator.derive.site_facts import SiteFacts


def open_because(item: derive.OpenItem) -> str:
    """Why an item is open, as a cell or a parenthesis holds it: a clause, without the closing
    period a page's sentence has."""
    return item.reason.removesuffix(".")


def title_of(kind: str, record: Record, titles: dict[str, str]) -> str:
    """What a record is called: a validation's derived title, else its own name or title."""
    if kind == "validations":
        return titles[record.id]
    for name in ("name", "title", "question", "concern"):
        value = getattr(record, name, None)
        if isinstance(value, str):
            return value
    if isinstance(record, Suite):
        return f"{record.chip} suite at {record.release}"
    return record.id


class Documents:
    """Every API document of one build, from the checked site and its derived facts."""

    def __init__(self, site: Site, facts: SiteFacts, *, directory_urls: bool) -> None:
        self.site = site
        self.facts = facts
        self.derived = facts.derived
        self.titles = facts.titles
        self.policy = facts.policy
        self.directory_urls = directory_urls
        self.rows = measurement_rows(site)
        self.rows_of: dict[str, list[Row]] = {}
        for row in self.rows:
            self.rows_of.setdefault(row.validation, []).append(row)

    def page(self, kind: str, record_id: str) -> str | None:
        if kind not in ("validations", "providers", "programs", "platforms"):
            return None
        return page_url(record_uri(kind, record_id), self.directory_urls)

    def sources(self, *records: Record, extra: tuple[str, ...] = ()) -> list[Source]:
        return derive.cited_sources(self.site.sources, *records, extra=extra)

    def envelope(self, sources: list[Source]) -> dict[str, Any]:
        return {"version": VERSION, "as_of": self.policy.as_of, "sources": sources}

    def validation_derived(self, validation: Validation) -> ValidationDerived:
        d = self.derived[validation.id]
        c = d.coverage
        return ValidationDerived(
            likely_suite=d.reconciliation.suite.id if d.reconciliation.suite else None,
            suite_basis=d.reconciliation.basis,
            full_grid=c.full_grid,
            coverage=Coverage.model_validate(c, from_attributes=True),
            scale=d.scale,
            validity_end=d.validity_end,
            validity_status=d.validity_status,
            validity_words="".join(
                part.text
                for part in page_words.validity(
                    d.validity_end, self.site.programs[validation.program]
                )
            ),
            review_stale=d.review_stale,
            review_due=review_due(validation, self.policy),
            standard_caveats=[
                Caveat.model_validate(caveat, from_attributes=True) for caveat in d.standard_caveats
            ],
            open_checklist_items={
                checklist: [item.item.id for item in items]
                for checklist, items in d.open_items.items()
            },
            open_checks={
                checklist: [
                    OpenCheck(
                        item=item.item.id,
                        check=item.wording,
                        open_because=open_because(item),
                    )
                    for item in items
                ]
                for checklist, items in d.open_items.items()
            },
            evidence_answers=[
                EvidenceAnswer(
                    question=a.question.id,
                    asks=a.question.question,
                    answer=a.word,
                    detail=a.answer.detail if a.answer else None,
                    source=a.answer.source if a.answer else None,
                )
                for a in d.answers
            ],
            evidence_words=self.facts.rows[validation.id].evidence.short(),
        )

    def validation_entry(self, validation: Validation) -> ValidationEntry:
        return ValidationEntry(
            id=validation.id,
            title=self.titles[validation.id],
            page=self.page("validations", validation.id) or "",
            file=self.site.file_of("validations", validation.id),
            record=validation,
            derived=self.validation_derived(validation),
        )

    def validation_sources(self, validation: Validation) -> list[Source]:
        return self.sources(validation, extra=derive.caveat_sources(self.derived[validation.id]))

    def result(self, validation: Validation) -> Result:
        d = self.derived[validation.id]
        return Result(
            id=validation.id,
            title=self.titles[validation.id],
            document=f"{API}/validations/{validation.id}.json",
            page=self.page("validations", validation.id) or "",
            provider=validation.provider,
            program=validation.program,
            program_release=validation.program_release,
            platform=validation.platform,
            chip=validation.chip,
            announced=validation.announced,
            outcome=validation.outcome.result,
            scale=d.scale,
            validity_end=d.validity_end,
            validity_status=d.validity_status,
            measurements=self.rows_of.get(validation.id, []),
        )

    def results(self, validations: list[Validation]) -> tuple[list[Result], list[str]]:
        """Each of `validations` as a result, and the sources their measurements cite."""
        results = [self.result(v) for v in validations]
        return results, [row.source for r in results for row in r.measurements]

    def record_document(self, kind: str, record: Record) -> BaseModel:
        if isinstance(record, Validation):
            return ValidationDocument(
                kind="validation",
                **self.validation_entry(record).model_dump(),
                **self.envelope(self.validation_sources(record)),
            )
        derived: BaseModel = NoDerived()
        cited: list[str] = []
        if isinstance(record, Provider):
            results, cited = self.results(self.facts.by_provider[record.id])
            derived = ProviderDerived(
                results=results,
                concerns=[
                    ConcernCovered(
                        concern=c.concern.id,
                        best=c.best,
                        results=[x.validation.id for x in c.covering],
                        not_counted=[x.validation.id for x, _ in c.not_counted],
                    )
                    for c in self.facts.concerns[record.id]
                ],
            )
        elif isinstance(record, Program):
            results, cited = self.results(self.facts.by_program[record.id])
            suites = [s.id for s in self.facts.suites[record.id]]
            derived = ProgramDerived(results=results, suites=suites)
        elif kind == "platforms":
            results, cited = self.results(self.facts.by_platform[record.id])
            derived = ResultsDerived(results=results)
        model = RECORD_DOCUMENTS[kind]
        return model(  # type: ignore[no-any-return]
            kind=model.model_fields["kind"].annotation.__args__[0],
            id=record.id,
            title=title_of(kind, record, self.titles),
            page=self.page(kind, record.id),
            file=self.site.file_of(kind, record.id),
            record=record,
            derived=derived,
            **self.envelope(self.sources(record, extra=tuple(cited))),
        )

    def records(self, kind: str) -> dict[str, Record]:
        return getattr(self.site, kind.replace("-", "_"))  # type: ignore[no-any-return]

    def files(self) -> dict[str, bytes]:
        files: dict[str, bytes] = {}
        for kind in DOCUMENT_KINDS:
            for record_id, record in sorted(self.records(kind).items()):
                files[f"{API}/{kind}/{record_id}.json"] = dump(self.record_document(kind, record))
        validations = [self.site.validations[i] for i in sorted(self.site.validations)]
        files[f"{API}/validations.json"] = dump(
            ValidationsDocument(
                validations=[self.validation_entry(v) for v in validations],
                **self.envelope(
                    self.sources(*validations, extra=tuple(
                        s for v in validations for s in derive.caveat_sources(self.derived[v.id])
                    ))
                ),
            )
        )  # fmt: skip
        files[MEASUREMENTS] = dump(self.measurements())
        files[INDEX] = dump(self.index())
        return files | schema_files()

    def file(self, path: str) -> bytes:
        """One of the documents `files` makes, made alone: the index, the measurements, or a
        record's document."""
        if path == INDEX:
            return dump(self.index())
        if path == MEASUREMENTS:
            return dump(self.measurements())
        kind, _, name = path.removeprefix(f"{API}/").partition("/")
        record = self.records(kind)[name.removesuffix(".json")]
        return dump(self.record_document(kind, record))

    def measurements(self) -> MeasurementsDocument:
        return MeasurementsDocument(
            columns=list(MEASUREMENT_COLUMNS),
            measurements=self.rows,
            **self.envelope(self.sources(extra=tuple(row.source for row in self.rows))),
        )

    def index(self) -> IndexDocument:
        return IndexDocument(
            endpoints=endpoints(),
            records={
                kind: KindIndex(
                    document=f"{API}/{kind}/{{id}}.json", ids=sorted(self.records(kind))
                )
                for kind in DOCUMENT_KINDS
            },
            **self.envelope([]),
        )
