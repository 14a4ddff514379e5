"""A case study: a published finding of a gap between a program's result and what ran,
its cause, and the lesson for a buyer."""

from __future__ import annotations

from pydantic import Field

from generator.model.base import Attributed, Record, Sourced, Strict
from generator.model.fields import Name, PlatformRef, ProgramRef, Text


class Finding(Strict):
    workload: Text
    metric: Text
    gap_low_percent: float | None = Field(ge=0, description="null when only a bound is published.")
    gap_high_percent: float = Field(ge=0)


class CaseStudy(Sourced, Record):
    title: Name
    program: ProgramRef
    platform: PlatformRef | None
    summary: Text
    findings: list[Finding] = Field(min_length=1)
    cause: Text
    fix: Text | None
    lesson: Attributed = Field(
        description="What the case shows a buyer, cited to whoever draws the lesson."
    )
