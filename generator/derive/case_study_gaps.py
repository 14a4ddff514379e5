"""Each case-study finding's gap to the reference, in words and as a chart labels it, against
its program's tolerance."""

from __future__ import annotations

from dataclasses import dataclass

from generator.english import number
from generator.model.case_studies import CaseStudy
from generator.model.case_studies import Finding as CaseFinding
from generator.model.programs import Program


@dataclass(frozen=True)
class Gap:
    """One case-study finding's gap to the reference: the published range, or only its upper
    bound, and how it sits against its program's tolerance."""

    finding: CaseFinding
    words: str  # as a page says it: "3% to 5%", or "within 3%" where only a bound is published
    label: str  # as a chart labels its bar: "3–5%", or "within 3%"
    tolerance_percent: float | None  # the program's tolerance; None where it states none
    beyond_tolerance: bool


def gaps(study: CaseStudy, program: Program) -> list[Gap]:
    """Each finding of a case study, its gap in words, against its program's tolerance."""
    limit = program.tolerance.percent if program.tolerance is not None else None
    found = []
    for finding in study.findings:
        low, high = finding.gap_low_percent, finding.gap_high_percent
        bound = f"within {number(high)}%"
        found.append(
            Gap(
                finding,
                words=bound if low is None else f"{number(low)}% to {number(high)}%",
                label=bound if low is None else f"{number(low)}–{number(high)}%",
                tolerance_percent=limit,
                beyond_tolerance=limit is not None and high > limit,
            )
        )
    return found
