"""The scorecard: the site at a glance, one row per cloud and one column per program, each cell
the provider's strongest result under that program.

The strongest result is the one at the largest scale a source states, then the newest; a result
whose scale no source states comes after every stated one, and an undated one after every dated
one. The cell says how many results the provider has under the program, so a buyer sees that the
one shown is not all there is.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from generator.model.programs import Program
from generator.model.validation import Validation


@dataclass(frozen=True)
class Cell:
    """One provider's results under one program: the strongest, and how many there are."""

    best: Validation
    count: int

    @property
    def several(self) -> bool:
        """Whether the cell says which of several results it shows ("strongest of N")."""
        return self.count > 1


@dataclass(frozen=True)
class ScorecardRow:
    provider: str  # the provider's id
    cells: list[Cell | None]  # in the order of the scorecard's programs; None where it has none
    covered: int = 0  # how many of a buyer's concerns its results cover (derive/concerns.py)


@dataclass(frozen=True)
class Scorecard:
    programs: list[Program]  # the columns, by name
    rows: list[ScorecardRow]
    concerns: int = 0  # how many concerns there are


def strength(validation: Validation, accelerators: int | None) -> tuple[int, int, date, str]:
    """What ranks a result in its cell: stated scale, then the scale, then the date (the id
    last, so the order never depends on the records' order)."""
    day = validation.announced or date.min
    return (accelerators is not None, accelerators or 0, day, validation.id)


def scorecard(
    clouds: list[str],
    programs: list[Program],
    by_provider: dict[str, list[Validation]],
    accelerators: dict[str, int | None],
    covered: dict[str, int] | None = None,
    concerns: int = 0,
) -> Scorecard:
    """The scorecard of `clouds` (provider ids, in order) under `programs`; `accelerators` is
    each result's largest stated count, by validation id; `covered` how many of the `concerns`
    each provider's results cover."""
    columns = sorted(programs, key=lambda p: (p.name, p.id))
    rows = []
    for provider in clouds:
        cells: list[Cell | None] = []
        for program in columns:
            results = [v for v in by_provider[provider] if v.program == program.id]
            if not results:
                cells.append(None)
                continue
            best = max(results, key=lambda v: strength(v, accelerators[v.id]))
            cells.append(Cell(best, len(results)))
        rows.append(ScorecardRow(provider, cells, (covered or {}).get(provider, 0)))
    return Scorecard(columns, rows, concerns)
