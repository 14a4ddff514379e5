"""Every cloud's figures side by side, by chip: one line per measured figure of every result on
the chip, with what it was measured under, the accelerators it ran on, its share of the chip
maker's own result where the program published one, and its round, date and age. "For Llama 2
70B on B200, which cloud is closest to NVIDIA's own?" is then one page and one filter, never a
dozen result pages.

Figures are set beside each other only as what they are: each line names what ran (an
open-division stand-in model says so, `measured_as`), what it was measured under
(`served_words`: scenario, accuracy, division, availability) and carries its own unit, so a time
and a rate never read as one column's meaning.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date

from generator.derive.provenance import (
    FigureRow,
    lower_is_better,
    measured_as,
    share,
)
from generator.derive.validation import Derived, measurement_count
from generator.english import age_words
from generator.model.validation import Validation


@dataclass(frozen=True)
class FigureLine:
    """One measured figure of one result, as a chip's figures page shows it."""

    validation: Validation
    figure: FigureRow  # the result page's own wording of it: value, count, scenario, repeat
    provider: str  # who the result is by, as every table names it
    # The provider the site files the result under, by name: what the page's filter groups by,
    # so "Lambda" also picks "Lambda (its description names no cloud)", as Lambda's page lists it.
    filed_under: str
    program: str  # "MLPerf Inference v5.1"
    workload: str  # what ran, and "(open division)" where it is (`measured_as`)
    under: str  # "Server, 99% of the FP32 reference; closed division, available", or the metric
    count: int | None  # the accelerators it ran on; None where no source states it
    share: float | None  # of the maker's own result: above 1 is better than the maker's
    share_words: str  # "101% of NVIDIA's", or why there is no share
    age_days: int | None  # the result's age on the build's as-of date
    age: str  # "3 months", or "undated"
    best: float  # the sort key within one workload and scenario: the better figure first


@dataclass(frozen=True)
class ChipFigures:
    chip: str
    slug: str
    lines: list[FigureLine]
    providers: int  # how many providers' results the lines are of
    newest: date | None  # the newest dated result's announcement

    @property
    def size(self) -> int:
        return len(self.lines)


def _share_words(line_share: float | None, figure: FigureRow) -> str:
    m = figure.measurement
    if line_share is not None and m.reference is not None:
        speed = "the speed of " if lower_is_better(m) else ""
        return f"{line_share:.0%} of {speed}{m.reference.submitter}'s own"
    if figure.system is not None and figure.system.division == "open":
        return "none: open division, held to no target"
    return "none published for this figure"


def chip_figures(
    validations: list[Validation],
    derived: dict[str, Derived],
    provider_names: dict[str, str],
    filed_under: dict[str, str],
    program_labels: dict[str, str],
    slugs: dict[str, str],
    as_of: date,
) -> list[ChipFigures]:
    """Every chip's figures: each of `validations` on a chip (by its reconciled chip), each of
    its figures a line; ordered by workload, what it was measured under and unit, the better
    figure first. `provider_names` and `program_labels` are each result's, as tables name them;
    `filed_under` the name of the provider each is filed under; `slugs` each chip's page name."""
    by_chip: dict[str, list[FigureLine]] = defaultdict(list)
    for v in validations:
        chip = derived[v.id].reconciliation.chip
        if chip is None or chip not in slugs:
            continue
        age = (as_of - v.announced).days if v.announced is not None else None
        for figure in derived[v.id].figures:
            m = figure.measurement
            ratio = share(m)
            by_chip[chip].append(
                FigureLine(
                    validation=v,
                    figure=figure,
                    provider=provider_names[v.id],
                    filed_under=filed_under[v.id],
                    program=program_labels[v.id],
                    workload=measured_as(m, figure.system),
                    under=figure.scenario or m.metric,
                    count=measurement_count(v, m),
                    share=ratio,
                    share_words=_share_words(ratio, figure),
                    age_days=age,
                    age=age_words(age),
                    best=m.value if lower_is_better(m) else -m.value,
                )
            )
    found = []
    for chip in sorted(by_chip):
        lines = sorted(
            by_chip[chip],
            key=lambda x: (x.workload, x.under, x.figure.measurement.unit, x.best, x.provider),
        )
        dated = [x.validation.announced for x in lines if x.validation.announced is not None]
        providers = len({x.validation.provider for x in lines})
        found.append(ChipFigures(chip, slugs[chip], lines, providers, max(dated, default=None)))
    return found
