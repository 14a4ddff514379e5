"""A suite says what it holds: its workloads, or the counts its source states."""

from __future__ import annotations

from generator.checks.rules.context import Context
from generator.model.programs import Suite


def check_suite_contents(ctx: Context, suite: Suite) -> None:
    if suite.workloads is None and suite.stated_counts is None:
        ctx.report(
            "suites", suite.id, ("workloads",), "expected workloads or stated_counts, found neither"
        )
