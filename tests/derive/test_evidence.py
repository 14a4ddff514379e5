"""What a result's evidence says in tables: its own facts first, then each question group in
three states; and the rank tables sort by, which puts any stated outcome and scale above
nothing however many questions a record answers."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import AS_OF, MINIMAL

from generator.checks.loader import load_site
from generator.derive.answers import Answered
from generator.derive.evidence import FACT_WEIGHT, Evidence, evidence
from generator.derive.site_facts import derive_site
from generator.model.checklists import Question
from generator.model.policy import Policy
from generator.model.site import Site
from generator.model.validation import EvidenceAnswer, Validation


@pytest.fixture(scope="module")
def minimal() -> Site:
    return load_site(MINIMAL)


def question(site: Site, label: str, about: str, order: int) -> Question:
    base = next(iter(site.questions.values()))
    return base.model_copy(
        update={"id": label.lower().replace(" ", "-"), "label": label, "about": about,
                "order": order}
    )  # fmt: skip


def answered(site: Site, *words: tuple[str, str, str]) -> tuple[Answered, ...]:
    """Answers as (label, group, word): a word that is an answer carries a record's answer."""
    found = []
    for order, (label, about, word) in enumerate(words):
        record = (
            None
            if word in ("unanswered", "not-applicable")
            else EvidenceAnswer(answer=word, source="test-source")  # type: ignore[arg-type]
        )
        found.append(Answered(question(site, label, about, order), word, record))
    return tuple(found)


def of(site: Site, validation: Validation | None = None, scale: str | None = "64 GPUs",
       answers: tuple[Answered, ...] = (), **outcome: Any) -> Evidence:  # fmt: skip
    v = validation or site.validations["test-validation"]
    if outcome:
        v = v.model_copy(update={"outcome": v.outcome.model_copy(update=outcome)})
    return evidence(v, scale, answers)


def test_each_answer_word_lands_in_its_state_and_its_words(minimal: Site) -> None:
    e = of(minimal, answers=answered(
        minimal,
        ("Pricing", "published-figure", "yes"),
        ("Per-model throughput", "published-figure", "partial"),
        ("Energy figures", "published-figure", "not-published"),
        ("Customer guarantee", "published-figure", "no"),
        ("Reliability figures", "published-figure", "not-stated"),
        ("Margin computable", "published-figure", "not-applicable"),
        ("Deployment named", "tested-result", "unanswered"),
        ("MFU", "tested-result", "yes"),
    ))  # fmt: skip
    tested, figures = e.groups
    assert (tested.name, figures.name) == ("What was tested", "Published figures")
    assert figures.published == ("pricing",)
    assert figures.in_part == ("per-model throughput",)
    assert figures.not_published == ("energy figures",)
    assert figures.no == ("customer guarantee",)
    assert figures.silent == ("reliability figures",)
    assert figures.size == 5  # the question that does not apply is in no state
    assert tested.published == ("MFU",) and tested.silent == ("deployment named",)
    assert e.words() == (
        "Outcome and scale stated. What was tested: MFU; 1 not stated. Published figures: "
        "pricing; per-model throughput in part; 1 not published; 1 answered no; 1 not stated."
    )
    assert e.rank == 2 * FACT_WEIGHT + 2 * 2 + 1


def test_a_group_with_nothing_said_and_a_group_with_no_question(minimal: Site) -> None:
    e = of(minimal, answers=answered(
        minimal,
        ("Pricing", "published-figure", "not-stated"),
        ("Energy figures", "published-figure", "unanswered"),
    ))  # fmt: skip
    assert e.words() == "Outcome and scale stated. Published figures: none of 2 stated."


@pytest.mark.parametrize(
    ("grade", "scale", "words"),
    [
        ("provider-reported", "64 GPUs", "Outcome and scale stated."),
        ("program-owner", None, "Outcome stated; scale not stated."),
        ("not-stated", "64 GPUs", "Scale stated; outcome not established."),
        ("not-established", None, "Neither outcome nor scale stated."),
    ],
)
def test_the_results_own_facts(minimal: Site, grade: str, scale: str | None, words: str) -> None:
    e = of(minimal, scale=scale, grade=grade)
    assert e.facts_words() == words
    assert e.rank == FACT_WEIGHT * ((grade not in ("not-stated", "not-established")) + bool(scale))


def test_a_512_gpu_pass_with_nothing_published_ranks_above_nothing(real_site: Site) -> None:
    """The issue's case: Crusoe's 512-GPU pass answers no question "yes", and "N yes of M" read
    it as 0, level with a record that states nothing. Every published answer a record could
    give does not lift a result whose outcome and scale no source states above it."""
    facts = derive_site(real_site, Policy(AS_OF))
    crusoe = facts.rows["crusoe-hgx-b300-exemplar"].evidence
    assert crusoe.outcome and crusoe.scale
    assert not any(g.published for g in crusoe.groups)
    everything = tuple(
        Answered(a.question, "yes", a.answer)
        for a in facts.derived["crusoe-hgx-b300-exemplar"].answers
    )
    nothing = of(real_site, real_site.validations["crusoe-hgx-b300-exemplar"], scale=None,
                 answers=everything, grade="not-stated")  # fmt: skip
    assert crusoe.rank > nothing.rank > 0
    assert crusoe.rank > of(real_site, real_site.validations["crusoe-hgx-b300-exemplar"],
                            scale=None, grade="not-stated").rank == 0  # fmt: skip
