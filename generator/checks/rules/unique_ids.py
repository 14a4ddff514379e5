"""A record's caveats and checklist items each have an id of their own."""

from __future__ import annotations

from generator.checks.rules.context import Context
from generator.checks.rules.walk import duplicate_ids
from generator.model.base import Record


def check_unique_ids(ctx: Context, kind: str, record: Record) -> None:
    for name in ("caveats", "items"):
        for repeated, loc in duplicate_ids(getattr(record, name, []), (name,)):
            ctx.report(kind, record.id, loc, f"expected unique ids, found {repeated!r} twice")
