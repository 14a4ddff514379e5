"""The record kinds: each content folder and the pydantic model of its files.

The models (in the modules of generator/model/ named for what they hold) are the one schema of
the content, and the only statement of it. The JSON Schema that editors use is generated from
them (`cloudqual schema`), so a field is added or renamed there and nowhere else. Fields that
name another record are annotated with `Ref` (references.py), which is how the reference check
finds every reference without a list of them kept by hand.

Nullable fields without a default are deliberate: the contributor must write `null`, which the site
shows as "not stated". A missing key is an omission; `null` is a statement that no source says.
"""

from __future__ import annotations

from generator.model.base import Record
from generator.model.case_studies import CaseStudy
from generator.model.checklists import Checklist, Question
from generator.model.concerns import Concern
from generator.model.programs import Program, Suite
from generator.model.providers import Platform, Provider
from generator.model.sources import Source
from generator.model.validation import Analysis, Validation

KINDS: dict[str, type[Record]] = {
    "sources": Source,
    "programs": Program,
    "suites": Suite,
    "providers": Provider,
    "platforms": Platform,
    "validations": Validation,
    "case-studies": CaseStudy,
    "checklists": Checklist,
    "questions": Question,
    "analyses": Analysis,
    "concerns": Concern,
}
