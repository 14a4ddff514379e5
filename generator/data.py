"""Machine-readable output: the versioned JSON API and the trial-checklist downloads.

Raw record fields and derived facts sit under separate keys, `record` and `derived`, so a script can
tell what a contributor wrote from what the site computed.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from .derive import Derived, OpenItem
from .links import page_url, record_uri
from .model import Checklist, Question, json_schemas
from .site import Site

API = "api/v1"
# Spreadsheet programs run a cell that starts with one of these as a formula.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str) -> str:
    """A CSV cell that a spreadsheet shows as text rather than evaluates."""
    return "'" + text if text.startswith(_FORMULA_START) else text


# Why an item with no closing questions is open, by when it applies (`ChecklistItem.applies_when`).
APPLIES_WORDS = {
    "every-validation": "Open for every validation: no published evidence can close it.",
    "energy-claim": "Open for every validation that states an energy source: no published "
    "evidence can close it.",
}


def _because(item: OpenItem, questions: dict[str, Question]) -> str:
    if not item.because:
        return APPLIES_WORDS[item.item.applies_when].rstrip(".")
    return "Open because: " + "; ".join(
        f"{questions[q].question} ({answer})" if q in questions else f"{q} ({answer})"
        for q, answer in item.because
    )


def checklist_markdown(
    title: str,
    checklist: Checklist,
    items: list[OpenItem],
    questions: dict[str, Question],
    source_title: str,
) -> str:
    """The open trial-checklist items as a Markdown list, for a procurement document, with the
    checklist's own guidance and its source."""
    summary = " ".join(checklist.summary.split())
    lines = [f"# Trial checklist: {title}", "", summary, ""]
    for item in items:
        lines.append(f"- [ ] {item.wording} ({_because(item, questions)}.)")
    lines += ["", f"Source: {source_title} ({checklist.grade})."]
    return "\n".join(lines) + "\n"


def csv_text(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A CSV document whose cells a spreadsheet shows as text."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    writer.writerows([_cell(cell) for cell in row] for row in rows)
    return out.getvalue()


def checklist_csv(validation_id: str, items: list[OpenItem], questions: dict[str, Question]) -> str:
    """The open trial-checklist items as CSV: one row per item."""
    rows = [
        (validation_id, item.item.id, item.wording, _because(item, questions)) for item in items
    ]
    return csv_text(("validation", "item", "check", "open_because"), rows)


def _derived_json(derived: Derived) -> dict[str, Any]:
    r = derived.reconciliation
    return {
        "likely_suite": r.suite.id if r.suite else None,
        "suite_basis": r.basis,
        "full_grid": derived.coverage.full_grid,
        "scale": derived.scale,
        "validity_end": derived.validity_end.isoformat() if derived.validity_end else None,
        "validity_status": derived.validity_status,
        "review_stale": derived.review_stale,
        "standard_caveats": [
            {
                "rule": c.rule,
                "text": c.text,
                "source": c.source,
                "grade": c.grade,
                "reasoning_source": c.reasoning_source,
                "reasoning_grade": c.reasoning_grade,
            }
            for c in derived.standard_caveats
        ],
        "open_checklist_items": {
            checklist: [item.item.id for item in items]
            for checklist, items in derived.open_items.items()
        },
    }


MEASUREMENT_COLUMNS = (
    "validation",
    "provider",
    "program",
    "release",
    "system",
    "accelerator",
    "gpus",
    "benchmark",
    "metric",
    "value",
    "unit",
    "valid",
    "source",
)


def measurement_rows(site: Site) -> list[dict[str, Any]]:
    """One row per validation, system and benchmark: every measured value, unrounded, and every
    invalid result, with no value. Measurements without a system keep theirs empty."""
    rows = []
    for validation_id, v in site.validations.items():
        systems = {s.key: s for s in v.systems}
        base = {
            "validation": validation_id,
            "provider": v.provider,
            "program": v.program,
            "release": v.program_release,
        }
        results: list[tuple[Any, dict[str, Any]]] = [
            (m, {"benchmark": m.benchmark, "metric": m.metric, "value": m.value, "unit": m.unit,
                 "valid": True})
            for m in v.measurements
        ]  # fmt: skip
        results += [
            (r, {"benchmark": r.benchmark, "metric": "time to train", "value": None,
                 "unit": "min", "valid": False})
            for r in v.invalid
        ]  # fmt: skip
        for result, fields in results:
            system = systems.get(result.system) if result.system else None
            rows.append(
                {
                    **base,
                    "system": result.system,
                    "accelerator": system.accelerator if system else None,
                    "gpus": system.nodes * system.accelerators_per_node if system else None,
                    **fields,
                    "source": result.source,
                }
            )
    return rows


def _csv_value(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    # repr gives the shortest text that reads back as the same float: nothing is rounded.
    return repr(value) if isinstance(value, float) else str(value)


def build_data(
    site: Site, derived: dict[str, Derived], titles: dict[str, str], *, directory_urls: bool
) -> dict[str, bytes]:
    """Every data file and download, by the path it is served at."""
    files: dict[str, bytes] = {}
    validations = []
    for validation_id in sorted(site.validations):
        validation = site.validations[validation_id]
        validations.append(
            {
                "id": validation_id,
                "title": titles[validation_id],
                "page": page_url(record_uri("validations", validation_id), directory_urls),
                "file": site.file_of("validations", validation_id),
                "record": validation.model_dump(mode="json"),
                "derived": _derived_json(derived[validation_id]),
            }
        )
        for checklist_id, items in derived[validation_id].open_items.items():
            stem = f"downloads/{validation_id}-{checklist_id}"
            checklist = site.checklists[checklist_id]
            markdown = checklist_markdown(
                titles[validation_id],
                checklist,
                items,
                site.questions,
                site.sources[checklist.source].title,
            )
            files[f"{stem}.md"] = markdown.encode("utf-8")
            files[f"{stem}.csv"] = checklist_csv(validation_id, items, site.questions).encode()
    for name, schema in json_schemas().items():
        files[f"schemas/{name}"] = schema.encode("utf-8")
    rows = measurement_rows(site)
    files[f"{API}/measurements.json"] = (
        json.dumps(
            {"version": 1, "columns": list(MEASUREMENT_COLUMNS), "measurements": rows},
            indent=2,
            ensure_ascii=False,
        )
        + "\n"
    ).encode("utf-8")
    files["downloads/measurements.csv"] = csv_text(
        MEASUREMENT_COLUMNS,
        [[_csv_value(row[column]) for column in MEASUREMENT_COLUMNS] for row in rows],
    ).encode("utf-8")
    document = {"version": 1, "validations": validations}
    files[f"{API}/validations.json"] = (
        json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    ).encode("utf-8")
    return files
