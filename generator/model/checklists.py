"""A buyer's checklist and the evidence questions: which questions' answers close which
check, and which programs each applies to."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from generator.model.base import Record, Sourced, Strict
from generator.model.fields import Id, Name, ProgramRef, QuestionRef, Text

Applies = Literal["every-validation", "energy-claim"]
# What an evidence question is about. Only a question about a published figure can close a
# checklist item: knowing what was tested never settles what a buyer's own allocation does.
About = Literal["published-figure", "tested-result"]


class ChecklistItem(Strict):
    id: Id
    text: Text = Field(
        description="The check, in the source's words. Facts of one validation are written as "
        "slots that the site fills for each validation, e.g. {configurations} or {location}; "
        "the checklist page lists them. Never write one validation's number here."
    )
    applies_when: Applies = Field(
        description="every-validation, or energy-claim: only for validations that state an "
        "energy source."
    )
    closed_by: list[QuestionRef] = Field(
        description="Evidence questions about a published figure whose yes answers, together, "
        "settle the check itself; an empty list means no published evidence can close it."
    )
    # Optional, unlike most fields: content written before items named programs reads as it
    # did (every item for every program), so the changelog and `cloudqual diff` read old
    # revisions.
    programs: list[ProgramRef] | None = Field(
        default=None,
        description="The programs whose results the item applies to; null or left out for "
        "every program. A check that asks for what a program's results never hold (a "
        "model-and-precision matrix, of a rating) is left out of that program's checklists.",
    )


class Checklist(Sourced, Record):
    title: Name
    summary: Text
    items: list[ChecklistItem] = Field(min_length=1)


class Question(Sourced, Record):
    """An evidence question. Its `why` is reasoning, cited to `source` at `grade`."""

    order: int = Field(ge=0, description="Position in tables.")
    question: Text
    label: Annotated[str, StringConstraints(min_length=1, max_length=28)] = Field(
        description="A few words for chart axes, e.g. Pricing."
    )
    asks_for: Text = Field(
        description="What a yes puts in a buyer's hands, as a noun phrase, e.g. 'pricing'."
    )
    about: About = Field(
        description="published-figure, or tested-result (what was tested, e.g. the deployment); "
        "only a published-figure question can close a checklist item."
    )
    programs: list[ProgramRef] | None = Field(
        description="The programs whose results the question applies to; null for every "
        "program. Elsewhere the site shows it as not applicable, never as a gap: the margin "
        "above a threshold means nothing for a program with no threshold."
    )
    why: Text
