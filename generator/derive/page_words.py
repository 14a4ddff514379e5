"""What the pages say of the facts: the words for a status, a suite's basis or fit, the
sentences whose wording turns on what a source states, counts with their nouns. Decided here,
once; templates show these as they are and decide nothing (their macros only format).

A sentence with a gap in it (what no source states) is `Words`: parts, each marked whether it
is a gap, which the `words` macro shows as such.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from generator.derive.validation import APPLIES_WORDS
from generator.english import age_words, plural
from generator.model.checklists import ChecklistItem, Question
from generator.model.policy import Policy
from generator.model.programs import Program, Suite
from generator.model.validation import Offer, Validation

# How many results the home page lists as the latest.
LATEST = 10

VALIDITY_WORDS = {
    "valid": "valid",
    "expiring": "near its validity end",
    "expired": "past its validity end",
    "unknown": "validity end unknown",
    "no-expiry": "no validity period stated",
}
# Why a result's validity end cannot be computed, shown beside its flag: a program states a
# period, and the result's date is not stated (derive/validity.py). Said in place, not left to
# the glossary, so a buyer reading a row sees it.
VALIDITY_WHY = {status: "" for status in VALIDITY_WORDS} | {
    "unknown": "the result's date is not stated"
}
# The validity states a table flags beside a result that shows no other.
NEAR_END = frozenset({"expiring", "expired"})


def near_end(status: str) -> bool:
    """Whether a result is near or past its validity end, which the scorecard flags."""
    return status in NEAR_END


def spelled(word: str) -> str:
    """A schema's word as a sentence reads it: "in-part" as "in part"."""
    return word.replace("-", " ")


def categories_words(names: list[str]) -> str:
    """A program's categories as a concern's cell names them: "category: GPU" or
    "categories: GPU, Network"."""
    noun = "category" if len(names) == 1 else "categories"
    return f"{noun}: {', '.join(names)}"


BASIS_WORDS = {
    "stated": "named by the provider",
    "stated-release": "identified by the provider's stated recipe release",
    "inferred-from-counts": "inferred from the reported counts",
    "ambiguous": "ambiguous: several recorded suites match the counts",
    "not-found": "not found: no recorded suite matches the counts",
    "no-counts": "not known: the provider stated neither a suite nor counts to match one",
    "not-applicable": "not applicable",
}
FIT_WORDS = {
    "matches": "the reported counts match it",
    "exceeds": "the reported counts exceed it, so it cannot be the suite that ran",
    "below": "the reported counts are fewer than it holds: a partial run of it",
    "unknown": "there are no reported counts to compare",
}


@dataclass(frozen=True)
class Part:
    text: str
    unstated: bool = False  # a gap: what no source states


Words = tuple[Part, ...]


def validity(end: date | None, program: Program) -> Words:
    """Until when a result is valid, or why that cannot be said."""
    if end is not None:
        assert program.validity is not None  # an end is computed from the program's period
        months = program.validity.months
        return (Part(f"{end.isoformat()} ({months} months from the announcement)"),)
    if program.validity is None:
        return (Part(f"{program.name} states no validity period"),)
    return (
        Part("cannot be computed: the announcement date is not stated", unstated=True),
        Part(f" ({program.name} results are valid {program.validity.months} months)"),
    )


@dataclass(frozen=True)
class OfferWords:
    capacity: str
    trial: str | None  # None: not stated


def offer(stated: Offer) -> OfferWords:
    """What a provider states of the validated capacity, in the words of its sentence."""
    if stated.available_now is None:
        capacity = "available (when: not stated)"
    else:
        capacity = "available now" if stated.available_now else "not available now"
    trial = stated.trial_before_commitment
    return OfferWords(capacity, None if trial is None else "offered" if trial else "not offered")


def other_suites(suite: Suite | None) -> str:
    """How the list of a program's other suites for the chip starts: every one is "other" only
    when one of them is the suite the result ran."""
    return "Recorded" if suite is None else "Other"


def why_open(item: ChecklistItem, questions: dict[str, Question]) -> str:
    """Why a checklist item is open, for any validation: the questions that close it, or why
    none can."""
    if item.closed_by:
        asked = "; ".join(questions[q].question for q in item.closed_by)
        return f"Open unless the validation answers yes to: {asked}"
    return APPLIES_WORDS[item.applies_when]


def stale(policy: Policy) -> str:
    """Why a stale record is flagged, in the words its page and the home page both show."""
    return f"review older than {policy.review_max_age_days} days"


def flag(flag: str, policy: Policy, newer: str | None) -> str:
    """One reason the home page flags a result: its validity, a stale review, or the provider's
    own newer result (`newer`, its program and release)."""
    if flag == "stale":
        return stale(policy)
    if flag == "superseded":
        return f"a newer result of its own: {newer}"
    if flag == "unknown":
        return "validity end cannot be computed: no source dates the result"
    return VALIDITY_WORDS[flag]


def undated(total: int, shown: int, after_dated: bool) -> str | None:
    """What the home page says of the results no source dates, of which it lists `shown`."""
    if not total:
        return None
    results = plural("result", total)
    if not shown:
        return (
            f"{results} whose sources state no announcement date cannot be placed in time, so "
            "they are not among the latest: the list of all validations holds them."
        )
    first = f", of which the first {shown} by id" if shown < total else ""
    lead = "Then the results" if after_dated else "Results"
    return (
        f"{lead} whose sources state no announcement date: {total} in all{first}. They cannot "
        "be placed in time, so they come last."
    )


@dataclass(frozen=True)
class Latest:
    """The home page's latest results: the dated ones newest first, then the undated ones,
    LATEST in all, and what is said of the undated."""

    dated: list[Validation]
    undated: list[Validation]
    undated_words: str | None
    newest: Validation | None  # the newest dated result
    freshness: str  # how old the newest evidence is on the build's date, in a sentence


def latest(newest_first: list[Validation], as_of: date) -> Latest:
    dated = [v for v in newest_first if v.announced is not None][:LATEST]
    undated_all = [v for v in newest_first if v.announced is None]
    shown = undated_all[: LATEST - len(dated)]
    newest = dated[0] if dated else None
    return Latest(
        dated,
        shown,
        undated(len(undated_all), len(shown), bool(dated)),
        newest,
        freshness(newest, len(undated_all), as_of),
    )


def freshness(newest: Validation | None, undated_count: int, as_of: date) -> str:
    """What the home page says of the age of the evidence: the newest dated result's date and
    age on the build's date, and how many results no source dates (they may be newer)."""
    if newest is None or newest.announced is None:
        lead = f"On {as_of.isoformat()}, no result on this site is dated by a source"
    else:
        age = age_words((as_of - newest.announced).days)
        lead = (
            f"On {as_of.isoformat()}, the newest dated evidence here was announced on "
            f"{newest.announced.isoformat()}, {age} earlier"
        )
    if not undated_count:
        return f"{lead}."
    return (
        f"{lead}; {plural('result', undated_count)} no source dates, so their age is not "
        "known, and some may be newer."
    )
