"""Statements: graded, sourced, and not-stated where the sources are silent."""

from __future__ import annotations

from generator.checks.rules.context import Context
from generator.checks.rules.walk import SILENCE, statements
from generator.load.document import Path_
from generator.model.base import Record
from generator.model.grades import UNESTABLISHED


def check_statements(ctx: Context, kind: str, record: Record) -> None:
    for statement, loc in statements(record):
        if statement.grade == "not-established" and statement.reason is None:
            ctx.report(
                kind,
                record.id,
                (*loc, "grade"),
                "expected a reason beside grade not-established, found none",
            )
        if statement.grade == "not-published" and statement.reason is None:
            ctx.report(
                kind,
                record.id,
                (*loc, "grade"),
                "expected a reason beside grade not-published saying what shows that the "
                "figure exists, found none (grade it not-stated if no source says it exists)",
            )
        if statement.grade == "not-published" and statement.reason is not None:
            check_not_silent(ctx, kind, record.id, (*loc, "reason"), statement.reason)
        if statement.grade not in UNESTABLISHED and statement.reason is not None:
            ctx.report(
                kind,
                record.id,
                (*loc, "reason"),
                "expected a reason only on a not-established, not-published or not-stated "
                f"statement, found one on grade {statement.grade}; cite the source instead",
            )


def check_not_silent(ctx: Context, kind: str, record_id: str, loc: Path_, text: str) -> None:
    """A not-published figure exists: its reason may not say that the sources are silent."""
    silent = SILENCE.search(text)
    if silent is not None:
        ctx.report(
            kind,
            record_id,
            loc,
            "expected what shows that the figure exists, as not-published means, found "
            f"{silent[0]!r}, which says only that the sources are silent: use not-stated",
        )
