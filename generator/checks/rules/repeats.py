"""A result states each claim once, and gives each figure once: a second copy of either reads
as two facts on its page, while a comparison keyed by the text, or by what the figure is of,
would see one and say nothing of the other."""

from __future__ import annotations

from generator.checks.rules.context import Context
from generator.derive.provenance import workload_words
from generator.model.validation import Validation


def check_repeats(ctx: Context, validation: Validation) -> None:
    claims: dict[str, int] = {}
    for index, claim in enumerate(validation.claims):
        text = " ".join(claim.text.split())
        if text in claims:
            ctx.report(
                "validations",
                validation.id,
                ("claims", index, "text"),
                f"expected each claim once, found the text of claims.{claims[text]} again: "
                "edit that one instead",
            )
        claims.setdefault(text, index)
    figures: dict[tuple[str | None, ...], int] = {}
    for index, m in enumerate(validation.measurements):
        if m.system is not None and m.benchmark is not None:
            continue  # an imported figure: `systems.check_systems` holds it to one per result
        key = (workload_words(m), m.benchmark, m.scenario, m.system, m.metric)
        if key in figures:
            what = ", ".join(part for part in key if part)
            ctx.report(
                "validations",
                validation.id,
                ("measurements", index, "workload"),
                f"expected one figure per workload, benchmark, scenario, system and metric, "
                f"found {what!r} again (measurements.{figures[key]}): edit that one instead",
            )
        figures.setdefault(key, index)
