"""Each evidence question as it stands for one validation: the record's own answer where the
question applies to its program, and the word pages show for it."""

from __future__ import annotations

from dataclasses import dataclass

from generator.model.checklists import Question
from generator.model.validation import EvidenceAnswer, Validation
from generator.model.validation import answer_word as _answer


def applies(question: Question, program: str) -> bool:
    """Whether an evidence question applies to a program's results at all."""
    return question.programs is None or program in question.programs


@dataclass(frozen=True)
class Answered:
    """One evidence question for one validation: the word pages show ("yes", "unanswered",
    "not-applicable", ...) and the record's own answer, if it gives one that applies."""

    question: Question
    word: str
    answer: EvidenceAnswer | None


def answered(validation: Validation, questions: list[Question]) -> tuple[Answered, ...]:
    """Every evidence question, in order, as it stands for this validation."""
    found = []
    for q in questions:
        if not applies(q, validation.program):
            found.append(Answered(q, "not-applicable", None))
        else:
            found.append(Answered(q, _answer(validation, q.id), validation.evidence.get(q.id)))
    return tuple(found)
