"""A checklist's items: unique, worded with known slots, closed by known questions."""

from __future__ import annotations

from generator.checks.rules.context import Context
from generator.checks.rules.walk import DIGITS
from generator.checks.schema import suggest
from generator.derive.wording import SLOT_PATTERN, SLOTS, slots_in
from generator.load.document import Path_
from generator.model.checklists import Checklist, Question


def check_checklist(ctx: Context, checklist: Checklist) -> None:
    """Each item keeps its point: only a published figure can close it, and its text carries
    every validation's own facts through slots, never one validation's numbers."""
    questions = ctx.records.get("questions", {})
    for index, item in enumerate(checklist.items):
        at: Path_ = ("items", index)
        for position, question_id in enumerate(item.closed_by):
            question = questions.get(question_id)
            if isinstance(question, Question) and question.about != "published-figure":
                ctx.report(
                    "checklists",
                    checklist.id,
                    (*at, "closed_by", position),
                    f"expected a question about a published figure, found {question_id!r}, "
                    f"which is about the {question.about.replace('-', ' ')}: knowing what was "
                    "tested never settles what the buyer's own allocation will do, so it "
                    "cannot close this item",
                )
        names = slots_in(item.text)
        for name in names:
            if name not in SLOTS:
                ctx.report(
                    "checklists",
                    checklist.id,
                    (*at, "text"),
                    f"expected one of the slots {', '.join(SLOTS)}, found "
                    f"{{{name}}}" + suggest(name, list(SLOTS)),
                )
        if "missing" in names and not item.closed_by:
            ctx.report(
                "checklists",
                checklist.id,
                (*at, "text"),
                "expected {missing} only on an item with closing questions, found it on one "
                "with closed_by: [], so it could name nothing",
            )
        number = DIGITS.search(SLOT_PATTERN.sub(" ", item.text))
        if number is not None:
            ctx.report(
                "checklists",
                checklist.id,
                (*at, "text"),
                f"expected a slot such as {{configurations}} for a validation's numbers, "
                f"found {number[0]!r}: an item is worded for every validation",
            )
