"""What changed for a buyer between two builds: the results added and removed, and for each
result on both, every fact its page shows that moved, each with its value before and after.

Some changes a reviewer must look at twice, and each carries why (`look_twice`): a grade
raised, a source no longer cited, a result's date moved, a measurement whose value changed
while its source did not.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict

from generator.changes.result_facts import ResultFacts
from generator.model.grades import GRADES, UNESTABLISHED

What = Literal[
    "result added",
    "result removed",
    "title",
    "summary",
    "outcome",
    "outcome grade",
    "statement added",
    "statement removed",
    "statement grade",
    "scale",
    "announced",
    "last reviewed",
    "validity end",
    "validity status",
    "caveat added",
    "caveat removed",
    "authored caveat added",
    "authored caveat removed",
    "authored caveat changed",
    "item opened",
    "item closed",
    "item no longer applies",
    "item now applies",
    "measurement added",
    "measurement removed",
    "measurement changed",
    "measurement grade",
    "measurement shown",
    "coverage",
    "table row",
    "source added",
    "source removed",
    "source changed",
    "outcome text",
    "deployment",
    "offer",
    "evidence",
    "invalid results",
    "page changed",
]

GRADE_RAISED = "a grade raised"
SOURCE_REMOVED = "a source removed"
DATE_MOVED = "a result's date moved"
VALUE_WITHOUT_SOURCE = "a measurement changed without a new source"


class Change(BaseModel):
    """One fact of one result that moved."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    result: str  # the result's id
    title: str  # its title, as the head build shows it (the base's, for a removed result)
    what: What
    subject: str | None = None  # which statement, caveat, item, measurement or source
    # The subject as a buyer reads it (ResultFacts.labels): "" where the value says it all.
    subject_words: str | None = None
    before: str | None = None
    after: str | None = None
    look_twice: str | None = None  # why a reviewer must look twice, or None


def moved(change: Change) -> str:
    """How a change's value moved, in words: "a → b", "was a", "b", or nothing."""
    if change.before is None and change.after is None:
        return ""
    if change.before is None:
        return str(change.after)
    if change.after is None:
        return f"was {change.before}"
    return f"{change.before} → {change.after}"


def _rank(grade: str) -> int:
    """How strong a grade is: 0 the strongest; the grades of what is not established last."""
    return len(GRADES) if grade in UNESTABLISHED else GRADES.index(grade)


def _raised(before: str, after: str) -> str | None:
    return GRADE_RAISED if _rank(after) < _rank(before) else None


def _text(value: object) -> str | None:
    if value is None:
        return None
    return value.isoformat() if isinstance(value, date) else str(value)


def changes(base: dict[str, ResultFacts], head: dict[str, ResultFacts]) -> list[Change]:
    """Every change from `base` to `head`, result by result in id order."""
    found: list[Change] = []
    for result_id in sorted(base.keys() | head.keys()):
        old, new = base.get(result_id), head.get(result_id)
        if old is None:
            assert new is not None
            # Its own date beside it: a result new to the site may be years old, and "result
            # added" alone read as new evidence (the buyer's walkthrough of 2026-12-07).
            dated = f"announced {_text(new.announced)}" if new.announced else "undated"
            found.append(
                Change(result=result_id, title=new.title, what="result added", after=dated)
            )
        elif new is None:
            found.append(Change(result=result_id, title=old.title, what="result removed"))
        else:
            found += list(_result_changes(old, new))
    return found


# The results tables' columns, as their heads name them.
ROW_WORDS = {
    "provider": "provider",
    "program": "program",
    "chip": "chip",
    "accelerators": "scale",  # GPUs or TPU chips: the count alone
    "evidence": "evidence",
}


def _result_changes(old: ResultFacts, new: ResultFacts) -> Iterator[Change]:
    """Every fact of one result on both builds that moved, in the order its page shows them,
    each subject named as a buyer reads it: the base's words for what the head no longer has."""
    labels = old.labels | new.labels
    for change in (
        *_fact_changes(old, new),
        *_statement_changes(old, new),
        *_caveat_changes(old, new),
        *_item_changes(old, new),
        *_measurement_changes(old, new),
        *_row_and_source_changes(old, new),
        *_wording_changes(old, new),
    ):
        if change.subject is None:
            yield change
            continue
        table = ROW_WORDS if change.what == "table row" else labels
        words = table.get(change.subject, change.subject)
        yield change.model_copy(update={"subject_words": words})


def _change(
    new: ResultFacts,
    what: What,
    before: object,
    after: object,
    subject: str | None = None,
    look_twice: str | None = None,
) -> Change:
    """A change of the result `new`, titled as the head build shows it."""
    return Change(
        result=new.id,
        title=new.title,
        what=what,
        subject=subject,
        before=_text(before),
        after=_text(after),
        look_twice=look_twice,
    )


def _fact_changes(old: ResultFacts, new: ResultFacts) -> Iterator[Change]:
    """The result's single facts: its title, outcome, scale, dates and validity."""
    for what, field in (
        ("title", "title"),
        ("summary", "summary"),
        ("outcome", "outcome"),
        ("scale", "scale"),
        ("last reviewed", "last_reviewed"),
        ("validity end", "validity_end"),
        ("validity status", "validity_status"),
        ("coverage", "coverage"),
    ):
        if getattr(old, field) != getattr(new, field):
            yield _change(new, what, getattr(old, field), getattr(new, field))  # type: ignore[arg-type]
    if old.outcome_grade != new.outcome_grade:
        raised = _raised(old.outcome_grade, new.outcome_grade)
        yield _change(new, "outcome grade", old.outcome_grade, new.outcome_grade, look_twice=raised)
    if old.announced != new.announced:
        yield _change(new, "announced", old.announced, new.announced, look_twice=DATE_MOVED)


def _statement_changes(old: ResultFacts, new: ResultFacts) -> Iterator[Change]:
    for text in sorted(old.statements.keys() - new.statements.keys()):
        yield _change(new, "statement removed", old.statements[text], None, subject=text)
    for text in sorted(new.statements.keys() - old.statements.keys()):
        yield _change(new, "statement added", None, new.statements[text], subject=text)
    for text in sorted(old.statements.keys() & new.statements.keys()):
        before, after = old.statements[text], new.statements[text]
        if before != after:
            raised = _raised(before, after)
            yield _change(new, "statement grade", before, after, subject=text, look_twice=raised)


def _caveat_changes(old: ResultFacts, new: ResultFacts) -> Iterator[Change]:
    """Caveats the rules derive and caveats authors wrote: added, removed, and (authored only)
    reworded."""
    for kind, (was, now) in (
        ("caveat", (old.caveats, new.caveats)),
        ("authored caveat", (old.authored_caveats, new.authored_caveats)),
    ):
        for key in sorted(was.keys() - now.keys()):
            yield _change(new, f"{kind} removed", was[key], None, subject=key)  # type: ignore[arg-type]
        for key in sorted(now.keys() - was.keys()):
            yield _change(new, f"{kind} added", None, now[key], subject=key)  # type: ignore[arg-type]
    for key in sorted(old.authored_caveats.keys() & new.authored_caveats.keys()):
        if old.authored_caveats[key] != new.authored_caveats[key]:
            before, after = old.authored_caveats[key], new.authored_caveats[key]
            yield _change(new, "authored caveat changed", before, after, subject=key)


def _item_changes(old: ResultFacts, new: ResultFacts) -> Iterator[Change]:
    """Checklist items opened or closed, told apart from items that began or stopped applying."""
    for checklist in sorted(old.open_items.keys() | new.open_items.keys()):
        was_open = set(old.open_items.get(checklist, []))
        now_open = set(new.open_items.get(checklist, []))
        applies_now = set(new.applicable_items.get(checklist, now_open))
        applied = set(old.applicable_items.get(checklist, was_open))
        for item in sorted(was_open - now_open):
            subject = f"{checklist}: {item}"
            if item in applies_now:
                yield _change(new, "item closed", "open", "closed", subject=subject)
            else:  # it stopped applying: the evidence settled nothing
                yield _change(
                    new, "item no longer applies", "open", "does not apply", subject=subject
                )
        for item in sorted(now_open - was_open):
            subject = f"{checklist}: {item}"
            if item in applied:
                yield _change(new, "item opened", "closed", "open", subject=subject)
            else:
                yield _change(new, "item now applies", "does not apply", "open", subject=subject)


def _measurement_changes(old: ResultFacts, new: ResultFacts) -> Iterator[Change]:
    for key in sorted(old.measurements.keys() - new.measurements.keys()):
        yield _change(new, "measurement removed", old.measurements[key].value, None, subject=key)
    for key in sorted(new.measurements.keys() - old.measurements.keys()):
        yield _change(new, "measurement added", None, new.measurements[key].value, subject=key)
    for key in sorted(old.measurements.keys() & new.measurements.keys()):
        before_figure, after_figure = old.measurements[key], new.measurements[key]
        if before_figure.value != after_figure.value:
            # A value is vouched for by a source the result did not cite before; one it
            # already cited, its own or another, says nothing new of the changed value.
            new_source = after_figure.source not in old.sources
            yield _change(
                new,
                "measurement changed",
                before_figure.value,
                after_figure.value,
                subject=key,
                look_twice=None if new_source else VALUE_WITHOUT_SOURCE,
            )
        if before_figure.grade != after_figure.grade:
            raised = _raised(before_figure.grade, after_figure.grade)
            yield _change(
                new,
                "measurement grade",
                before_figure.grade,
                after_figure.grade,
                subject=key,
                look_twice=raised,
            )
        # Each part of the row that moved, alone: a maker's share added says so, without the
        # note that did not change (a file's path, a scaling factor) written out twice.
        was, now = before_figure.shown, after_figure.shown
        for part in sorted(was.keys() | now.keys()):
            if was.get(part) != now.get(part):
                subject = f"{key} · {part}"
                yield _change(
                    new, "measurement shown", was.get(part), now.get(part), subject=subject
                )


def _row_and_source_changes(old: ResultFacts, new: ResultFacts) -> Iterator[Change]:
    """The result's row in the compare table, then the sources it cites and what each says."""
    for column in sorted(old.row.keys() | new.row.keys()):
        if old.row.get(column) != new.row.get(column):
            before, after = old.row.get(column), new.row.get(column)
            yield _change(new, "table row", before, after, subject=column)
    for source in sorted(set(old.sources) - set(new.sources)):
        yield _change(new, "source removed", None, None, subject=source, look_twice=SOURCE_REMOVED)
    for source in sorted(set(new.sources) - set(old.sources)):
        yield _change(new, "source added", None, None, subject=source)
    for source in sorted(old.cited.keys() & new.cited.keys()):
        if old.cited[source] != new.cited[source]:
            before, after = old.cited[source], new.cited[source]
            yield _change(new, "source changed", before, after, subject=source)


def _wording_changes(old: ResultFacts, new: ResultFacts) -> Iterator[Change]:
    """The page's sentences, its evidence answers, and the invalid results it lists."""
    sentences: tuple[tuple[What, str | None, str | None], ...] = (
        ("outcome text", old.outcome_text, new.outcome_text),
        ("deployment", old.deployment, new.deployment),
        ("offer", old.offer, new.offer),
    )
    for what, said, says in sentences:
        if said != says:
            yield _change(new, what, said, says)
    for question in sorted(old.evidence.keys() | new.evidence.keys()):
        said, says = old.evidence.get(question), new.evidence.get(question)
        if said != says:
            yield _change(new, "evidence", said, says, subject=question)
    for entry in sorted(set(old.invalid) ^ set(new.invalid)):
        gone = entry in old.invalid
        yield _change(new, "invalid results", entry if gone else None, None if gone else entry)
