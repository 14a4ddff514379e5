"""What each program checks of a buyer's concerns, and which of a provider's results cover each.

A result covers a concern where its program's answer is "checks" or "in-part", the version of
the program's documents quoted was in force when the result was announced (`since`), and, for an
answer that holds for the closed division only, the result is not wholly in the open division:
criteria published after a rating are never read into it, and an open-division figure held to no
latency bound never covers serving under one. A result the program would cover but for either is
listed apart, with why, so a page says why it does not count.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.english import listed
from generator.model.concerns import Concern, ConcernAnswer, CoverWord
from generator.model.site import Site
from generator.model.validation import Validation

# The answers, strongest first: a concern two results cover is covered by the stronger.
STRENGTH: dict[str, int] = {"checks": 2, "in-part": 1, "does-not": 0}


@dataclass(frozen=True)
class Covering:
    validation: Validation
    answer: ConcernAnswer


@dataclass(frozen=True)
class ConcernCoverage:
    """One concern against one provider's results."""

    concern: Concern
    covering: list[Covering]  # newest first
    # Its program would cover it but for the result's date or division, each with why.
    not_counted: list[tuple[Covering, str]]

    @property
    def best(self) -> CoverWord | None:
        """The strongest answer of a covering result; None where no result covers it."""
        if not self.covering:
            return None
        return max((c.answer.answer for c in self.covering), key=STRENGTH.__getitem__)


def not_counted(answer: ConcernAnswer, validation: Validation) -> str | None:
    """Why a result whose program covers the concern does not count, if it does not: the
    version of the program's words quoted is newer than the result, or the answer holds for the
    closed division and the result is wholly in the open one."""
    opened = validation.systems and all(s.division == "open" for s in validation.systems)
    if answer.closed_only and opened:
        return "open division, which the program does not hold to it"
    if answer.scenarios and not any(
        m.scenario in answer.scenarios for m in validation.measurements
    ):
        return f"no figure in the {listed(list(answer.scenarios), 'or')} scenario"
    if answer.since is None:
        return None
    if validation.announced is None:
        return f"undated, and the words quoted are in force from {answer.since.isoformat()}"
    if validation.announced < answer.since:
        return f"announced before the words quoted, in force from {answer.since.isoformat()}"
    return None


def ordered(site: Site) -> list[Concern]:
    return sorted(site.concerns.values(), key=lambda c: (c.order, c.id))


def coverage(site: Site, newest_first: list[Validation]) -> list[ConcernCoverage]:
    """Every concern against `newest_first`, one provider's results, in the concerns' order."""
    found = []
    for concern in ordered(site):
        covering, apart = [], []
        for v in newest_first:
            answer = concern.answers.get(v.program)
            if answer is None or answer.answer == "does-not":
                continue
            why = not_counted(answer, v)
            if why is None:
                covering.append(Covering(v, answer))
            else:
                apart.append((Covering(v, answer), why))
        found.append(ConcernCoverage(concern, covering, apart))
    return found


def covered_count(found: list[ConcernCoverage]) -> int:
    return sum(1 for c in found if c.covering)
