"""What a buyer reads of each result, as plain values two builds can be compared on: the
outcome, grades, scale, dates, validity, derived caveats, open checklist items, measurements,
suite coverage and the result's row in every table. Made from the derived facts, so a diff
says what moved on the site, not what moved in the YAML."""

from __future__ import annotations

from datetime import date

from pydantic import BaseModel, ConfigDict

from generator.derive import validation as derive
from generator.derive.answers import Answered
from generator.derive.provenance import workload_words
from generator.derive.site_facts import SiteFacts
from generator.model.measurements import Measurement
from generator.model.site import Site
from generator.model.validation import Validation


class Figure(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    value: str  # as pages show it: "11.64 min"
    source: str
    grade: str
    # What else its row shows, each part by its name: what it was measured under, beside whose
    # (against the chip maker's own), and its note. A change names only the parts that moved.
    shown: dict[str, str] = {}


class ResultFacts(BaseModel):
    """One result, as its page, its rows and its downloads show it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    title: str
    summary: str
    outcome: str
    outcome_grade: str
    scale: str | None
    announced: date | None
    last_reviewed: date
    validity_end: date | None
    validity_status: str
    # Each statement's grade, by its text: a changed text is one removed and one added.
    statements: dict[str, str]
    caveats: dict[str, str]  # derived caveats by rule id, with their text
    authored_caveats: dict[str, str]  # the record's own caveats by id, with their text
    open_items: dict[str, list[str]]  # by checklist id, the open items' ids
    # By checklist id, the ids of the items that apply to the result at all: an open item that
    # stops applying is not one the evidence closed.
    applicable_items: dict[str, list[str]] = {}
    measurements: dict[str, Figure]  # by what ran, benchmark, scenario, system and metric
    coverage: str  # the suite the result is read against, and how it was found
    row: dict[str, str | int | None]  # the result's row in every table (the scorecard cell)
    sources: list[str]  # every source it cites
    # What else its page shows, each as the words a reader compares: the outcome's sentence,
    # where it ran, what the provider offers, each evidence answer with its detail, the
    # results it lists as invalid, and each cited source's title, address and date.
    outcome_text: str = ""
    deployment: str = ""
    offer: str | None = None
    evidence: dict[str, str] = {}
    invalid: list[str] = []
    cited: dict[str, str] = {}
    # What a buyer reads for each subject a change can name (an open item's sentence, a
    # figure's name, a cited source's title, an evidence question; "" for a caveat, whose text
    # is the change): the changelog speaks of them so, `cloudqual diff` by their ids. No
    # default, so facts kept by a build before it are read again rather than left unnamed.
    labels: dict[str, str]


def _measurement_key(m: Measurement) -> str:
    """What a figure is of: two figures of one result never share it (`cloudqual check`
    refuses a repeated one), so no change hides behind another."""
    parts = [workload_words(m), m.benchmark, m.scenario, m.system, m.metric]
    return " · ".join(part for part in parts if part is not None)


def _answer_words(answered: Answered) -> str:
    """An evidence answer as its page shows it: the word, its detail, and its source."""
    answer = answered.answer
    if answer is None:
        return answered.word
    detail = f": {answer.detail}" if answer.detail else ""
    return f"{answered.word}{detail} ({answer.source})"


def _figure_words(m: Measurement) -> str:
    """A figure as a buyer names it: what ran, under which scenario, which metric, on which of
    the result's systems."""
    under = f", {m.scenario}" if m.scenario else ""
    system = f", system {m.system}" if m.system else ""
    return f"{workload_words(m)}{under} ({m.metric}{system})"


# The parts of a figure's row besides its value, as a change names them.
SHOWN_PARTS = ("measured under", "against the chip maker's own", "note")


def _shown_parts(
    figure_scenario: str | None, against: str | None, note: str | None
) -> dict[str, str]:
    """What a figure's row shows besides its value, by each part's name."""
    parts = dict(zip(SHOWN_PARTS, (figure_scenario, against, note), strict=True))
    return {name: part for name, part in parts.items() if part}


def _words(*parts: object) -> str:
    return " · ".join("not stated" if part is None else str(part) for part in parts)


def result_facts(site: Site, facts: SiteFacts, validation: Validation) -> ResultFacts:
    derived = facts.derived[validation.id]
    reconciliation = derived.reconciliation
    suite = reconciliation.suite
    statements: dict[str, str] = {}
    for statement in validation.claims:
        statements[statement.text] = statement.grade
    measurements = {}
    labels: dict[str, str] = {}
    for figure in derived.figures:
        m = figure.measurement
        measurements[_measurement_key(m)] = Figure(
            value=figure.value,
            source=m.source,
            grade=m.grade,
            shown=_shown_parts(figure.scenario, figure.against, m.note),
        )
        labels[_measurement_key(m)] = _figure_words(m)
        for part in SHOWN_PARTS:
            labels[f"{_measurement_key(m)} · {part}"] = f"{_figure_words(m)}, {part}"
    deployment, offer = validation.deployment, validation.offer
    cited = derive.cited_sources(site.sources, validation)
    row = facts.rows[validation.id]
    for checklist, items in derived.open_items.items():
        labels |= {f"{checklist}: {o.item.id}": o.wording for o in items}
    labels |= {s.id: s.title for s in cited}
    labels |= {a.question.id: a.question.question for a in derived.answers}
    labels |= {c.rule: "" for c in derived.standard_caveats}
    labels |= {c.id: "" for c in validation.caveats}
    return ResultFacts(
        id=validation.id,
        title=facts.titles[validation.id],
        summary=" ".join(validation.summary.split()),
        outcome=validation.outcome.result,
        outcome_grade=validation.outcome.grade,
        scale=derived.scale,
        announced=validation.announced,
        last_reviewed=validation.last_reviewed,
        validity_end=derived.validity_end,
        validity_status=derived.validity_status,
        statements=statements,
        caveats={c.rule: c.text for c in derived.standard_caveats},
        authored_caveats={c.id: c.text for c in validation.caveats},
        open_items={c: [o.item.id for o in items] for c, items in derived.open_items.items()},
        applicable_items={
            c.id: [i.id for i in derive.applicable_items(validation, c)]
            for c in site.checklists.values()
        },
        measurements=measurements,
        coverage=(
            f"{suite.chip} suite, {suite.release} ({reconciliation.basis})"
            if suite is not None
            else f"no suite ({reconciliation.basis})"
        ),
        row={
            "provider": row.provider,
            "program": row.program,
            "chip": row.chip,
            "accelerators": row.accelerators,
            "evidence": row.evidence.words(),
        },
        sources=[s.id for s in cited],
        outcome_text=" ".join(validation.outcome.text.split()),
        deployment=_words(
            deployment.location, deployment.energy_source, deployment.environment, deployment.grade
        ),
        offer=None
        if offer is None
        else _words(offer.available_now, offer.trial_before_commitment, offer.grade),
        evidence={a.question.id: _answer_words(a) for a in derived.answers},
        invalid=[
            _words(r.system, r.benchmark, r.scenario, r.reason, r.grade) for r in validation.invalid
        ],
        cited={s.id: _words(s.title, s.publisher, s.url, s.published) for s in cited},
        labels=labels,
    )


def snapshot(site: Site, facts: SiteFacts) -> dict[str, ResultFacts]:
    """Every result's facts, by id."""
    return {v.id: result_facts(site, facts, v) for v in facts.validations}
