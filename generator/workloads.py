"""Views a buyer comes with a workload for: which results cover a model on a chip, and how
directly; and which results sit side by side.

A result covers a workload in one of three ways, each said plainly:

- measured: the result publishes a figure for it (an MLPerf benchmark's time to train);
- in the suite the provider names, which ran whole (the suite's every cell ran);
- in the suite inferred from the provider's counts: the suite holds the workload, but which of
  its cells the provider ran is not published.

Anything else is absent. A program's workloads are its own (MLPerf's reference models, NVIDIA's
recipes), never the buyer's, and the pages say so.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Literal

from .derive import Derived, chip_of, largest_gpus
from .model import Validation
from .site import Site

Kind = Literal["measured", "stated", "inferred"]
KIND_WORDS = {
    "measured": "measured",
    "stated": "in named suite",
    "inferred": "in inferred suite",
}
# How many other results each result is paired with, at most: pages grow linearly.
PARTNERS = 3


@dataclass(frozen=True)
class Cell:
    """One result's coverage of one workload."""

    validation: Validation
    kind: Kind
    detail: str | None  # a measured value, "14.25 min at 72 GPUs"; None for suite coverage


@dataclass
class Row:
    """One workload of one program on one chip, and each provider's coverage of it."""

    program: str
    workload: str
    size: str | None
    architecture: str | None
    precisions: tuple[str, ...]
    cells: dict[str, list[Cell]] = field(default_factory=dict)  # by provider id


@dataclass
class ChipView:
    chip: str
    slug: str
    providers: list[tuple[str, str]]  # (id, name), by name
    rows: list[Row]
    without: list[Validation]  # results on the chip that name no workload


def chip_slug(chip: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", chip.lower()).strip("-")


def _minutes(value: float, unit: str) -> str:
    return f"{value:.2f} {unit}" if unit == "min" else f"{value:g} {unit}"


def by_chip(
    site: Site, derived: dict[str, Derived], validations: list[Validation]
) -> list[ChipView]:
    """Every chip with a result, its workloads crossed with its providers."""
    rows: dict[str, dict[tuple[str, ...], Row]] = defaultdict(dict)
    providers: dict[str, set[str]] = defaultdict(set)
    without: dict[str, list[Validation]] = defaultdict(list)
    for v in validations:
        chip = chip_of(v, site.platforms.get(v.platform or ""))
        if chip is None:
            continue
        program = site.programs[v.program].name
        providers[chip].add(v.provider)
        systems = {s.key: s.nodes * s.accelerators_per_node for s in v.systems}
        covered = False
        for m in v.measurements:
            key = (program, m.workload, "", "", "")
            row = rows[chip].setdefault(key, Row(program, m.workload, None, None, ()))
            gpus = systems.get(m.system or "") or largest_gpus(v)
            at = f" at {gpus:,} GPUs" if gpus else ""
            detail = f"{_minutes(m.value, m.unit)}{at}"
            row.cells.setdefault(v.provider, []).append(Cell(v, "measured", detail))
            covered = True
        reconciliation = derived[v.id].reconciliation
        suite = reconciliation.suite
        if suite is not None and suite.workloads is not None and not v.measurements:
            kind: Kind = "stated" if derived[v.id].cells_ran_stated else "inferred"
            for w in suite.workloads:
                precisions = tuple(w.precisions)
                key = (program, w.model, w.size or "", w.architecture or "", ",".join(precisions))
                row = rows[chip].setdefault(
                    key, Row(program, w.model, w.size, w.architecture, precisions)
                )
                row.cells.setdefault(v.provider, []).append(Cell(v, kind, None))
            covered = True
        if not covered:
            without[chip].append(v)
    views = []
    for chip in sorted(providers):
        listed = sorted(
            ((p, site.providers[p].name) for p in providers[chip]), key=lambda item: item[1]
        )
        ordered = [rows[chip][key] for key in sorted(rows[chip])]
        views.append(ChipView(chip, chip_slug(chip), listed, ordered, without[chip]))
    return views


# --- two results side by side ---------------------------------------------------------------------


def pair_id(first: str, second: str) -> str:
    return "--".join(sorted((first, second)))


def partners(site: Site, validations: list[Validation]) -> dict[str, list[Validation]]:
    """For each result, the few others worth reading beside it: the same provider, program and
    chip in another round first, then the same chip and program, then the same chip; at most
    PARTNERS each, so the pair pages grow linearly with the results."""
    chips = {v.id: chip_of(v, site.platforms.get(v.platform or "")) for v in validations}
    by_chip: dict[str, list[Validation]] = defaultdict(list)
    for v in validations:
        chip = chips[v.id]
        if chip is not None:
            by_chip[chip].append(v)
    found: dict[str, list[Validation]] = {}
    for v in validations:
        chip = chips[v.id]
        others = [o for o in by_chip.get(chip or "", []) if o.id != v.id]
        ranked = sorted(
            others,
            key=lambda o: (
                not (o.provider == v.provider and o.program == v.program),
                o.program != v.program,
                o.provider,
                o.id,
            ),
        )
        found[v.id] = ranked[:PARTNERS]
    return found


@dataclass(frozen=True)
class Pair:
    """Two results, and the workloads both measured."""

    id: str
    first: Validation
    second: Validation
    shared: list[tuple[str, str | None, str | None]]  # workload, first's value, second's value


def pairs(site: Site, validations: list[Validation]) -> list[Pair]:
    """Every pair `partners` names, once."""
    seen: dict[str, Pair] = {}
    for v_id, others in partners(site, validations).items():
        for other in others:
            key = pair_id(v_id, other.id)
            if key in seen:
                continue
            first, second = sorted((site.validations[v_id], other), key=lambda r: r.id)
            seen[key] = Pair(key, first, second, _shared(first, second))
    return [seen[key] for key in sorted(seen)]


def _values(validation: Validation) -> dict[str, list[str]]:
    systems = {s.key: s.nodes * s.accelerators_per_node for s in validation.systems}
    found: dict[str, list[str]] = defaultdict(list)
    for m in validation.measurements:
        gpus = systems.get(m.system or "") or validation.scope.gpus
        at = f" at {gpus:,} GPUs" if gpus else ""
        found[m.benchmark or m.workload].append(f"{_minutes(m.value, m.unit)}{at}")
    return found


def _shared(first: Validation, second: Validation) -> list[tuple[str, str | None, str | None]]:
    """The workloads both results measured, by the program's benchmark id where there is one."""
    a, b = _values(first), _values(second)
    names = {
        m.benchmark or m.workload: m.workload for m in [*first.measurements, *second.measurements]
    }
    return [
        (names[key], "; ".join(a[key]), "; ".join(b[key])) for key in sorted(a.keys() & b.keys())
    ]
