"""A suite a result names matches what it reports."""

from __future__ import annotations

from generator.checks.rules.context import Context
from generator.derive.suites import fit, suite_counts
from generator.model.programs import Suite
from generator.model.providers import Platform
from generator.model.validation import Validation


def check_stated_suite(ctx: Context, validation: Validation) -> None:
    """A suite the provider names must be of its program and chip, and hold its counts.

    Counts that exceed a named suite are a contradiction in the record, so they are an error;
    counts that no suite explains, when none is named, are a fact about what was published,
    so the site states them as a caveat instead (see caveats.rules.suite_not_reconciled).
    """
    suite = ctx.records.get("suites", {}).get(validation.stated_suite or "")
    if not isinstance(suite, Suite):
        return
    if suite.program != validation.program:
        ctx.report(
            "validations",
            validation.id,
            ("stated_suite",),
            f"expected a suite of {validation.program}, found one of {suite.program}",
        )
    platform = ctx.records.get("platforms", {}).get(validation.platform or "")
    if isinstance(platform, Platform) and platform.chip != suite.chip:
        ctx.report(
            "validations",
            validation.id,
            ("stated_suite",),
            f"expected a suite for the {platform.chip} chip of {platform.id}, found "
            f"one for {suite.chip}",
        )
    elif validation.chip is not None and validation.chip != suite.chip:
        ctx.report(
            "validations",
            validation.id,
            ("stated_suite",),
            f"expected a suite for the {validation.chip} chip, found one for {suite.chip}",
        )
    counts = suite_counts(suite)
    if fit(validation, counts) == "exceeds":
        scope = validation.scope
        ctx.report(
            "validations",
            validation.id,
            ("scope", "configurations"),
            f"expected at most {counts.models} models and {counts.configurations} "
            f"configurations in {', '.join(counts.precisions)}, as suite {suite.id} "
            f"has, found {scope.models} models and {scope.configurations} "
            f"configurations in {', '.join(scope.precisions)}",
        )
