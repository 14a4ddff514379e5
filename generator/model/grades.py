"""The one vocabulary of evidence grades and answers, with what each word means."""

from __future__ import annotations

from typing import Literal

Grade = Literal[
    "independent",
    "program-owner",
    "provider-reported",
    "secondary",
    "not-published",
    "not-stated",
    "not-established",
]
GRADES: tuple[Grade, ...] = Grade.__args__  # type: ignore[attr-defined]

# Grades of a statement that the evidence does not support; they go under "does not establish".
UNESTABLISHED: tuple[Grade, ...] = ("not-established", "not-published", "not-stated")
# Kinds of source that report or reason about other documents: they carry only `secondary` or
# an unestablished grade, whoever they report.
REPORTING_KINDS = ("analysis", "summary")

Answer = Literal["yes", "partial", "no", "not-published", "not-stated"]
ANSWERS: tuple[Answer, ...] = Answer.__args__  # type: ignore[attr-defined]

# The one vocabulary of grades and answers, with what each means: pages, the methodology and
# the JSON Schema all show these words.
GRADE_MEANINGS: dict[str, str] = {
    "independent": "Measured or confirmed by a party other than the provider and program owner.",
    "program-owner": "Stated by the program owner, e.g. NVIDIA's own documents.",
    "provider-reported": "Stated by the provider about itself.",
    "secondary": "Reached through someone else's summary.",
    "not-published": "The figure exists, but nobody has published it.",
    "not-stated": "No source we hold states it, or says that it exists.",
    "not-established": "Does not follow from the published evidence; the reason is given.",
}
ANSWER_MEANINGS: dict[str, str] = {
    "yes": "The sources publish it.",
    "partial": "The sources publish part of it.",
    "no": "The sources show it is not so, or cannot be.",
    "not-published": "It exists, but the sources do not publish it.",
    "not-stated": "The sources we hold are silent.",
}
# What pages show where a validation gives no answer: none recorded, or a question that does not
# apply to its program. Neither is an answer a contributor can write.
SHOWN_MEANINGS: dict[str, str] = {
    **ANSWER_MEANINGS,
    "unanswered": "The record gives no answer.",
    "not-applicable": "The question does not apply to this program's results.",
}
assert set(GRADE_MEANINGS) == set(GRADES) and set(ANSWER_MEANINGS) == set(ANSWERS)
