"""Derived facts: everything the site computes from the raw records, and nothing else does.

Contributors write raw facts; these pure functions compute what follows from them, uniformly for
every validation. Templates only show the results. No derived name reuses a raw field's name.

`derive_validation` computes every fact about one validation, as one `Derived`. Computed here:
- `open_items`: the checklist items a validation leaves open, with the answers that open them,
  each worded for the validation by filling its slots (`wording.SLOTS`);
- `established_claims` / `unestablished_claims`, `cited_sources`, `caveat_sources`,
  `newest_first`;
- `scale_words`, `largest_count`, `measurement_count`: how many accelerators a result ran on.

Computed in their own modules, from the same raw facts:
- `suites`: a suite's counts, `coverage` against the full grid, and `reconcile`, the suite a
  validation most likely ran;
- `caveats.rules`: caveats that follow from the facts by rule, each citing the source of the
  fact that fired it and, apart, the source of its reasoning;
- `validity`: `validity_end`, `validity_status`, `review_is_stale`, `review_due` under a `Policy`;
- `answers`: each evidence question as it stands for a validation;
- `releases`: the newer release of a result's program, and the newer result that replaces it;
- `provider_results`: `program_coverage`, `conflicts`: a provider's results side by side;
- `case_study_gaps`: each case-study finding's gap to the reference, against the tolerance.

`site_facts.derive_site` applies these to a whole site, once, before anything is rendered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import get_args

from generator.derive.answers import Answered, answered
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
from generator.derive.validity import (
    ValidityStatus,
    review_is_stale,
    validity_end,
    validity_status,
)
from generator.derive.wording import Wording, item_wording
from generator.english import plural
from generator.model.base import Record, Statement
from generator.model.case_studies import CaseStudy
from generator.model.checklists import Applies, Checklist, ChecklistItem, Question
from generator.model.grades import UNESTABLISHED
from generator.model.measurements import Measurement
from generator.model.policy import Policy
from generator.model.programs import Program, Suite
from generator.model.providers import Platform
from generator.model.references import references
from generator.model.sources import Source
from generator.model.validation import Validation, accelerator_noun
from generator.model.validation import answer_word as _answer

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


def newest_first(validations: list[Validation]) -> list[Validation]:
    """Dated validations newest first, then the undated ones by id: none is ever dropped."""
    dated = sorted((v for v in validations if v.announced), key=lambda v: (v.announced, v.id))
    undated = sorted((v for v in validations if not v.announced), key=lambda v: v.id)
    return [*reversed(dated), *undated]


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
