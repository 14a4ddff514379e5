"""Wording: a checklist item's text for one validation, its slots (`SLOTS`) filled.

The checks read the slot names too (an item may hold only known slots), so this module sits below
both the checks and the derived facts.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from generator.english import listed
from generator.escape import markdown_literal
from generator.model.checklists import ChecklistItem, Question
from generator.model.providers import Platform
from generator.model.validation import Validation, accelerator_noun, answer_word


@dataclass(frozen=True)
class Wording:
    """What an item's slots read from: one validation's facts and the evidence questions."""

    validation: Validation
    platform: Platform | None
    questions: dict[str, Question]
    closed_by: tuple[str, ...]


def configurations_slot(wording: Wording) -> str:
    """The number of configurations the validation reports, e.g. 13; left out when none is."""
    configurations = wording.validation.scope.configurations
    return "" if configurations is None else str(configurations)


def platform_slot(wording: Wording) -> str:
    """The platform's name, or the chip family the result names; left out when neither is. Item
    text is Markdown, and a name is plain text: it is escaped to read as itself."""
    if wording.platform is not None:
        return markdown_literal(wording.platform.name)
    return markdown_literal(wording.validation.chip or "")


def accelerator_slot(wording: Wording) -> str:
    """What one of the result's accelerators is called: GPU, TPU chip, or accelerator where the
    result names no platform."""
    return accelerator_noun(wording.platform, wording.validation)


def location_slot(wording: Wording) -> str:
    """Where the tested deployment is, e.g. Iceland; left out when no source states it."""
    return markdown_literal(wording.validation.deployment.location or "")


def trial_slot(wording: Wording) -> str:
    """ "the offered trial" when a source states that trial runs are offered before commitment;
    "a trial" otherwise."""
    offer = wording.validation.offer
    return "the offered trial" if offer and offer.trial_before_commitment else "a trial"


def missing_slot(wording: Wording) -> str:
    """What the sources lack among the figures that would close the item, from its questions'
    answers: "the sources we hold provide neither per-model throughput nor pricing", or "only
    part of ..." where an answer is partial."""
    answers = [(q, answer_word(wording.validation, q)) for q in wording.closed_by]
    gaps = [(q, answer) for q, answer in answers if answer != "yes"]

    def asks_for(question: str) -> str:
        found = wording.questions.get(question)
        return found.asks_for if found is not None else question

    partial = [asks_for(q) for q, answer in gaps if answer == "partial"]
    absent = [asks_for(q) for q, answer in gaps if answer != "partial"]
    phrases = [f"only part of the {listed(partial, 'and')}"] if partial else []
    if len(absent) == 2 and not partial:
        phrases.append(f"neither {absent[0]} nor {absent[1]}")
    elif absent:
        phrases.append(f"no {listed(absent, 'or')}")
    return "the sources we hold provide " + ", and ".join(phrases)


# Each slot a checklist item may hold, by name: `{configurations}` in an item's text reads what
# the function returns for a validation. A slot that returns "" is left out with its space.
SLOTS: dict[str, Callable[[Wording], str]] = {
    "configurations": configurations_slot,
    "platform": platform_slot,
    "accelerator": accelerator_slot,
    "location": location_slot,
    "trial": trial_slot,
    "missing": missing_slot,
}
SLOT_PATTERN = re.compile(r"(?P<before> ?)\{(?P<name>[a-z]+(?:-[a-z]+)*)\}(?P<after> ?)")


def slots_in(text: str) -> list[str]:
    """The names of the slots an item's text holds, in order."""
    return [match["name"] for match in SLOT_PATTERN.finditer(text)]


# What each slot reads where an item is for no one result (the checklist page): plain words a
# buyer reads without decoding, never a placeholder. A slot left out reads "" here too.
GENERAL: dict[str, str] = {
    "configurations": "",
    "platform": "",
    "accelerator": "accelerator",
    "location": "",
    "trial": "a trial",
}
assert set(SLOTS) == {*GENERAL, "missing"}


def general_missing(item: ChecklistItem, questions: dict[str, Question]) -> str:
    """The `missing` slot for no one result: what a result's sources may lack."""
    wanted = [questions[q].asks_for if q in questions else q for q in item.closed_by]
    return f"a result's sources may not provide {listed(wanted, 'or')}"


def fill_slots(text: str, value: Callable[[str], str]) -> str:
    """`text` with each known slot replaced by `value(name)`; a slot that reads "" is left out
    with its space, and an unknown one kept as written (the checks reject it)."""

    def fill(match: re.Match[str]) -> str:
        name, before, after = match["name"], match["before"], match["after"]
        if name not in SLOTS:
            return match[0]
        found = value(name)
        if not found:
            return before if after else ""
        return f"{before}{found}{after}"

    return SLOT_PATTERN.sub(fill, " ".join(text.split()))


def item_wording(item: ChecklistItem, wording: Wording) -> str:
    """An item's text for one validation, its slots filled from the validation's facts."""
    return fill_slots(item.text, lambda name: SLOTS[name](wording))


def general_wording(item: ChecklistItem, questions: dict[str, Question]) -> str:
    """An item's text for no one result, as the checklist page lists it: each slot in plain
    words (`GENERAL`), the missing figures as what a result's sources may lack."""
    return fill_slots(
        item.text,
        lambda name: general_missing(item, questions) if name == "missing" else GENERAL[name],
    )
