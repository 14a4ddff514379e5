"""The classes every record and record part derives from: strict and closed to undeclared
fields, a record's id, and a sourced, graded statement."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from generator.model.fields import Id, SourceRef, Text
from generator.model.grades import Grade


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Record(Strict):
    id: Id = Field(description="Kebab-case id; equals the file name without .yaml.")


class Sourced(Strict):
    """Anything that states a fact: it names where the fact comes from and how strong it is."""

    source: SourceRef = Field(description="Id of the source record that states this.")
    grade: Grade = Field(description="Evidence grade, as defined on the methodology page.")


class Statement(Sourced):
    """A graded sentence. A `not-established` statement must say why it does not follow, and a
    `not-published` one what shows that the figure exists, in `reason`; a `not-stated` one may
    say what is silent."""

    text: Text = Field(description="The statement, in Markdown.")
    reason: Text | None = Field(
        default=None,
        description="Required for not-established (why it does not follow) and for not-published "
        "(what shows the figure exists); allowed for not-stated; not allowed otherwise.",
    )


class Attributed(Sourced):
    """A sentence that is one source's reading, graded like any other."""

    text: Text = Field(description="The sentence, in Markdown.")
