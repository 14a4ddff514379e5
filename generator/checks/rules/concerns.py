"""A concern is answered by every program: the side-by-side page has no empty cell, and a
program added to the content is not silently left out of it."""

from __future__ import annotations

from generator.checks.rules.context import Context
from generator.model.concerns import Concern


def check_concern(ctx: Context, concern: Concern) -> None:
    programs = sorted(ctx.present.get("programs", set()))
    missing = [p for p in programs if p not in concern.answers]
    for program in missing:
        ctx.report(
            "concerns",
            concern.id,
            ("answers",),
            f"expected an answer for program {program!r} (checks, in-part or does-not, with "
            "the program's own words quoted and where they are), found none: every program "
            "answers every concern",
        )
