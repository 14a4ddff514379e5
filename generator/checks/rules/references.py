"""Every reference names a record that exists."""

from __future__ import annotations

from generator.checks.rules.context import Context
from generator.checks.schema import suggest
from generator.model.base import Record
from generator.model.references import references


def check_references(ctx: Context, kind: str, record: Record) -> None:
    for target_kind, target_id, loc in references(record, type(record)):
        known = ctx.present.get(target_kind, set())
        if target_id not in known:
            ctx.report(
                kind,
                record.id,
                loc,
                f"expected the id of a record in content/"
                f"{target_kind}/, found {target_id!r}" + suggest(target_id, sorted(known)),
                key=loc[-1] == target_id,
            )
