"""A source that reports others' words (press, a third party) is never a provider's or a program
owner's own statement."""

from __future__ import annotations

from generator.checks.rules.context import Context
from generator.model.grades import REPORTING_KINDS
from generator.model.sources import Source


def check_source_roles(ctx: Context, source: Source) -> None:
    for role in ("provider", "program"):
        if source.kind in REPORTING_KINDS and getattr(source, role) is not None:
            ctx.report(
                "sources",
                source.id,
                (role,),
                f"expected no {role} on a source of kind {source.kind}, found "
                f"{getattr(source, role)!r}: {'an' if source.kind[0] in 'aeiou' else 'a'} "
                f"{source.kind} reports others' words, so it "
                "is never a provider's or program owner's own statement",
            )
