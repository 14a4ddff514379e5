"""Derived facts: everything the site computes from the raw records, and nothing else does.

Contributors write raw facts; these pure functions compute what follows from them, uniformly for
every validation. Templates only show the results. No derived name reuses a raw field's name.

Computed here:
- `suite_counts`: models, configurations and precisions of a suite;
- `coverage`: reported counts against the full models x precisions grid (8 x 3 = 24);
- `reconcile`: the suite a validation most likely ran, and what the counts say of every other
  suite for the same program and chip;
- `coverage_cells`: that suite's model x precision grid, each cell tested, in suite or not;
- `standard_caveats`: caveats that follow from the facts by rule (`RULES`), each citing the
  source of the fact that fired it and, apart, the source of its reasoning;
- `validity_end`, `validity_status`, `review_status`: expiry and staleness under a `Policy`;
- `open_items`: the checklist items a validation leaves open, with the answers that open them,
  each worded for the validation by filling its slots (`SLOTS`);
- `established_claims` / `unestablished_claims`, `cited_sources`, `newest_first`;
- `program_coverage`, `conflicts`: a provider's results side by side across programs;
- `gaps`: each case-study finding's gap to the reference, in words, against the tolerance.

`facts.derive_site` applies these to a whole site, once, before anything is rendered.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal, get_args

from generator.derive.caveats.finding import Facts
from generator.derive.caveats.rules import DerivedCaveat, standard_caveats
from generator.derive.provenance import (
    FigureRow,
    SystemRow,
    dated,
    figure_rows,
    submitted_by,
    system_rows,
)
from generator.derive.suites import Coverage, Reconciliation, cells_ran_stated, coverage, reconcile
from generator.derive.wording import Wording, item_wording
from generator.english import plural
from generator.model.base import Record, Statement
from generator.model.case_studies import CaseStudy
from generator.model.case_studies import Finding as CaseFinding
from generator.model.checklists import Applies, Checklist, ChecklistItem, Question
from generator.model.grades import UNESTABLISHED
from generator.model.measurements import Measurement
from generator.model.policy import Policy
from generator.model.programs import Program, Suite
from generator.model.providers import Platform
from generator.model.references import references
from generator.model.sources import Source
from generator.model.validation import EvidenceAnswer, Validation, accelerator_noun
from generator.model.validation import answer_word as _answer

# --- dates ---------------------------------------------------------------------------------------


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


ValidityStatus = Literal["valid", "expiring", "expired", "unknown", "no-expiry"]


def validity_status(validation: Validation, program: Program, policy: Policy) -> ValidityStatus:
    """Where the result stands on `policy.as_of`: past, near or before its validity end."""
    if program.validity is None:
        return "no-expiry"
    end = validity_end(validation, program)
    if end is None:
        return "unknown"
    if end < policy.as_of:
        return "expired"
    if end <= policy.as_of + timedelta(days=policy.expiry_warning_days):
        return "expiring"
    return "valid"


def review_is_stale(validation: Validation, policy: Policy) -> bool:
    """True when the record's last review is older than the policy allows."""
    return (policy.as_of - validation.last_reviewed).days > policy.review_max_age_days


def review_due(validation: Validation, policy: Policy) -> date:
    """The last day the record's review is not yet stale: last reviewed plus the window."""
    return validation.last_reviewed + timedelta(days=policy.review_max_age_days)


# --- checklist ------------------------------------------------------------------------------------

# When an item applies to a validation at all (`ChecklistItem.applies_when`).
APPLIES: dict[str, Callable[[Validation], bool]] = {
    "every-validation": lambda validation: True,
    "energy-claim": lambda validation: validation.deployment.energy_source is not None,
}
assert set(APPLIES) == set(get_args(Applies))

# Why an item with no closing questions is open, by when it applies (`ChecklistItem.applies_when`).
APPLIES_WORDS = {
    "every-validation": "Open for every validation: no published evidence can close it.",
    "energy-claim": "Open for every validation that states an energy source: no published "
    "evidence can close it.",
}
assert set(APPLIES_WORDS) == set(get_args(Applies))


@dataclass(frozen=True)
class OpenItem:
    item: ChecklistItem
    because: tuple[tuple[str, str], ...]  # (question id, the validation's answer or "unanswered")
    wording: str  # the item's text, its slots filled for this validation
    reason: str  # why it is open, as pages show it: "Open because: ..." (`open_reason`)


def open_reason(
    item: ChecklistItem, because: tuple[tuple[str, str], ...], questions: dict[str, Question]
) -> str:
    """Why an item is open, in words: each question behind it with the validation's answer, or,
    for an item no evidence can close, when it applies."""
    if not because:
        return APPLIES_WORDS[item.applies_when]
    return "Open because: " + "; ".join(
        f"{questions[q].question} ({answer})" if q in questions else f"{q} ({answer})"
        for q, answer in because
    )


def for_program(item: ChecklistItem, program: str) -> bool:
    """Whether an item applies to a program's results: it names the program, or no program."""
    return item.programs is None or program in item.programs


def applicable_items(validation: Validation, checklist: Checklist) -> list[ChecklistItem]:
    """The checklist items that apply to this validation at all: to its program, and under
    their condition (`APPLIES`)."""
    return [
        item
        for item in checklist.items
        if for_program(item, validation.program) and APPLIES[item.applies_when](validation)
    ]


def open_items(
    validation: Validation,
    checklist: Checklist,
    *,
    platform: Platform | None = None,
    questions: dict[str, Question] | None = None,
) -> list[OpenItem]:
    """Items that apply and that this validation leaves open: an item with no closing questions
    is always open; another is open unless every question behind it is answered "yes"."""
    result = []
    for item in applicable_items(validation, checklist):
        because = tuple(
            (question, _answer(validation, question))
            for question in item.closed_by
            if _answer(validation, question) != "yes"
        )
        if because or not item.closed_by:
            wording = Wording(validation, platform, questions or {}, tuple(item.closed_by))
            reason = open_reason(item, because, questions or {})
            result.append(OpenItem(item, because, item_wording(item, wording), reason))
    return result


# --- claims, sources -----------------------------------------------------------------------------


def established_claims(validation: Validation) -> list[Statement]:
    return [c for c in validation.claims if c.grade not in UNESTABLISHED]


def unestablished_claims(validation: Validation) -> list[Statement]:
    return [c for c in validation.claims if c.grade in UNESTABLISHED]


# The sources each record cites, by the record's identity, with the record kept so that its
# identity stays its own: pages, documents and feeds ask of the same record many times, and
# under `mkdocs serve` the records of unchanged files are the same objects from build to build.
_CITES: dict[int, tuple[Record, tuple[str, ...]]] = {}
_CITES_KEPT = 50_000


def _cites(record: Record) -> tuple[str, ...]:
    found = _CITES.get(id(record))
    if found is None or found[0] is not record:
        targets = (t for kind, t, _ in references(record, type(record)) if kind == "sources")
        found = (record, tuple(dict.fromkeys(targets)))
        if len(_CITES) >= _CITES_KEPT:
            _CITES.clear()
        _CITES[id(record)] = found
    return found[1]


def cited_sources(
    sources: dict[str, Source], *records: Record, extra: tuple[str, ...] = ()
) -> list[Source]:
    """Every source the records cite, then those of `extra`, each once, in first-cited order,
    from `sources`, the site's sources by id."""
    cited: dict[str, None] = {}
    for record in records:
        for target in _cites(record):
            cited.setdefault(target)
    for source in extra:
        cited.setdefault(source)
    return [sources[source_id] for source_id in cited]


def applies(question: Question, program: str) -> bool:
    """Whether an evidence question applies to a program's results at all."""
    return question.programs is None or program in question.programs


@dataclass(frozen=True)
class Answered:
    """One evidence question for one validation: the word pages show ("yes", "unanswered",
    "not-applicable", ...) and the record's own answer, if it gives one that applies."""

    question: Question
    word: str
    answer: EvidenceAnswer | None


def answered(validation: Validation, questions: list[Question]) -> tuple[Answered, ...]:
    """Every evidence question, in order, as it stands for this validation."""
    found = []
    for q in questions:
        if not applies(q, validation.program):
            found.append(Answered(q, "not-applicable", None))
        else:
            found.append(Answered(q, _answer(validation, q.id), validation.evidence.get(q.id)))
    return tuple(found)


def newest_first(validations: list[Validation]) -> list[Validation]:
    """Dated validations newest first, then the undated ones by id: none is ever dropped."""
    dated = sorted((v for v in validations if v.announced), key=lambda v: (v.announced, v.id))
    undated = sorted((v for v in validations if not v.announced), key=lambda v: v.id)
    return [*reversed(dated), *undated]


# --- a provider across programs ------------------------------------------------------------------


def program_coverage(
    validations: list[Validation], programs: list[Program]
) -> list[tuple[Program, list[Validation]]]:
    """Each program with this provider's results under it; an empty list is a gap."""
    return [(p, [v for v in validations if v.program == p.id]) for p in programs]


@dataclass(frozen=True)
class Conflict:
    """Results for one platform, program and release that disagree on the outcome. Each result is
    listed once, however many others it disagrees with, so a page grows with the results, not
    with their pairs."""

    platform: str | None
    program: str
    release: str | None
    results: tuple[Validation, ...]  # by outcome, then id


def conflicts(validations: list[Validation]) -> list[Conflict]:
    """Each platform, program and release whose current results disagree on the outcome. A
    result another names as its predecessor has been followed, so it is not current."""
    followed = {v.predecessor for v in validations if v.predecessor is not None}
    groups: dict[tuple[str | None, str, str | None], list[Validation]] = {}
    for v in validations:
        if v.id not in followed:
            groups.setdefault((v.platform, v.program, v.program_release), []).append(v)
    found = []
    for (platform, program, release), results in sorted(
        groups.items(), key=lambda item: tuple(part or "" for part in item[0])
    ):
        if len({v.outcome.result for v in results}) > 1:
            ordered = tuple(sorted(results, key=lambda v: (v.outcome.result, v.id)))
            found.append(Conflict(platform, program, release, ordered))
    return found


# --- case studies --------------------------------------------------------------------------------


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
        bound = f"within {high:g}%"
        found.append(
            Gap(
                finding,
                words=bound if low is None else f"{low:g}% to {high:g}%",
                label=bound if low is None else f"{low:g}–{high:g}%",
                tolerance_percent=limit,
                beyond_tolerance=limit is not None and high > limit,
            )
        )
    return found


# --- everything derived about one validation -----------------------------------------------------


@dataclass(frozen=True)
class Derived:
    """Every derived fact about one validation, computed once and shared by pages and data."""

    coverage: Coverage
    reconciliation: Reconciliation
    cells_ran_stated: bool
    standard_caveats: list[DerivedCaveat]
    validity_end: date | None
    validity_status: ValidityStatus
    review_stale: bool
    open_items: dict[str, list[OpenItem]]  # by checklist id
    applicable_items: dict[str, int]  # by checklist id: how many of its items apply at all
    closed_items: dict[str, int]  # by checklist id: how many that apply the evidence closes
    established: list[Statement]
    unestablished: list[Statement]
    scale: str | None  # "512 GPUs", or the range of the systems' sizes; None if not stated
    noun: str  # what one accelerator is called: GPU, TPU chip, accelerator
    nouns: str  # and more than one: GPUs, TPU chips
    submitted_by: str | None  # the submitter and whose cloud; None if the provider published it
    dated: str | None  # the date and what it is; None if undated
    figures: list[FigureRow]  # each measurement, with its system, runs and any repeat
    system_rows: list[SystemRow]
    answers: tuple[Answered, ...]  # every evidence question, in order

    # What the result's page decides its measurement table's columns and captions by, so the
    # template only shows them.
    @property
    def served(self) -> bool:
        """Whether any figure was measured in a scenario (inference), not as a time (training)."""
        return any(f.scenario for f in self.figures)

    @property
    def noted(self) -> bool:
        """Whether any figure carries a note, which the table then gives a column."""
        return any(f.measurement.note for f in self.figures)

    @property
    def against(self) -> bool:
        """Whether any figure is set against the chip maker's own result."""
        return any(f.against for f in self.figures)

    @property
    def open_counts(self) -> dict[str, int]:
        """How many items each checklist leaves open, by checklist id."""
        return {checklist: len(items) for checklist, items in self.open_items.items()}


def largest_count(validation: Validation) -> int | None:
    """The accelerator count of a result, or of its largest system; None if no source states
    one."""
    if validation.scope.accelerators is not None:
        return validation.scope.accelerators
    return max((s.accelerator_count for s in validation.systems), default=None)


def measurement_count(validation: Validation, measurement: Measurement) -> int | None:
    """The accelerators a figure was measured on: its system's count where it names one, else
    the result's own count; None where no source states it."""
    for system in validation.systems:
        if system.key == measurement.system:
            return system.accelerator_count
    return validation.scope.accelerators


_RELEASE = re.compile(r"^v?(\d+(?:\.\d+)*)$")


def release_key(release: str | None) -> tuple[int, ...] | None:
    """A program release as numbers to compare ("v5.1" -> (5, 1)), or None if it is not one."""
    match = _RELEASE.fullmatch(release or "")
    return tuple(int(part) for part in match[1].split(".")) if match else None


def newer_releases(validations: list[Validation]) -> dict[str, str]:
    """For each result whose program has a newer release on record (from any provider), that
    newest release, by validation id."""
    newest: dict[str, tuple[tuple[int, ...], str]] = {}
    for v in validations:
        key = release_key(v.program_release)
        if key is not None and (v.program not in newest or key > newest[v.program][0]):
            newest[v.program] = (key, v.program_release or "")
    found = {}
    for v in validations:
        key = release_key(v.program_release)
        if key is not None and key < newest[v.program][0]:
            found[v.id] = newest[v.program][1]
    return found


def rescored_only(validation: Validation) -> bool:
    """Whether every figure of a result is an earlier round's runs, submitted again: it
    measures nothing new, so it is never newer evidence."""
    measured = validation.measurements
    return bool(measured) and all(m.resubmitted is not None for m in measured)


def newer_own_results(
    validations: list[Validation], chips: dict[str, str | None]
) -> dict[str, Validation]:
    """For each result that a newer one of its own provider replaces, that newest one, by
    validation id: the same program and chip (`chips`, by validation id), a later release, and
    an outcome the program owner states. A newer release run by others, or only claimed by the
    provider, replaces nothing a buyer holds; nor does a result that only rescores an earlier
    round's runs."""
    newest: dict[tuple[str, str, str], tuple[tuple[int, ...], Validation]] = {}
    for v in validations:
        key, chip = release_key(v.program_release), chips[v.id]
        if key is None or chip is None or v.outcome.grade != "program-owner":
            continue
        if rescored_only(v):
            continue  # an earlier round's runs submitted again replace nothing
        group = (v.provider, v.program, chip)
        if group not in newest or key > newest[group][0]:
            newest[group] = (key, v)
    found = {}
    for v in validations:
        key, chip = release_key(v.program_release), chips[v.id]
        if key is None or chip is None:
            continue
        later = newest.get((v.provider, v.program, chip))
        if later is not None and later[0] > key:
            found[v.id] = later[1]
    return found


def caveat_sources(derived: Derived) -> tuple[str, ...]:
    """Every source the derived caveats cite: the facts that fired them, then their reasoning."""
    cited = [c.source for c in derived.standard_caveats]
    cited += [c.reasoning_source for c in derived.standard_caveats if c.reasoning_source]
    return tuple(cited)


def scale_words(validation: Validation, noun: str) -> str | None:
    """The accelerator count of a result ("512 GPUs"), or the range of the counts of its
    systems with results."""
    if validation.scope.accelerators is not None:
        return plural(noun, validation.scope.accelerators)
    ran = [s for s in validation.systems if s.results_published]
    sizes = sorted({s.accelerator_count for s in ran})
    if not sizes:
        return None
    systems = plural("system", len(ran))
    if len(sizes) == 1:
        return f"{plural(noun, sizes[0])} ({systems})"
    return f"{sizes[0]:,} to {plural(noun, sizes[-1])} ({systems})"


def derive_validation(
    validation: Validation,
    *,
    program: Program,
    platform: Platform | None,
    provider_name: str,
    suites: list[Suite],
    program_case_studies: list[CaseStudy],
    checklists: list[Checklist],
    policy: Policy,
    questions: dict[str, Question] | None = None,
) -> Derived:
    """Every derived fact about one validation. `program_case_studies` are its program's case
    studies: `derive_site` groups them once for every result."""
    questions = questions or {}
    noun = accelerator_noun(platform, validation)
    reconciliation = reconcile(validation, platform, suites)
    facts = Facts(
        validation=validation,
        program=program,
        platform=platform,
        provider_name=provider_name,
        reconciliation=reconciliation,
        case_studies=tuple(program_case_studies),
        questions=questions,
    )
    opened = {
        c.id: open_items(validation, c, platform=platform, questions=questions) for c in checklists
    }
    applicable = {c.id: len(applicable_items(validation, c)) for c in checklists}
    return Derived(
        coverage=coverage(validation),
        reconciliation=reconciliation,
        cells_ran_stated=cells_ran_stated(reconciliation),
        standard_caveats=standard_caveats(facts),
        validity_end=validity_end(validation, program),
        validity_status=validity_status(validation, program, policy),
        review_stale=review_is_stale(validation, policy),
        open_items=opened,
        applicable_items=applicable,
        closed_items={c.id: applicable[c.id] - len(opened[c.id]) for c in checklists},
        established=established_claims(validation),
        unestablished=unestablished_claims(validation),
        scale=scale_words(validation, noun),
        noun=noun,
        nouns=f"{noun}s",
        submitted_by=submitted_by(validation, provider_name),
        dated=dated(validation, program.name),
        figures=figure_rows(validation, noun),
        system_rows=system_rows(validation, noun),
        answers=answered(validation, sorted(questions.values(), key=lambda q: (q.order, q.id))),
    )
