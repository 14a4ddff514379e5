"""The checked site: every record by kind and id, and the file each came from."""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.model.base import Strict
from generator.model.case_studies import CaseStudy
from generator.model.checklists import Checklist, Question
from generator.model.concerns import Concern
from generator.model.programs import Program, Suite
from generator.model.providers import Platform, Provider
from generator.model.sources import Source
from generator.model.validation import Analysis, Validation
from generator.problems import Problem


@dataclass(frozen=True)
class Site:
    """Every record, checked, by kind and id; and the file each came from, as shown to users.

    Each kind's records come in id order, so every page lists them the same way.
    """

    sources: dict[str, Source]
    programs: dict[str, Program]
    suites: dict[str, Suite]
    providers: dict[str, Provider]
    platforms: dict[str, Platform]
    validations: dict[str, Validation]
    case_studies: dict[str, CaseStudy]
    checklists: dict[str, Checklist]
    questions: dict[str, Question]
    analyses: dict[str, Analysis]
    concerns: dict[str, Concern]
    files: dict[tuple[str, str], str] = field(repr=False)
    warnings: list[Problem] = field(default_factory=list, repr=False)
    # A hash of the bytes each record was read from (a validation's with its analysis'): two
    # loads give a record the same digest only if its file is unchanged.
    digests: dict[tuple[str, str], str] = field(default_factory=dict, repr=False)
    # Each import's mapping (model/imports.py), by program id: the rounds it reads, and how.
    imports: dict[str, Strict] = field(default_factory=dict, repr=False)

    def file_of(self, kind: str, record_id: str) -> str:
        return self.files[(kind, record_id)]
