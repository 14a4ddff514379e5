"""The JSON API, version 1: an index, a list and a document per record of each kind, the flat
measurements table, JSON Schemas for every document, and an OpenAPI description of the endpoints.

Each document is built as one of the models in `documents` and dumped from it, so the schemas
published beside the documents are the schemas the documents were made to.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, models_json_schema

from generator.derive import validation as derive
from generator.model.base import Record
from generator.model.links import page_url, record_uri
from generator.model.measurements import Measurement
from generator.model.programs import Program, Suite
from generator.model.providers import Provider
from generator.model.site import Site
from generator.model.sources import Source
from generator.model.validation import Validation, accelerator_noun
from generator.publish.documents import (
    API,
    DOCUMENT_KINDS,
    FEEDS,
    MEASUREMENT_COLUMNS,
    RECORD_DOCUMENTS,
    SCHEMAS,
    VERSION,
    Caveat,
    ConcernCovered,
    Coverage,
    Endpoint,
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
    schema_path,
)

if TYPE_CHECKING:
    from generator.derive.site_facts import SiteFacts

INDEX = f"{API}/index.json"
MEASUREMENTS = f"{API}/measurements.json"

__all__ = [
    "API",
    "FEEDS",
    "MEASUREMENT_COLUMNS",
    "Documents",
    "endpoints",
    "examples",
    "measurement_rows",
    "open_because",
]


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


def _json(value: dict[str, Any]) -> bytes:
    return (json.dumps(value, indent=2, sort_keys=True) + "\n").encode("utf-8")


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
            review_stale=d.review_stale,
            review_due=derive.review_due(validation, self.policy),
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


@dataclass(frozen=True)
class Example:
    """A request a script makes, and the start of what it gets back."""

    path: str
    what: str
    excerpt: str


EXCERPT_LINES = 16


def quoted(site: Site) -> list[tuple[str, str]]:
    """The requests the data page shows, each with what it gets: their paths are the data files
    `examples` reads."""
    chosen = [(INDEX, "The index of every endpoint and record id.")]
    for kind, ids, what in (
        ("providers", site.providers, "A provider with its results and their measurements."),
        ("validations", site.validations, "One validation, its record and its derived facts."),
    ):
        if ids:  # the first document by its path, as the files list them
            chosen.append((min(f"{API}/{kind}/{record_id}.json" for record_id in ids), what))
    chosen += [
        (MEASUREMENTS, "Every measured value as one table."),
        (f"{FEEDS}/validations.atom", "The Atom feed of every validation."),
        (f"{FEEDS}/calendar.ics", "The calendar of validity ends and review dates."),
    ]  # fmt: skip
    return chosen


def examples(site: Site, files: Mapping[str, bytes]) -> list[Example]:
    """Requests the data page shows, each with the first lines of the real response, read from
    `files`: every data file, or those `quoted` names."""
    shown = []
    for path, what in quoted(site):
        lines = files[path].decode("utf-8").splitlines()
        more = ["…"] if len(lines) > EXCERPT_LINES else []
        shown.append(Example(path, what, "\n".join(lines[:EXCERPT_LINES] + more)))
    return shown


def endpoints() -> list[Endpoint]:
    """Every endpoint the API serves, with its media type and, for JSON, its schema."""
    json_type = "application/json"
    found = [
        Endpoint(path=INDEX, media_type=json_type, schema=schema_path("index"),
                 description="This index: every endpoint, and each kind's record ids."),
        Endpoint(path=f"{API}/validations.json", media_type=json_type,
                 schema=schema_path("validations"),
                 description="Every validation, its record and its derived facts."),
        Endpoint(path=MEASUREMENTS, media_type=json_type,
                 schema=schema_path("measurements"),
                 description="Every measured value, one row per validation, system and "
                 "benchmark; also downloads/measurements.csv."),
    ]  # fmt: skip
    for kind in DOCUMENT_KINDS:
        found.append(
            Endpoint(
                path=f"{API}/{kind}/{{id}}.json",
                media_type=json_type,
                schema=schema_path(f"{kind}-item"),
                description=f"One record of {kind}: its fields under record, what the site "
                "derives from it under derived.",
            )
        )
    atom = "application/atom+xml"
    found += [
        Endpoint(path=f"{FEEDS}/validations.atom", media_type=atom, schema=None,
                 description="Atom feed: new and reviewed validations, those entering their "
                 "expiry warning window, and those expired."),
        Endpoint(path=f"{FEEDS}/providers/{{id}}.atom", media_type=atom, schema=None,
                 description="The same feed for one provider's validations."),
        Endpoint(path=f"{FEEDS}/calendar.ics", media_type="text/calendar", schema=None,
                 description="iCalendar: each validity end that can be computed, and each "
                 "validation's review due date."),
    ]  # fmt: skip
    return found


# Where two models share a class name (a record's Caveat and the API document's), pydantic tells
# their schemas apart by module path. Those names are published, in the schemas and the OpenAPI
# description, so they are fixed here instead of following the package's folders: every module
# of the records is published as generator.model, the one module they were first written in.
RECORD_MODULES = (
    "base",
    "case_studies",
    "checklists",
    "concerns",
    "fields",
    "measurements",
    "programs",
    "providers",
    "sources",
    "validation",
)
PUBLISHED_MODULES = {
    **{f"generator.model.{module}.": "generator.model." for module in RECORD_MODULES},
    "generator.publish.documents.": "generator.documents.",
}


class _PublishedNames(GenerateJsonSchema):
    def normalize_name(self, name: str) -> str:
        for module, published in PUBLISHED_MODULES.items():
            name = name.replace(module, published)
        return super().normalize_name(name)


@cache
def schema_files() -> dict[str, bytes]:
    """The JSON Schemas and the OpenAPI description: made from the models alone, so once a
    process, however often `mkdocs serve` rebuilds."""
    files = {}
    for name, model in SCHEMAS.items():
        schema = model.model_json_schema(
            by_alias=True, mode="serialization", schema_generator=_PublishedNames
        )
        files[schema_path(name)] = (json.dumps(schema, indent=2, sort_keys=True) + "\n").encode()
    text = json.dumps(openapi(), indent=2, sort_keys=True) + "\n"
    return files | {f"{API}/openapi.json": text.encode()}


def openapi() -> dict[str, Any]:
    """An OpenAPI 3.1 description of the endpoints, its schemas generated from the models."""
    _, definitions = models_json_schema(
        [(model, "serialization") for model in SCHEMAS.values()],
        by_alias=True,
        ref_template="#/components/schemas/{model}",
        schema_generator=_PublishedNames,
    )
    components = definitions.get("$defs", {})
    paths: dict[str, Any] = {}
    by_path = {schema_path(name): model for name, model in SCHEMAS.items()}
    for endpoint in endpoints():
        content: dict[str, Any] = {endpoint.media_type: {}}
        if endpoint.schema_path is not None:
            title = by_path[endpoint.schema_path].__name__
            content[endpoint.media_type]["schema"] = {"$ref": f"#/components/schemas/{title}"}
        operation: dict[str, Any] = {
            "summary": endpoint.description,
            "operationId": "get_" + endpoint.path.replace("/", "_").replace(".", "_")
            .replace("{id}", "by_id"),
            "responses": {"200": {"description": endpoint.description, "content": content}},
        }  # fmt: skip
        if "{id}" in endpoint.path:
            operation["parameters"] = [
                {
                    "name": "id",
                    "in": "path",
                    "required": True,
                    "description": "A record's id, as the index lists it.",
                    "schema": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"},
                }
            ]
        paths["/" + endpoint.path] = {"get": operation}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "cloudqual data API",
            "version": str(VERSION),
            "description": "Static JSON documents, feeds and a calendar, served with the site. "
            "Paths are relative to the site's root.",
            "license": {"name": "Apache-2.0", "identifier": "Apache-2.0"},
        },
        "paths": paths,
        "components": {"schemas": components},
    }


def accuracy_reported(measurement: Measurement) -> str | None:
    """An open-division run's reported accuracy as one CSV cell: "ROUGE1 41.6143; ROUGE2 …;
    meets: …; misses: 99% of the FP32 reference"."""
    reported = measurement.accuracy
    if reported is None:
        return None
    parts = [f"{v.metric} {v.value:g}" for v in reported.values]
    parts += [f"meets: {t}" for t in reported.meets]
    parts += [f"misses: {t}" for t in reported.misses]
    return "; ".join(parts)


def measurement_rows(site: Site) -> list[Row]:
    """One row per validation, system and benchmark: every measured value, unrounded, and every
    invalid result, with no value. Measurements without a system keep theirs empty."""
    rows = []
    for validation_id, v in site.validations.items():
        systems = {s.key: s for s in v.systems}
        noun = accelerator_noun(site.platforms.get(v.platform or ""), v)
        base: dict[str, Any] = {
            "validation": validation_id,
            "provider": v.provider,
            "submitter": v.submission.submitter if v.submission else None,
            "cloud": v.submission.cloud if v.submission else None,
            "program": v.program,
            "release": v.program_release,
            "announced": v.announced,
            "accelerator_noun": noun,
        }
        results: list[tuple[Any, dict[str, Any]]] = [
            (m, {"benchmark": m.benchmark, "metric": m.metric, "value": m.value, "unit": m.unit,
                 "valid": True,
                 "first_run": m.runs_started.first if m.runs_started else None,
                 "last_run": m.runs_started.last if m.runs_started else None,
                 "resubmitted_from": m.resubmitted.round if m.resubmitted else None,
                 "scenario": m.scenario, "accuracy_target": m.accuracy_target,
                 "accuracy_reported": accuracy_reported(m),
                 "model_run": m.model_run,
                 "reference_submitter": m.reference.submitter if m.reference else None,
                 "reference_value": m.reference.value if m.reference else None})
            for m in v.measurements
        ]  # fmt: skip
        results += [
            (r, {"benchmark": r.benchmark,
                 "metric": "throughput" if r.scenario else "time to train", "value": None,
                 "unit": "" if r.scenario else "min", "valid": False, "first_run": None,
                 "last_run": None, "resubmitted_from": None, "scenario": r.scenario})
            for r in v.invalid
        ]  # fmt: skip
        for result, fields in results:
            system = systems.get(result.system) if result.system else None
            count = system.accelerator_count if system else None
            rows.append(
                Row(
                    **base,
                    system=result.system,
                    division=system.division if system else None,
                    availability=system.status if system else None,
                    accelerator=system.accelerator if system else None,
                    accelerators=count,
                    gpus=count if noun == "GPU" else None,
                    **fields,
                    source=result.source,
                )
            )
    return rows
