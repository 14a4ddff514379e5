"""Machine-readable output: the JSON API and feeds (`api`, `feeds`), and the downloads for
spreadsheets and procurement documents: the trial checklists and the measurements as CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING

from generator.changes.history import History
from generator.derive.provenance import FigureRow
from generator.derive.validation import OpenItem
from generator.escape import csv_cell, markdown_download, markdown_literal
from generator.model.checklists import Checklist
from generator.model.links import checklist_download
from generator.model.schemas import json_schemas
from generator.model.site import Site
from generator.publish import api, feeds
from generator.publish.api_documents import Documents, open_because

if TYPE_CHECKING:
    from generator.derive.site_facts import SiteFacts


def checklist_markdown(
    title: str,
    checklist: Checklist,
    items: list[OpenItem],
    source_title: str,
    *,
    as_of: date,
    figures: Sequence[tuple[FigureRow, str]] = (),
) -> str:
    """The open trial-checklist items as a Markdown list, for a procurement document, with the
    checklist's own guidance and its source, the date the items were judged open on, and the
    result's figures to reproduce, each with its source's title."""
    # A tool that renders the download does not sanitize it as the site does: names are
    # escaped as text, and Markdown fields keep their Markdown but lose their HTML.
    summary = markdown_download(" ".join(checklist.summary.split()))
    lines = [f"# Trial checklist: {markdown_literal(title)}", "", summary, ""]
    lines += [f"As of {as_of.isoformat()}: evidence published later may close an item.", ""]
    for item in items:
        because = markdown_download(open_because(item))
        lines.append(f"- [ ] {markdown_download(item.wording)} ({because}.)")
    lines += ["", f"Source: {markdown_literal(source_title)} ({checklist.grade})."]
    if figures:
        lines += ["", "## Figures to reproduce", ""]
        # Plain items: a box marks a checklist item, one the CSV lists too.
        lines += [f"- {_figure_line(f, title)}" for f, title in figures]
    return "\n".join(lines) + "\n"


def _figure_line(figure: FigureRow, source_title: str) -> str:
    """A figure to reproduce, in one line: what ran, under what, on how many, the figure, and
    where it was published."""
    parts = [figure.workload]
    if figure.scenario:
        parts.append(f"({figure.scenario})")
    if figure.count:
        parts.append(f"on {figure.count}")
    text = " ".join(parts) + f": {figure.value}"
    source = markdown_literal(source_title)
    return markdown_literal(text) + f" (source: {source}; {figure.measurement.grade})."


def csv_text(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A CSV document whose cells a spreadsheet shows as text."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    writer.writerows([csv_cell(cell) for cell in row] for row in rows)
    return out.getvalue()


def checklist_csv(validation_id: str, items: list[OpenItem], as_of: date) -> str:
    """The open trial-checklist items as CSV: one row per item, each with the date it was
    judged open on."""
    day = as_of.isoformat()
    rows = [(validation_id, item.item.id, item.wording, open_because(item), day) for item in items]
    return csv_text(("validation", "item", "check", "open_because", "as_of"), rows)


def _csv_value(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    # repr gives the shortest text that reads back as the same float: nothing is rounded.
    return repr(value) if isinstance(value, float) else str(value)


def quoted_data(
    site: Site, facts: SiteFacts, *, directory_urls: bool, site_url: str | None = None
) -> dict[str, bytes]:
    """The data files the data page quotes (api.quoted), made alone and equal to `build_data`'s:
    a single build renders its pages with these, and makes the rest while MkDocs writes them."""
    builder = Documents(site, facts, directory_urls=directory_urls)
    made = {}
    for path, _ in api.quoted(site):
        if path == feeds.SITE_FEED:
            made[path] = feeds.site_feed(builder, site_url)
        elif path == feeds.CALENDAR:
            made[path] = feeds.calendar(builder, site_url)
        else:
            made[path] = builder.file(path)
    return made


def build_data(
    site: Site,
    facts: SiteFacts,
    *,
    directory_urls: bool,
    site_url: str | None = None,
    history: History | None = None,
) -> dict[str, bytes]:
    """Every data file and download, by the path it is served at: the API, the feeds and the
    calendar, the checklist downloads, the record schemas and the measurements as CSV. They
    read the facts `site_facts.derive_site` derived, as the pages do."""
    builder = Documents(site, facts, directory_urls=directory_urls)
    files = builder.files()
    files |= feeds.build_feeds(builder, site_url)
    files[feeds.CHANGELOG] = feeds.changelog(builder, history, site_url)
    for validation_id in sorted(site.validations):
        for checklist_id, items in facts.derived[validation_id].open_items.items():
            checklist = site.checklists[checklist_id]
            markdown = checklist_markdown(
                facts.titles[validation_id],
                checklist,
                items,
                site.sources[checklist.source].title,
                as_of=facts.policy.as_of,
                figures=[
                    (f, site.sources[f.measurement.source].title)
                    for f in facts.derived[validation_id].figures
                ],
            )
            files[checklist_download(validation_id, checklist_id, "md")] = markdown.encode("utf-8")
            files[checklist_download(validation_id, checklist_id, "csv")] = checklist_csv(
                validation_id, items, facts.policy.as_of
            ).encode()
    for name, schema in json_schemas().items():
        files[f"schemas/{name}"] = schema.encode("utf-8")
    files["downloads/measurements.csv"] = csv_text(
        api.MEASUREMENT_COLUMNS,
        [[_csv_value(getattr(row, c)) for c in api.MEASUREMENT_COLUMNS] for row in builder.rows],
    ).encode("utf-8")
    return files
