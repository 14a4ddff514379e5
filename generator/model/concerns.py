"""A buyer's concern and what each program's own documents say they check of it."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from generator.model.base import Record, Sourced
from generator.model.fields import Name, ProgramRef, Text
from generator.model.measurements import Scenario

CoverWord = Literal["checks", "in-part", "does-not"]
COVER_MEANINGS: dict[str, str] = {
    "checks": "The program's own documents say it examines this, and how.",
    "in-part": "The program examines part of it, or only at the system it ran on; the quote "
    "says which part.",
    "does-not": "The program's documents say nothing of it, or say it is left out: a result "
    "of the program tells a buyer nothing here.",
}


class ConcernAnswer(Sourced):
    """What one program's own documents say of a buyer's concern, quoted, at a named version."""

    answer: CoverWord = Field(description="checks, in-part or does-not.")
    says: Text = Field(description="In one sentence, what the program examines of the concern.")
    quote: Text = Field(
        description="The program's own words, verbatim, that the answer rests on; for "
        "does-not, the words that leave it out, or the list that does not name it."
    )
    at: Text = Field(
        description="Where the quote is and which version of the document: a file, line or "
        "section, and a commit, tag or version, e.g. 'training_rules.adoc line 220, commit "
        "d73e20f'."
    )
    categories: list[Name] = Field(
        default_factory=list,
        description="The program's own categories that bear on the concern, as it names them.",
    )
    closed_only: bool = Field(
        default=False,
        description="True where the answer holds for closed-division results only, as the "
        "program's open division relaxes what it checks (MLPerf's latency bounds, accuracy and "
        "model): a result whose every system is in the open division is not counted.",
    )
    scenarios: list[Scenario] = Field(
        default_factory=list,
        description="Where the answer holds only for figures of some scenarios (latency bounds "
        "hold in Server and Interactive, never Offline): a result with no figure in one of "
        "them is not counted. Empty for every scenario.",
    )
    since: date | None = Field(
        default=None,
        description="The earliest date the quoted version is known to be in force; null where "
        "it held for every result the site has. A result announced before it, or undated, is "
        "never counted as covered by this answer.",
    )


class Concern(Record):
    """Something a buyer must trust before renting, and what each program checks of it."""

    order: int = Field(ge=0, description="Position in tables.")
    concern: Text = Field(description="The concern in a buyer's words.")
    label: Annotated[str, StringConstraints(min_length=1, max_length=28)] = Field(
        description="A few words for table headings, e.g. Storage."
    )
    why: Text = Field(description="Why a buyer must know it before renting.")
    answers: dict[ProgramRef, ConcernAnswer] = Field(
        description="Each program's answer, by program id: every program has one."
    )
