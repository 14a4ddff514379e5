"""Suites: a suite's size, how a validation's reported counts fit it, which suite a validation
most likely ran (`reconcile`), and that suite's model x precision grid (`coverage_cells`).

The checks read suite sizes and fits too (counts that exceed a suite the provider names are an
error), so this module sits below both the checks and the derived facts.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import date
from typing import Literal

from generator.model.links import chip_name
from generator.model.programs import Suite
from generator.model.providers import Platform
from generator.model.validation import Validation


@dataclass(frozen=True)
class SuiteCounts:
    models: int
    configurations: int
    precisions: tuple[str, ...]


def suite_counts(suite: Suite) -> SuiteCounts:
    """The suite's size: counted from its matrix when published, else as a summary stated it."""
    if suite.workloads is not None:
        precisions = {p for workload in suite.workloads for p in workload.precisions}
        return SuiteCounts(
            models=len(suite.workloads),
            configurations=sum(len(workload.precisions) for workload in suite.workloads),
            precisions=tuple(sorted(precisions)),
        )
    assert suite.stated_counts is not None  # checks/rules/counts.py rejects a suite with neither
    stated = suite.stated_counts
    return SuiteCounts(stated.models, stated.configurations, tuple(sorted(stated.precisions)))


@dataclass(frozen=True)
class Coverage:
    """A validation's reported breadth, and the full grid its counts are often mistaken for."""

    reported_models: int | None
    reported_configurations: int | None
    reported_precisions: tuple[str, ...]
    full_grid: int | None  # every reported model in every reported precision
    grid_exceeds_reported: bool  # True when "every model in every precision" cannot be the reading

    @property
    def precision_count(self) -> int:
        return len(self.reported_precisions)


def coverage(validation: Validation) -> Coverage:
    scope = validation.scope
    grid = None
    if scope.models is not None and scope.precisions:
        grid = scope.models * len(scope.precisions)
    return Coverage(
        reported_models=scope.models,
        reported_configurations=scope.configurations,
        reported_precisions=tuple(scope.precisions),
        full_grid=grid,
        grid_exceeds_reported=(
            grid is not None and scope.configurations is not None and grid > scope.configurations
        ),
    )


Fit = Literal["matches", "exceeds", "below", "unknown"]


def fit(validation: Validation, counts: SuiteCounts) -> Fit:
    """How the validation's reported counts sit against one suite."""
    scope = validation.scope
    if scope.models is None or scope.configurations is None:
        return "unknown"
    if (
        scope.models > counts.models
        or scope.configurations > counts.configurations
        or not set(scope.precisions) <= set(counts.precisions)
    ):
        return "exceeds"
    if (scope.models, scope.configurations) == (counts.models, counts.configurations):
        return "matches"
    return "below"


Basis = Literal[
    "stated",
    "stated-release",
    "inferred-from-counts",
    "ambiguous",
    "not-found",
    "no-counts",
    "not-applicable",
]


@dataclass(frozen=True)
class Reconciliation:
    """Which suite a validation ran, how we know, and how its counts fit each candidate suite."""

    basis: Basis
    suite: Suite | None
    counts: SuiteCounts | None
    fit: Fit | None
    # Every suite of the same program and chip: the suite, its counts, and the counts' fit.
    candidates: tuple[tuple[Suite, SuiteCounts, Fit], ...] = field(default=())
    chip: str | None = None


def chip_of(validation: Validation, platform: Platform | None) -> str | None:
    """The chip a result is for: its platform's, or the chip family it names without one, with
    its spaces read as the site groups by it."""
    chip = platform.chip if platform is not None else validation.chip
    return chip_name(chip) if chip is not None else None


def reconcile(
    validation: Validation, platform: Platform | None, suites: list[Suite]
) -> Reconciliation:
    """Resolve a validation's counts against the program's suites for its chip and release."""
    stated = next((s for s in suites if s.id == validation.stated_suite), None)
    chip = chip_of(validation, platform)
    # A release tagged after the result was announced cannot be the one it ran: the candidates
    # are the releases in force by then (every release, for an undated result).
    same_chip = sorted(
        (
            s
            for s in suites
            if s.program == validation.program
            and chip_name(s.chip) == chip
            and (
                s.tagged is None or validation.announced is None or s.tagged <= validation.announced
            )
        ),
        key=lambda s: (s.tagged or date.min, s.id),  # in release order; untagged first
    )
    candidates = tuple((s, suite_counts(s), fit(validation, suite_counts(s))) for s in same_chip)
    release = validation.scope.recipe_release
    if stated is not None:
        basis: Basis = "stated"
        chosen = stated
    elif release is not None and any(s.release == release for s in same_chip):
        basis, chosen = "stated-release", next(s for s in same_chip if s.release == release)
    elif chip is None:
        basis, chosen = "not-applicable", None
    elif validation.scope.configurations is None:
        basis, chosen = "no-counts", None
    else:
        matches = [s for s, _, suite_fit in candidates if suite_fit == "matches"]
        if len(matches) == 1:
            basis, chosen = "inferred-from-counts", matches[0]
        else:
            basis, chosen = ("not-found" if not matches else "ambiguous"), None
    counts = suite_counts(chosen) if chosen is not None else None
    return Reconciliation(
        basis=basis,
        suite=chosen,
        counts=counts,
        fit=fit(validation, counts) if counts is not None else None,
        candidates=tuple(c for c in candidates if chosen is None or c[0].id != chosen.id),
        chip=chip,
    )


CellStatus = Literal["tested", "in suite", "not in suite"]


def cells_ran_stated(reconciliation: Reconciliation) -> bool:
    """Whether the provider's own statements say which cells of the suite ran: it named the suite
    or its release, and its counts match the suite's, so every cell ran."""
    return reconciliation.basis in ("stated", "stated-release") and reconciliation.fit == "matches"


def coverage_cells(
    validation: Validation, reconciliation: Reconciliation
) -> list[tuple[str, str, CellStatus]]:
    """The suite's model x precision grid: the program owner's matrix, not the provider's.

    A cell of the suite counts as tested only when the provider's statements say every cell ran
    (`cells_ran_stated`). Otherwise it is only "in suite": the grid names the program owner's
    models and precisions, and which of them the provider ran is not published.
    """
    suite = reconciliation.suite
    if suite is None or suite.workloads is None or reconciliation.counts is None:
        return []
    in_suite: CellStatus = "tested" if cells_ran_stated(reconciliation) else "in suite"
    precisions = sorted(set(reconciliation.counts.precisions) | set(validation.scope.precisions))
    return [
        (
            f"{w.model} {w.size}" if w.size else w.model,
            precision,
            in_suite if precision in w.precisions else "not in suite",
        )
        for w in suite.workloads
        for precision in precisions
    ]


@dataclass(frozen=True)
class SuiteChange:
    """What changed in one chip's suite from one tagged release to the next."""

    chip: str
    before: Suite
    after: Suite
    added: tuple[str, ...]  # "Kimi-K2 1T (FP8)"
    removed: tuple[str, ...]
    precisions: tuple[str, ...]  # "Qwen3 235B: FP8 added", "Llama 3.1 70B: NVFP4 dropped"

    @property
    def words(self) -> str:
        """The change in one line: "added Kimi-K2 1T (FP8); removed Grok-1 314B (BF16, FP8)"."""
        return "; ".join(
            [
                *(f"added {a}" for a in self.added),
                *(f"removed {r}" for r in self.removed),
                *self.precisions,
            ]
        )

    @property
    def releases(self) -> tuple[str, str]:
        """The two releases by name: the first word of each suite's release ("v26.05")."""
        return self.before.release.split(" ")[0], self.after.release.split(" ")[0]


def release_changes(suites: list[Suite]) -> list[SuiteChange]:
    """Each chip's tagged suites in release order, and what each release changed from the one
    before: a model added or removed, a precision added or dropped. Releases that changed
    nothing are left out."""
    by_chip: dict[str, list[Suite]] = {}
    for suite in suites:
        if suite.tagged is not None and suite.workloads is not None:
            by_chip.setdefault(chip_name(suite.chip), []).append(suite)
    found = []
    for chip, tagged in sorted(by_chip.items()):
        ordered = sorted(tagged, key=lambda s: (s.tagged, s.id))
        for before, after in itertools.pairwise(ordered):
            old, new = _matrix(before), _matrix(after)
            added = tuple(f"{m} ({', '.join(new[m])})" for m in new if m not in old)
            removed = tuple(f"{m} ({', '.join(old[m])})" for m in old if m not in new)
            changed = []
            for model in (m for m in new if m in old):
                more = [p for p in new[model] if p not in old[model]]
                fewer = [p for p in old[model] if p not in new[model]]
                if more:
                    changed.append(f"{model}: {', '.join(more)} added")
                if fewer:
                    changed.append(f"{model}: {', '.join(fewer)} dropped")
            if added or removed or changed:
                found.append(SuiteChange(chip, before, after, added, removed, tuple(changed)))
    return found


def _matrix(suite: Suite) -> dict[str, tuple[str, ...]]:
    assert suite.workloads is not None
    return {
        f"{w.model} {w.size}" if w.size else w.model: tuple(w.precisions) for w in suite.workloads
    }
