"""The rules that span fields and records, one small module each, registered here in the order
they run; each runs once every record has passed the schema, and reports through its `Context`.

A rule for every record takes the record's kind and the record; a rule for one kind takes the
record; a rule for the whole site takes only the context.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generator.checks.rules import (
    analysis,
    checklist,
    concerns,
    counts,
    dating,
    grades,
    outputs,
    references,
    repeats,
    sources,
    statements,
    systems,
    unique_ids,
    validation,
)
from generator.checks.rules.context import Context
from generator.model.base import Record
from generator.problems import Problem

EVERY_RECORD: tuple[Callable[[Context, str, Record], None], ...] = (
    references.check_references,
    statements.check_statements,
    grades.check_grades,
    unique_ids.check_unique_ids,
)
# By kind, in order; "site" rules read every record at once.
BY_KIND: tuple[tuple[str, tuple[Callable[..., None], ...]], ...] = (
    (
        "validations",
        (
            validation.check_validation,
            repeats.check_repeats,
            systems.check_systems,
            dating.check_dating,
            dating.check_progress,
        ),
    ),
    ("analyses", (analysis.check_analysis,)),
    ("suites", (counts.check_suite_contents,)),
    ("checklists", (checklist.check_checklist,)),
    ("concerns", (concerns.check_concern,)),
    ("site", (outputs.check_outputs,)),
    ("sources", (sources.check_source_roles,)),
)


def run(ctx: Context) -> list[Problem]:
    """Every rule, in order, over every record it applies to."""
    for kind, by_id in ctx.records.items():
        for record in by_id.values():
            for rule in EVERY_RECORD:
                rule(ctx, kind, record)
    for kind, rules in BY_KIND:
        for rule in rules:
            if kind == "site":
                rule(ctx)
        records: dict[str, Any] = ctx.records.get(kind, {}) if kind != "site" else {}
        for record in records.values():
            for rule in rules:
                rule(ctx, record)
    return ctx.problems
