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

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Literal

from generator.derive.provenance import (
    measured_as,
    repeat_words,
    served_words,
    system_of,
    value_words,
)
from generator.derive.releases import release_key
from generator.derive.validation import Derived, measurement_count
from generator.english import listed, plural
from generator.model.links import chip_slug
from generator.model.measurements import Measurement
from generator.model.site import Site
from generator.model.validation import Validation, accelerator_noun

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
    # A measured value, "14.25 min at 72 GPUs"; for suite coverage, the result's scale where a
    # source states it, "result at 512 GPUs"; else None.
    detail: str | None


@dataclass
class WorkloadRow:
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
    rows: list[WorkloadRow]
    without: list[Validation]  # results on the chip that name no workload
    # Every result on the chip by provider, as `providers` orders them, each provider's by
    # program and round, the newest round first: which clouds have results, and from which
    # programs, in a table of a row a provider.
    results: list[tuple[str, str, list[Validation]]] = field(default_factory=list)

    @property
    def providers_words(self) -> str:
        """How many providers have results on the chip: "1 provider", "6 providers"."""
        return plural("provider", len(self.providers))

    @property
    def counts(self) -> dict[str, int]:
        """What the workloads index counts of the chip."""
        return {
            "providers": len(self.providers),
            "workloads": len(self.rows),
            "without": len(self.without),
        }


def chip_slugs(chips: list[str]) -> dict[str, str]:
    """A page name for each chip. `cloudqual check` refuses two chips whose names give one page
    name, and a name that gives none or the section's own: a page is never renamed to make room,
    or a hostile record could take a real chip's page. Should one get past, the build stops on
    two pages sharing a path."""
    return {chip: chip_slug(chip) for chip in sorted(chips)}


def figure(validation: Validation, measurement: Measurement, noun: str) -> str:
    """A measured value and the accelerators it was measured on, where a source states them,
    and whether it repeats an earlier round's runs."""
    count = measurement_count(validation, measurement)
    at = f" at {plural(noun, count)}" if count else ""
    again = repeat_words(measurement)
    marked = f" ({again})" if again else ""
    # An inference figure is one of several of the same model: its scenario, accuracy, division
    # and availability tell them apart, and say what it was held to.
    served = served_words(measurement, system_of(validation, measurement))
    scenario = f", {served}" if served else ""
    return f"{value_words(measurement.value, measurement.unit)}{at}{scenario}{marked}"


def measured_words(validation: Validation, figures: list[Measurement], noun: str) -> str:
    """A result's figures of one workload, in a cell of a chip's workloads: the figure itself
    where it is one, else how many, at what sizes and in which scenarios (each figure is on the
    chip's figures page, beside every other cloud's)."""
    if len(figures) == 1:
        return figure(validation, figures[0], noun)
    counts = sorted({c for m in figures if (c := measurement_count(validation, m))})
    sizes = f" at {listed([str(c) for c in counts])} {noun}s" if counts else ""
    scenarios: list[str] = sorted({m.scenario for m in figures if m.scenario})
    under = f"; {listed(scenarios)}" if scenarios else ""
    return f"{len(figures)} figures{sizes}{under}"


def by_chip(
    site: Site, derived: dict[str, Derived], validations: list[Validation]
) -> list[ChipView]:
    """Every chip with a result, its workloads crossed with its providers."""
    rows: dict[str, dict[tuple[str, ...], WorkloadRow]] = defaultdict(dict)
    providers: dict[str, set[str]] = defaultdict(set)
    results: dict[str, dict[str, list[Validation]]] = defaultdict(lambda: defaultdict(list))
    without: dict[str, list[Validation]] = defaultdict(list)
    for v in validations:
        chip = derived[v.id].reconciliation.chip
        if chip is None:
            continue
        program = site.programs[v.program].name
        providers[chip].add(v.provider)
        results[chip][v.provider].append(v)
        covered = False
        noun = accelerator_noun(site.platforms.get(v.platform or ""), v)
        measured: dict[str, list[Measurement]] = defaultdict(list)
        for m in v.measurements:
            # A model run in a benchmark's place, or an open-division figure, has its own row:
            # it is never read as the closed division's figure of the workload.
            measured[measured_as(m, system_of(v, m))].append(m)
        for workload, figures in measured.items():
            key = (program, workload, "", "", "")
            row = rows[chip].setdefault(key, WorkloadRow(program, workload, None, None, ()))
            row.cells.setdefault(v.provider, []).append(
                Cell(v, "measured", measured_words(v, figures, noun))
            )
            covered = True
        reconciliation = derived[v.id].reconciliation
        suite = reconciliation.suite
        if suite is not None and suite.workloads is not None and not v.measurements:
            kind: Kind = "stated" if derived[v.id].cells_ran_stated else "inferred"
            # The result's scale, not the cell's: which cells ran at it is not published.
            stated = derived[v.id].scale
            scale = None if stated is None else f"result at {stated}"
            for w in suite.workloads:
                precisions = tuple(w.precisions)
                key = (program, w.model, w.size or "", w.architecture or "", ",".join(precisions))
                row = rows[chip].setdefault(
                    key, WorkloadRow(program, w.model, w.size, w.architecture, precisions)
                )
                row.cells.setdefault(v.provider, []).append(Cell(v, kind, scale))
            covered = True
        if not covered:
            without[chip].append(v)
    views = []
    slugs = chip_slugs(list(providers))
    for chip in sorted(providers):
        # By name, then id: two providers may share a name, and a set has no order of its own.
        listed = sorted(
            ((p, site.providers[p].name) for p in providers[chip]), key=lambda item: item[::-1]
        )
        ordered = [rows[chip][key] for key in sorted(rows[chip])]
        held = [(p, name, _newest_first(site, results[chip][p])) for p, name in listed]
        views.append(ChipView(chip, slugs[chip], listed, ordered, without[chip], held))
    return views


def _newest_first(site: Site, validations: list[Validation]) -> list[Validation]:
    """A provider's results on a chip by program name, then the newest round first (a result
    of no stated round last), then id."""

    def key(v: Validation) -> tuple[str, bool, tuple[int, ...], str]:
        release = release_key(v.program_release)
        newest = tuple(-part for part in release) if release is not None else ()
        return (site.programs[v.program].name, release is None, newest, v.id)

    return sorted(validations, key=key)


# --- two results side by side ---------------------------------------------------------------------


def pair_id(first: str, second: str) -> str:
    return "--".join(sorted((first, second)))


def partners(
    derived: dict[str, Derived], validations: list[Validation]
) -> dict[str, list[Validation]]:
    """For each result, the few others worth reading beside it: the same provider, program and
    chip in another round first, then the same chip and program, then the same chip; at most
    PARTNERS each, so the pair pages grow linearly with the results."""
    chips = {v.id: derived[v.id].reconciliation.chip for v in validations}
    by_chip: dict[str, list[Validation]] = defaultdict(list)
    for v in validations:
        chip = chips[v.id]
        if chip is not None:
            by_chip[chip].append(v)
    found: dict[str, list[Validation]] = {}
    for v in validations:
        chip = chips[v.id]
        others = [o for o in by_chip.get(chip or "", []) if o.id != v.id]
        ranked = sorted(others, key=lambda o: _closeness(v, o))
        found[v.id] = ranked[:PARTNERS]
    return found


def _closeness(result: Validation, other: Validation) -> tuple[object, ...]:
    """How near another result on the chip is: the same provider and program first, then the
    same program, then the nearest release and date. Ties go by a hash of the two ids, so no
    result is every result's partner for its name's place in the alphabet."""
    mine, theirs = release_key(result.program_release), release_key(other.program_release)
    releases = abs(mine[0] - theirs[0]) if mine and theirs else 99
    days = (
        abs((result.announced - other.announced).days)
        if result.announced and other.announced
        else 99_999
    )
    spread = hashlib.sha256(f"{result.id} {other.id}".encode()).hexdigest()
    return (
        not (other.provider == result.provider and other.program == result.program),
        other.program != result.program,
        releases,
        days,
        spread,
    )


@dataclass(frozen=True)
class Pair:
    """Two results, and the workloads both measured."""

    id: str
    first: Validation
    second: Validation
    shared: list[tuple[str, str, str]]  # workload, first's figures, second's figures
    # What the shared figures are, in a sentence: times, rates, or both, and any rescoring.
    reading: str | None = None


def pairs(site: Site, chosen: dict[str, list[Validation]]) -> list[Pair]:
    """Every pair that `partners` chose, once."""
    seen: dict[str, Pair] = {}
    for v_id, others in chosen.items():
        for other in others:
            key = pair_id(v_id, other.id)
            if key in seen:
                continue
            first, second = sorted((site.validations[v_id], other), key=lambda r: r.id)
            shared, kinds, rescored = _shared(site, first, second)
            seen[key] = Pair(key, first, second, shared, reading(kinds, rescored))
    return [seen[key] for key in sorted(seen)]


# What a figure measures, for pairing: what ran (and its division), the metric and the unit. A
# time to train is never set beside a throughput because both name Llama 3.1 405B.
FigureKind = tuple[str, str, str]


def _figures(site: Site, validation: Validation) -> dict[FigureKind, list[Measurement]]:
    found: dict[FigureKind, list[Measurement]] = defaultdict(list)
    for m in validation.measurements:
        kind = (measured_as(m, system_of(validation, m)), m.metric, m.unit)
        found[kind].append(m)
    return found


def _shared(
    site: Site, first: Validation, second: Validation
) -> tuple[list[tuple[str, str, str]], set[str], bool]:
    """The workloads both results measured with the same metric and unit, by workload name, as
    the chip pages match them (a hand-typed record may carry no benchmark id where an imported
    one does); the metrics they share; and whether a shared figure is rescored runs."""
    a, b = _figures(site, first), _figures(site, second)
    rows, metrics, rescored = [], set(), False
    for kind in sorted(a.keys() & b.keys()):
        words = []
        for validation, found in ((first, a[kind]), (second, b[kind])):
            noun = accelerator_noun(site.platforms.get(validation.platform or ""), validation)
            words.append("; ".join(figure(validation, m, noun) for m in found))
            rescored = rescored or any(m.resubmitted is not None for m in found)
        rows.append((kind[0], words[0], words[1]))
        metrics.add(kind[1])
    return rows, metrics, rescored


def reading(metrics: set[str], rescored: bool) -> str | None:
    """How to read the figures a pair shares: a time to train or a rate is at its own system's
    size, and a rescored figure differs from its round's only by the rescoring."""
    if not metrics:
        return None
    names = {"time to train": "a time", "throughput": "a rate", "latency": "a latency"}
    what = " or ".join(sorted({names.get(m, "a figure") for m in metrics}))
    words = (
        f"Each figure is {what} at its own system's size: a difference in size is a difference "
        "in what was measured, not a speed-up."
    )
    if rescored:
        words += (
            " A figure marked as an earlier round's runs, rescored, was not measured again: it "
            "is that round's runs scored by the later round's rules (its note on the result's "
            "page gives the scaling factor applied), so any difference from that round's figure "
            "is the rescoring, not a change in the system."
        )
    return words
