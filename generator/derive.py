"""Derived facts: everything the site computes from the raw records, and nothing else does.

Contributors write raw facts; these pure functions compute what follows from them. Templates only
show the results. Derived names never reuse a raw field's name.

Computed here:
- `suite_counts`: models, configurations and precisions of a suite's matrix;
- `coverage`: a validation's reported counts against its suite and against the full
  models x precisions grid (8 x 3 = 24 when 13 configurations were reported);
- `validity_end`: the announcement date plus the program's validity period;
- `open_items`: the checklist items a validation leaves open, with the answers that open them;
- `established_claims` / `unestablished_claims`: the split of a validation's graded claims;
- `cited_sources`: every source a record cites, in first-cited order;
- `gaps`: evidence questions a validation does not answer "yes".
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date

from .checks import UNESTABLISHED, references
from .model import (
    Checklist,
    ChecklistItem,
    Program,
    Question,
    Record,
    Statement,
    Suite,
    Validation,
)


@dataclass(frozen=True)
class SuiteCounts:
    models: int
    configurations: int
    precisions: tuple[str, ...]


@dataclass(frozen=True)
class Coverage:
    """A validation's reported breadth, read against its suite and the full grid."""

    reported_models: int | None
    reported_configurations: int | None
    reported_precisions: tuple[str, ...]
    full_grid: int | None  # every reported model in every reported precision
    suite: SuiteCounts | None
    matches_suite: bool | None  # None when there is no suite or no counts to compare


def suite_counts(suite: Suite) -> SuiteCounts:
    """The suite's size: counted from its matrix when published, else as a summary stated it."""
    if suite.workloads is not None:
        precisions = {p for workload in suite.workloads for p in workload.precisions}
        return SuiteCounts(
            models=len(suite.workloads),
            configurations=sum(len(workload.precisions) for workload in suite.workloads),
            precisions=tuple(sorted(precisions)),
        )
    assert suite.stated_counts is not None  # checks.py rejects a suite with neither
    stated = suite.stated_counts
    return SuiteCounts(stated.models, stated.configurations, tuple(sorted(stated.precisions)))


def coverage(validation: Validation, suite: Suite | None) -> Coverage:
    scope = validation.scope
    grid = (
        scope.models * len(scope.precisions)
        if scope.models is not None and scope.precisions
        else None
    )
    counts = suite_counts(suite) if suite is not None else None
    matches = None
    if counts is not None and scope.models is not None and scope.configurations is not None:
        matches = (scope.models, scope.configurations) == (counts.models, counts.configurations)
    return Coverage(
        reported_models=scope.models,
        reported_configurations=scope.configurations,
        reported_precisions=tuple(scope.precisions),
        full_grid=grid,
        suite=counts,
        matches_suite=matches,
    )


def add_months(start: date, months: int) -> date:
    """`start` moved on by whole months, clamped to the end of a shorter month."""
    month_index = start.month - 1 + months
    year, month = start.year + month_index // 12, month_index % 12 + 1
    return date(year, month, min(start.day, calendar.monthrange(year, month)[1]))


def validity_end(validation: Validation, program: Program) -> date | None:
    """When the result stops being valid; None when the date or the period is not stated."""
    if validation.announced is None or program.validity is None:
        return None
    return add_months(validation.announced, program.validity.months)


@dataclass(frozen=True)
class OpenItem:
    item: ChecklistItem
    because: tuple[tuple[str, str], ...]  # (question id, the validation's answer or "unanswered")


def open_items(validation: Validation, checklist: Checklist) -> list[OpenItem]:
    """Checklist items this validation leaves open: some question behind them is not a "yes"."""
    result = []
    for item in checklist.items:
        because = tuple(
            (
                question,
                validation.evidence[question].answer
                if question in validation.evidence
                else "unanswered",
            )
            for question in item.opened_by
            if question not in validation.evidence or validation.evidence[question].answer != "yes"
        )
        if because or not item.opened_by:
            result.append(OpenItem(item, because))
    return result


def established_claims(validation: Validation) -> list[Statement]:
    return [c for c in validation.claims if c.grade not in UNESTABLISHED]


def unestablished_claims(validation: Validation) -> list[Statement]:
    return [c for c in validation.claims if c.grade in UNESTABLISHED]


def cited_sources(*records: Record) -> list[str]:
    """Ids of every source the records cite, each once, in the order first cited."""
    cited: dict[str, None] = {}
    for record in records:
        for kind, target, _ in references(record, type(record)):
            if kind == "sources":
                cited.setdefault(target)
    return list(cited)


def gaps(validation: Validation, questions: list[Question]) -> list[Question]:
    """The evidence questions this validation does not answer "yes"."""
    return [
        q
        for q in questions
        if q.id not in validation.evidence or validation.evidence[q.id].answer != "yes"
    ]


def newest_first(validations: list[Validation]) -> list[Validation]:
    """Dated validations newest first, then the undated ones by id: none is ever dropped."""
    dated = sorted((v for v in validations if v.announced), key=lambda v: (v.announced, v.id))
    undated = sorted((v for v in validations if not v.announced), key=lambda v: v.id)
    return [*reversed(dated), *undated]
