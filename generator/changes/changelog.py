"""The changelog page's days, in a buyer's terms: each day's commits that changed what a buyer
reads of a result, their changes grouped by result; the rest counted under the day."""

from __future__ import annotations

from collections import Counter
from datetime import date
from typing import Any

from generator.changes.compare import Change, moved
from generator.changes.history import History, Step
from generator.english import plural

# Each kind of change as the changelog page says it to a buyer. `cloudqual diff` keeps the
# reviewer's words (compare.What), which name the record's parts; a buyer reads what moved.
BUYER_WORDS: dict[str, str] = {
    "result added": "new result",
    "result removed": "result taken off the site",
    "title": "title changed",
    "summary": "summary changed",
    "outcome": "outcome changed",
    "outcome grade": "grade changed, of the outcome",
    "statement added": "statement added",
    "statement removed": "statement removed",
    "statement grade": "grade changed, of a statement",
    "scale": "scale changed",
    "announced": "date changed",
    "last reviewed": "checked again against its sources",
    "validity end": "validity end changed",
    "validity status": "validity changed",
    "caveat added": "caveat added",
    "caveat removed": "caveat removed",
    "authored caveat added": "caveat added",
    "authored caveat removed": "caveat removed",
    "authored caveat changed": "caveat changed",
    "item opened": "trial check open again",
    "item closed": "trial check settled by the evidence",
    "item no longer applies": "trial check no longer applies",
    "item now applies": "trial check now applies",
    "measurement added": "figure added",
    "measurement removed": "figure removed",
    "measurement changed": "figure changed",
    "measurement grade": "grade changed, of a figure",
    "measurement shown": "how a figure is shown changed",
    "coverage": "coverage changed",
    "table row": "its row in the results tables changed",
    "source added": "source added",
    "source removed": "source removed",
    "source changed": "source changed",
    "outcome text": "outcome's wording changed",
    "deployment": "deployment changed",
    "offer": "offer changed",
    "evidence": "an evidence answer changed",
    "invalid results": "invalid results changed",
    "page changed": "page changed",
}

# A day: its date, the commits shown (each with the note said in place of its changes, if any,
# and its changes by result), the quiet commits counted by what is said of them, and the day in
# one line ("3 new results, 30 figures added, 61 other changes").
Day = tuple[date, list[tuple[Step, str | None, list[Any]]], list[tuple[str, str]], str | None]

# What a day's line counts by name, one of each and many of it; every other kind is an "other
# change". A buyer scanning the days looks for new results and moved figures first.
COUNTED: dict[str, tuple[str, str]] = {
    "result added": ("new result", "new results"),
    "result removed": ("result taken off the site", "results taken off the site"),
    "measurement added": ("figure added", "figures added"),
    "measurement changed": ("figure changed", "figures changed"),
    "measurement removed": ("figure removed", "figures removed"),
    "outcome grade": ("grade changed", "grades changed"),
    "statement grade": ("grade changed", "grades changed"),
    "measurement grade": ("grade changed", "grades changed"),
}


def day_line(changes: list[Change]) -> str | None:
    """A day's changes counted in one line, the named kinds in COUNTED's order, then the rest;
    None on a day that changed nothing a buyer reads."""
    counts: Counter[tuple[str, str]] = Counter()
    for change in changes:
        counts[COUNTED.get(change.what, ("other change", "other changes"))] += 1
    order = [*dict.fromkeys(COUNTED.values()), ("other change", "other changes")]
    parts = [
        f"{counts[words]:,} {words[0] if counts[words] == 1 else words[1]}"
        for words in order
        if counts[words]
    ]
    return ", ".join(parts) or None


def step_note(step: Step, changed: bool) -> str | None:
    """What the changelog says of a commit in place of its changes, when it lists none."""
    if step.unread == "checks":
        return (
            "made to records that do not pass today's checks (the schema has changed since), so "
            "not compared"
        )
    if step.results is None:  # step.unread == "error"
        return "made to records today's code cannot read, so not compared"
    if step.base is None:
        return (
            f"the first whose records pass today's checks, with "
            f"{plural('result', step.results)}; comparisons start here."
        )
    if not changed:
        return "that changed nothing a buyer reads of a result (a page's text, a comment)"
    return None


# A trial check's change says all in its words ("trial check no longer applies"): its "open →
# does not apply" would say it twice.
SAID_BY_WORDS = frozenset(
    {"item opened", "item closed", "item no longer applies", "item now applies"}
)


# How a value moved ("before → after", or "was before"), when longer than this (a figure's note
# on how it was scored, a summary), is not repeated on the page: a buyer learns that it changed,
# and `cloudqual diff` keeps both wordings whole for a reviewer.
LONGEST_SHOWN = 160


def buyer_line(change: Change) -> str:
    """One change as the page lists it: what happened, to what (the item's own sentence, the
    figure's name, the source's title: never a record's id), and how its value moved, where
    that is short enough to read in a line."""
    about = change.subject_words if change.subject_words is not None else change.subject
    how = "" if change.what in SAID_BY_WORDS else moved(change)
    if len(how) > LONGEST_SHOWN:
        how = "too long to repeat here"
    return ": ".join(part for part in (BUYER_WORDS[change.what], about, how) if part)


def _by_result(step: Step, on_site: set[str]) -> list[Any]:
    """A commit's changes by the result they change: (its id, its title, whether it is still on
    the site, and each change with its line for a buyer)."""
    groups: dict[str, list[Any]] = {}
    for change in step.changes:
        groups.setdefault(change.result, []).append((change, buyer_line(change)))
    return [
        (result_id, changes[0][0].title, result_id in on_site, changes)
        for result_id, changes in groups.items()
    ]


def days(history: History | None, on_site: set[str]) -> list[Day]:
    """The page's days, the newest first; none without a history."""
    found: list[Day] = []
    for day, steps in history.days() if history is not None else []:
        # A buyer reads what changed; the changes that changed nothing a buyer reads, or could
        # not be compared, are counted under the day, not listed one by one.
        shown, quiet = [], Counter[str]()
        for step in steps:
            results = _by_result(step, on_site)
            note = step_note(step, bool(results))
            if results or step.earlier or (step.base is None and step.results is not None):
                shown.append((step, note, results))
            else:
                quiet[note or ""] += 1
        counted = day_line([change for step in steps for change in step.changes])
        found.append((day, shown, [(n, plural("change", c)) for n, c in quiet.items()], counted))
    return found


def why_none(history: History | None) -> str | None:
    """Why the page lists what it lists: the history's own reason, or that there is none."""
    if history is None:
        return "this build was not given the content's history"
    return history.why
