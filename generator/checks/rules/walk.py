"""What several rules read of a record: its statements and sourced parts, and the words that
mark a silent source or a dated suite.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from generator.load.document import Path_
from generator.model.base import Sourced, Statement
from generator.model.validation import Validation


def statements(value: Any, loc: Path_ = ()) -> Iterator[tuple[Statement, Path_]]:
    """Every graded statement inside a record, with where it sits."""
    if isinstance(value, Statement):
        yield value, loc
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from statements(getattr(value, name), (*loc, name))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from statements(item, (*loc, index))


def sourced(value: Any, loc: Path_ = ()) -> Iterator[tuple[Sourced, Path_]]:
    """Every graded, sourced part of a record (the record itself included), with where it sits."""
    if isinstance(value, Sourced):
        yield value, loc
    if isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from sourced(getattr(value, name), (*loc, name))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from sourced(item, (*loc, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from sourced(item, (*loc, key))


# Words in a not-published reason or answer that say the sources are silent, which is what
# not-stated means: not-published says the figure exists and is withheld.
SILENCE = re.compile(
    r"\b(not stated|no source|sources we hold|silent|(?:does|do) not say|not known|unknown|"
    r"in passing|in what we (?:read|hold)|not in (?:the|what))\b",
    re.IGNORECASE,
)


# A suite or release called current or latest: it goes stale, and a source reads it at a commit.
DATED = re.compile(
    r"\b(?:current|latest|newest)\b(?:\s+[\w-]+){0,2}?\s+(?:suite|release)\b",
    re.IGNORECASE,
)


DIGITS = re.compile(r"\d+")


def duplicate_ids(items: list[Any], loc: Path_) -> Iterator[tuple[str, Path_]]:
    """Items of a list that repeat an earlier item's `id`."""
    seen: set[str] = set()
    for index, item in enumerate(items):
        if item.id in seen:
            yield item.id, (*loc, index, "id")
        seen.add(item.id)


def resubmitted_workloads(validation: Validation) -> dict[str, str]:
    """The workloads of a result whose every figure is an earlier round's submitted again, with
    that round."""
    rounds: dict[str, set[str | None]] = {}
    for m in validation.measurements:
        rounds.setdefault(m.workload, set()).add(m.resubmitted.round if m.resubmitted else None)
    found = {}
    for workload, repeated in rounds.items():
        if len(repeated) == 1 and (only := next(iter(repeated))) is not None:
            found[workload] = only
    return found
