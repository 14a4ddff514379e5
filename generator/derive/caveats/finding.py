"""What a caveat rule reads about one validation, and what it finds: shared by the general rules
(rules.py) and the benchmark rules (benchmark.py), which the registry in rules.py holds both of."""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.derive.suites import Reconciliation
from generator.model.base import Sourced
from generator.model.case_studies import CaseStudy
from generator.model.checklists import Question
from generator.model.programs import Program
from generator.model.providers import Platform
from generator.model.validation import Validation


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
Trigger = tuple[str, Sourced]
