"""The JSON API, version 1, as a script meets it: where each document is served (`endpoints`),
the JSON Schemas and the OpenAPI description that say what each holds, and the requests the data
page shows with the start of their responses (`examples`).

The documents themselves are made in `api_documents`, each as one of the models in `documents`,
and the schemas here are generated from the same models, so the schemas published beside the
documents are the schemas the documents were made to.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic.json_schema import GenerateJsonSchema, models_json_schema

from generator.model.site import Site
from generator.publish.documents import (
    API,
    DOCUMENT_KINDS,
    FEEDS,
    MEASUREMENT_COLUMNS,
    SCHEMAS,
    VERSION,
    Endpoint,
    schema_path,
)

INDEX = f"{API}/index.json"
MEASUREMENTS = f"{API}/measurements.json"

__all__ = [
    "API",
    "FEEDS",
    "MEASUREMENT_COLUMNS",
    "endpoints",
    "examples",
]


def _json(value: dict[str, Any]) -> bytes:
    return (json.dumps(value, indent=2, sort_keys=True) + "\n").encode("utf-8")


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
