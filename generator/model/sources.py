"""A source: the document a fact is cited to, and whose own words it is."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from generator.model.base import Record
from generator.model.fields import Day, Name, ProgramRef, ProviderRef, Text, Url

SourceKind = Literal[
    "program-document",
    "repository",
    "announcement",
    "blog",
    "analysis",
    "results",
    "rating",
    "summary",
]


class Source(Record):
    title: Name = Field(
        description="The title as published, or a plain description if it has none."
    )
    publisher: Name | None = Field(description="Who published it; null when not stated.")
    kind: SourceKind = Field(description="What sort of document it is.")
    url: Url | None = Field(description="Its address; null when we do not hold one. Never guess.")
    published: Day | None = Field(description="Publication date; null when not stated.")
    note: Text | None = Field(default=None, description="How we read it, and its limits.")
    # Whose own words a source is decides which grades it can carry: only a provider's own
    # document is provider-reported, only a program owner's is program-owner.
    provider: ProviderRef | None = Field(
        default=None,
        description="The provider whose own statement this is, if it is one. Only such a source "
        "can carry the grade provider-reported.",
    )
    program: ProgramRef | None = Field(
        default=None,
        description="The program whose owner published this, if it did. Only such a source can "
        "carry the grade program-owner.",
    )
