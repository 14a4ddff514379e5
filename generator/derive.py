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
- `established_claims` / `unestablished_claims`, `cited_sources`, `gaps`, `newest_first`;
- `program_coverage`, `conflicts`: a provider's results side by side across programs.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Literal, get_args

from . import benchmark_caveats
from .model import (
    UNESTABLISHED,
    Applies,
    CaseStudy,
    Checklist,
    ChecklistItem,
    EvidenceAnswer,
    Measurement,
    Platform,
    Program,
    Question,
    Record,
    Sourced,
    Statement,
    Suite,
    Validation,
    references,
)

# Evidence questions the rules read. A rule treats a question the content lacks as unanswered.
MATRIX = "matrix-published"
GENERATIONAL = "generational-comparison"
ENERGY = "energy-published"
DEPLOYMENT = "deployment-tested"
GUARANTEE = "customer-guarantee"


@dataclass(frozen=True)
class Policy:
    """When the site is built, and how near an end or how old a review has to be to be flagged."""

    as_of: date
    expiry_warning_days: int = 90
    review_max_age_days: int = 365


# --- suites and coverage -------------------------------------------------------------------------


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
    assert suite.stated_counts is not None  # checks.py rejects a suite with neither
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
    """The chip a result is for: its platform's, or the chip family it names without one."""
    return platform.chip if platform is not None else validation.chip


def reconcile(
    validation: Validation, platform: Platform | None, suites: list[Suite]
) -> Reconciliation:
    """Resolve a validation's counts against the program's suites for its chip and release."""
    stated = next((s for s in suites if s.id == validation.stated_suite), None)
    chip = chip_of(validation, platform)
    same_chip = sorted(
        (s for s in suites if s.program == validation.program and s.chip == chip),
        key=lambda s: s.id,
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


# --- standard caveats ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Facts:
    """What the caveat rules read about one validation."""

    validation: Validation
    program: Program
    platform: Platform | None
    provider_name: str
    reconciliation: Reconciliation
    case_studies: tuple[CaseStudy, ...]
    questions: dict[str, Question] = field(default_factory=dict)


# What a rule finds: the caveat's text, and the sourced part of a record that states the fact.
Finding = tuple[str, Sourced]


@dataclass(frozen=True)
class DerivedCaveat:
    """A caveat the site adds by rule. The fact that fired it and the reasoning it applies are
    cited apart: a provider's or program owner's document is cited only for what it states."""

    rule: str  # the rule's id; authored caveats may not reuse it
    text: str
    source: str  # where the fact that fired the rule is stated
    grade: str
    reasoning_source: str | None = None  # where the reasoning comes from; None: the site's own
    reasoning_grade: str | None = None


def _lower_first(text: str) -> str:
    """Lower a sentence's capital so it reads inside another sentence ("Twice" -> "twice")."""
    return text[0].lower() + text[1:] if text[1:2].islower() else text


def _answer(validation: Validation, question: str) -> str:
    answer = validation.evidence.get(question)
    return answer.answer if answer is not None else "unanswered"


def counts_without_matrix(facts: Facts) -> Finding | None:
    """A count of configurations with no published matrix hides which model ran in which format."""
    v, grid = facts.validation, coverage(facts.validation)
    if v.scope.configurations is None or _answer(v, MATRIX) == "yes":
        return None
    reading = (
        f" Every model in every precision would be {grid.full_grid} combinations, so that is not "
        "what the count says."
        if grid.grid_exceeds_reported
        else ""
    )
    return (
        f"{v.scope.models} models in {v.scope.configurations} configurations are reported without "
        f"the model-by-precision matrix: which model ran in which precision is not known.{reading}",
        v.scope,
    )


def specifications_not_speedups(facts: Facts) -> Finding | None:
    """Specification multipliers are inputs, not speedups, unless a matched comparison exists."""
    platform = facts.platform
    if platform is None or not platform.specifications:
        return None
    if _answer(facts.validation, GENERATIONAL) == "yes":
        return None
    claims = "; ".join(_lower_first(s.text.rstrip(".")) for s in platform.specifications)
    return (
        f"{platform.name}'s specification claims ({claims}) are platform comparisons, not "
        "measured speedups of this validation's workloads.",
        platform.specifications[0],
    )


def one_deployment(facts: Facts) -> Finding | None:
    """A result from one named deployment does not speak for every region."""
    deployment = facts.validation.deployment
    if deployment.location is None:
        return None
    capacity = f" or of future {facts.platform.name} capacity" if facts.platform else ""
    return (
        f"The result concerns the {deployment.location} deployment; it is not a measurement of "
        f"every {facts.provider_name} region{capacity}.",
        deployment,
    )


def renewable_not_efficiency(facts: Facts) -> Finding | None:
    """An energy source is not an energy measurement."""
    v = facts.validation
    if v.deployment.energy_source is None or _answer(v, ENERGY) == "yes":
        return None
    return (
        f"The energy source ({v.deployment.energy_source}) describes the electricity powering the "
        "cluster. The sources we hold give no energy measurements, so it is not an efficiency "
        "figure.",
        v.deployment,
    )


def threshold_not_sla(facts: Facts) -> Finding | None:
    """A program owner's pass threshold is a qualification standard, not a customer SLA."""
    tolerance = facts.program.tolerance
    if tolerance is None or facts.validation.outcome.result != "pass":
        return None
    if _answer(facts.validation, GUARANTEE) == "yes":
        return None
    return (
        f"{facts.program.name}'s threshold, performance within {tolerance.percent:g}% of "
        f"{tolerance.against}, is {facts.program.owner}'s qualification standard, not a "
        "service-level agreement for customer allocations.",
        tolerance,
    )


def dense_only_suite(facts: Facts) -> Finding | None:
    """A dense-only suite cannot expose problems that only mixture-of-experts workloads show."""
    suite = facts.reconciliation.suite
    if suite is not None and suite.workloads is not None:
        architectures = {w.architecture for w in suite.workloads}
    else:
        architectures = set(facts.validation.scope.architectures)
    if architectures != {"dense"}:
        return None
    moe = [c for c in facts.case_studies if any("MoE" in f.workload for f in c.findings)]
    evidence = f" {moe[0].summary}" if moe else ""
    return (
        "Every workload tested is dense, so the result cannot expose problems that only "
        f"mixture-of-experts workloads show.{evidence}",
        moe[0] if moe else facts.validation.scope,
    )


def suite_inferred(facts: Facts) -> Finding | None:
    """When the provider names neither suite nor release, the matrix is only inferred."""
    r = facts.reconciliation
    if r.basis != "inferred-from-counts" or r.suite is None:
        return None
    return (
        f"The provider stated neither its suite nor its recipe release. The {r.suite.chip} suite "
        f"at {r.suite.release} is inferred because its counts match exactly; which of its cells "
        "ran is not published.",
        facts.validation.scope,
    )


def suite_not_reconciled(facts: Facts) -> Finding | None:
    """Counts that no recorded suite explains cannot be reconciled: say so rather than guess."""
    r, scope = facts.reconciliation, facts.validation.scope
    if r.basis not in ("not-found", "ambiguous") or scope.configurations is None:
        return None
    why = (
        "several recorded suites match them"
        if r.basis == "ambiguous"
        else f"no recorded {facts.program.name} suite for {r.chip} matches them"
    )
    return (
        f"The reported counts ({scope.models} models, {scope.configurations} configurations) "
        f"cannot be reconciled: {why}, so which workloads ran is not known.",
        scope,
    )


def suite_not_stated(facts: Facts) -> Finding | None:
    """With neither a suite nor counts, the program's suites for the chip are all that is known."""
    r = facts.reconciliation
    if r.basis != "no-counts" or not r.candidates:
        return None
    suites = "; ".join(
        f"{suite.release}, {counts.models} models in {counts.configurations} configurations"
        for suite, counts, _ in r.candidates
    )
    return (
        f"The provider stated neither its suite nor its counts. The recorded "
        f"{facts.program.name} suites for {r.chip} are: {suites}. Which of them ran, and which "
        "of its workloads, is not stated.",
        facts.validation.scope,
    )


@dataclass(frozen=True)
class Rule:
    """A caveat rule, and the evidence question whose `why` is its reasoning: the caveat cites
    that question's source for the reasoning, apart from the source of the fact. A rule may cite
    instead a program owner's document (`cites`, a source id) whose rules are its reasoning. A
    rule with neither applies the site's own arithmetic, or cites the case study it quotes."""

    find: Callable[[Facts], Finding | None]
    reasoning: str | None = None
    cites: str | None = None

    @property
    def doc(self) -> str:
        return " ".join((self.find.__doc__ or "").split())


# Each rule by its id, in the order pages list them. Authored caveats may not reuse these ids.
RULES: dict[str, Rule] = {
    "counts-without-matrix": Rule(counts_without_matrix, MATRIX),
    "suite-inferred": Rule(suite_inferred),
    "suite-not-reconciled": Rule(suite_not_reconciled),
    "suite-not-stated": Rule(suite_not_stated),
    "dense-only-suite": Rule(dense_only_suite),
    "specifications-not-speedups": Rule(specifications_not_speedups, GENERATIONAL),
    "one-deployment": Rule(one_deployment, DEPLOYMENT),
    "renewable-not-efficiency": Rule(renewable_not_efficiency, ENERGY),
    "threshold-not-sla": Rule(threshold_not_sla, GUARANTEE),
    "cloud-is-rentability": Rule(
        benchmark_caveats.cloud_is_rentability, cites=benchmark_caveats.SUBMISSION_RULES
    ),
    "time-at-its-size": Rule(
        benchmark_caveats.time_at_its_size, cites=benchmark_caveats.TRAINING_RULES
    ),
    "closed-division-fixes-model": Rule(
        benchmark_caveats.closed_division_fixes_model, cites=benchmark_caveats.TRAINING_RULES
    ),
    "benchmark-not-workload": Rule(
        benchmark_caveats.benchmark_not_workload, cites=benchmark_caveats.TRAINING_RULES
    ),
    "invalid-results": Rule(
        benchmark_caveats.invalid_results, cites=benchmark_caveats.TRAINING_RULES
    ),
}


def standard_caveats(facts: Facts) -> list[DerivedCaveat]:
    """Every caveat whose rule fires for these facts, in rule order."""
    caveats = []
    for rule_id, rule in RULES.items():
        finding = rule.find(facts)
        if finding is None:
            continue
        text, fact = finding
        reasoning = facts.questions.get(rule.reasoning or "")
        if rule.cites is not None:
            cited: tuple[str | None, str | None] = (rule.cites, "program-owner")
        elif reasoning is not None:
            cited = (reasoning.source, reasoning.grade)
        else:
            cited = (None, None)
        caveats.append(DerivedCaveat(rule_id, text, fact.source, fact.grade, *cited))
    return caveats


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


@dataclass(frozen=True)
class Wording:
    """What an item's slots read from: one validation's facts and the evidence questions."""

    validation: Validation
    platform: Platform | None
    questions: dict[str, Question]
    closed_by: tuple[str, ...]


def _joined(parts: list[str], word: str) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} {word} {parts[-1]}"


def configurations_slot(wording: Wording) -> str:
    """The number of configurations the validation reports, e.g. 13; left out when none is."""
    configurations = wording.validation.scope.configurations
    return "" if configurations is None else str(configurations)


def platform_slot(wording: Wording) -> str:
    """The platform's name, or the chip family the result names; left out when neither is."""
    if wording.platform is not None:
        return wording.platform.name
    return wording.validation.chip or ""


def location_slot(wording: Wording) -> str:
    """Where the tested deployment is, e.g. Iceland; left out when no source states it."""
    return wording.validation.deployment.location or ""


def trial_slot(wording: Wording) -> str:
    """ "the offered trial" when a source states that trial runs are offered before commitment;
    "a trial" otherwise."""
    offer = wording.validation.offer
    return "the offered trial" if offer and offer.trial_before_commitment else "a trial"


def missing_slot(wording: Wording) -> str:
    """What the sources lack among the figures that would close the item, from its questions'
    answers: "the sources we hold provide neither per-model throughput nor pricing", or "only
    part of ..." where an answer is partial."""
    answers = [(q, _answer(wording.validation, q)) for q in wording.closed_by]
    gaps = [(q, answer) for q, answer in answers if answer != "yes"]

    def asks_for(question: str) -> str:
        found = wording.questions.get(question)
        return found.asks_for if found is not None else question

    partial = [asks_for(q) for q, answer in gaps if answer == "partial"]
    absent = [asks_for(q) for q, answer in gaps if answer != "partial"]
    phrases = [f"only part of the {_joined(partial, 'and')}"] if partial else []
    if len(absent) == 2 and not partial:
        phrases.append(f"neither {absent[0]} nor {absent[1]}")
    elif absent:
        phrases.append(f"no {_joined(absent, 'or')}")
    return "the sources we hold provide " + ", and ".join(phrases)


# Each slot a checklist item may hold, by name: `{configurations}` in an item's text reads what
# the function returns for a validation. A slot that returns "" is left out with its space.
SLOTS: dict[str, Callable[[Wording], str]] = {
    "configurations": configurations_slot,
    "platform": platform_slot,
    "location": location_slot,
    "trial": trial_slot,
    "missing": missing_slot,
}
SLOT_PATTERN = re.compile(r"(?P<before> ?)\{(?P<name>[a-z]+(?:-[a-z]+)*)\}(?P<after> ?)")


def slots_in(text: str) -> list[str]:
    """The names of the slots an item's text holds, in order."""
    return [match["name"] for match in SLOT_PATTERN.finditer(text)]


def item_wording(item: ChecklistItem, wording: Wording | None) -> str:
    """An item's text for one validation, its slots filled; for none, each slot as [name]."""

    def fill(match: re.Match[str]) -> str:
        name, before, after = match["name"], match["before"], match["after"]
        if name not in SLOTS:  # checks.py rejects an unknown slot; keep the text as written
            return match[0]
        value = SLOTS[name](wording) if wording is not None else f"[{name}]"
        if not value:
            return before if after else ""
        return f"{before}{value}{after}"

    return SLOT_PATTERN.sub(fill, " ".join(item.text.split()))


@dataclass(frozen=True)
class OpenItem:
    item: ChecklistItem
    because: tuple[tuple[str, str], ...]  # (question id, the validation's answer or "unanswered")
    wording: str  # the item's text, its slots filled for this validation


def applicable_items(validation: Validation, checklist: Checklist) -> list[ChecklistItem]:
    """The checklist items that apply to this validation at all (`APPLIES`)."""
    return [item for item in checklist.items if APPLIES[item.applies_when](validation)]


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
            result.append(OpenItem(item, because, item_wording(item, wording)))
    return result


# --- claims, sources -----------------------------------------------------------------------------


def established_claims(validation: Validation) -> list[Statement]:
    return [c for c in validation.claims if c.grade not in UNESTABLISHED]


def unestablished_claims(validation: Validation) -> list[Statement]:
    return [c for c in validation.claims if c.grade in UNESTABLISHED]


def cited_sources(*records: Record, extra: tuple[str, ...] = ()) -> list[str]:
    """Ids of every source the records cite, then `extra`, each once, in first-cited order."""
    cited: dict[str, None] = {}
    for record in records:
        for kind, target, _ in references(record, type(record)):
            if kind == "sources":
                cited.setdefault(target)
    for source in extra:
        cited.setdefault(source)
    return list(cited)


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
            answer = validation.evidence.get(q.id)
            found.append(Answered(q, answer.answer if answer else "unanswered", answer))
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


def conflicts(validations: list[Validation]) -> list[tuple[Validation, Validation]]:
    """Pairs of results for the same platform, program and release that disagree on the outcome,
    where neither is recorded as the other's predecessor."""
    found = []
    for index, first in enumerate(validations):
        for second in validations[index + 1 :]:
            same = (first.platform, first.program, first.program_release) == (
                second.platform,
                second.program,
                second.program_release,
            )
            related = second.id == first.predecessor or first.id == second.predecessor
            if same and not related and first.outcome.result != second.outcome.result:
                found.append((first, second))
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
    established: list[Statement]
    unestablished: list[Statement]
    scale: str | None  # "512 GPUs", or the range of the systems' sizes; None if not stated
    answers: tuple[Answered, ...]  # every evidence question, in order


def largest_gpus(validation: Validation) -> int | None:
    """The GPU count of a result, or of its largest system; None if no source states one."""
    if validation.scope.gpus is not None:
        return validation.scope.gpus
    return max((s.nodes * s.accelerators_per_node for s in validation.systems), default=None)


def measurement_gpus(validation: Validation, measurement: Measurement) -> int | None:
    """The GPUs a figure was measured on: its system's count where it names one, else the
    result's own GPU count; None where no source states it."""
    for system in validation.systems:
        if system.key == measurement.system:
            return system.nodes * system.accelerators_per_node
    return validation.scope.gpus


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


def caveat_sources(derived: Derived) -> tuple[str, ...]:
    """Every source the derived caveats cite: the facts that fired them, then their reasoning."""
    cited = [c.source for c in derived.standard_caveats]
    cited += [c.reasoning_source for c in derived.standard_caveats if c.reasoning_source]
    return tuple(cited)


def scale_words(validation: Validation) -> str | None:
    """The GPU count of a result, or the range of its systems' counts."""
    if validation.scope.gpus is not None:
        return f"{validation.scope.gpus:,} GPUs"
    sizes = sorted({s.nodes * s.accelerators_per_node for s in validation.systems})
    if not sizes:
        return None
    count = len(validation.systems)
    systems = f"{count} system{'s' if count != 1 else ''}"
    if len(sizes) == 1:
        return f"{sizes[0]:,} GPUs ({systems})"
    return f"{sizes[0]:,} to {sizes[-1]:,} GPUs ({systems})"


def derive_validation(
    validation: Validation,
    *,
    program: Program,
    platform: Platform | None,
    provider_name: str,
    suites: list[Suite],
    case_studies: list[CaseStudy],
    checklists: list[Checklist],
    policy: Policy,
    questions: dict[str, Question] | None = None,
) -> Derived:
    questions = questions or {}
    reconciliation = reconcile(validation, platform, suites)
    facts = Facts(
        validation=validation,
        program=program,
        platform=platform,
        provider_name=provider_name,
        reconciliation=reconciliation,
        case_studies=tuple(c for c in case_studies if c.program == validation.program),
        questions=questions,
    )
    return Derived(
        coverage=coverage(validation),
        reconciliation=reconciliation,
        cells_ran_stated=cells_ran_stated(reconciliation),
        standard_caveats=standard_caveats(facts),
        validity_end=validity_end(validation, program),
        validity_status=validity_status(validation, program, policy),
        review_stale=review_is_stale(validation, policy),
        open_items={
            c.id: open_items(validation, c, platform=platform, questions=questions)
            for c in checklists
        },
        applicable_items={c.id: len(applicable_items(validation, c)) for c in checklists},
        established=established_claims(validation),
        unestablished=unestablished_claims(validation),
        scale=scale_words(validation),
        answers=answered(validation, sorted(questions.values(), key=lambda q: (q.order, q.id))),
    )
