"""A diff as people and scripts read it: Markdown for a pull request's comment and step summary,
and a JSON document (`Diff`) with its own schema, like the API's.

Everything in a change came from contributors (titles, statements, ids, values), so the
Markdown shows each as a code span, cut to CELL_CHARACTERS: GitHub renders nothing inside one,
neither Markdown nor HTML, and links no address, mention (`@name`), reference (`#1`, `GH-1`) or
emoji in it, which it finds in the rendered text, past any escaping. The whole comment stops
short of GitHub's limit and says how many changes it left out.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from pydantic import BaseModel, ConfigDict

from generator.changes.compare import Change
from generator.english import plural
from generator.escape import code_span
from generator.problems import Problem

VERSION = "1"
# The first line of every report, by which the workflow finds its own comment to edit. A
# contributor's text cannot hold it: `<` is escaped in every piece of theirs.
MARKER = "<!-- cloudqual diff -->"
# GitHub refuses a comment over 65,536 characters; this leaves room for the closing line.
COMMENT_CHARACTERS = 60_000
CELL_CHARACTERS = 300
PAGES_SHOWN = 40  # pages named in the opening lines; the JSON document lists them all


class Diff(BaseModel):
    """What changed for a buyer between two builds of the site."""

    model_config = ConfigDict(extra="forbid")

    version: str = VERSION
    base: str  # what was compared: a git revision or a folder, as given
    head: str
    as_of: date  # the date validity and staleness were judged on, for both
    results_before: int
    results_after: int
    changes: list[Change]
    # Every page whose text differs between the two builds, by its path; empty where the pages
    # were not compared.
    pages: list[str] = []


def _literal(text: str) -> str:
    """Contributors' text as a code span (escape.code_span)."""
    return code_span(text, CELL_CHARACTERS)


def _value(value: str | None) -> str:
    return "none" if value is None else _literal(value)


def _line(change: Change) -> str:
    what = change.what
    subject = f" {_literal(change.subject)}" if change.subject is not None else ""
    if change.before is None and change.after is None:
        moved = ""
    elif change.before is None:
        moved = f": {_value(change.after)}"
    elif change.after is None:
        moved = f": was {_value(change.before)}"
    else:
        moved = f": {_value(change.before)} → {_value(change.after)}"
    flag = f" **Look twice: {change.look_twice}.**" if change.look_twice else ""
    return f"- {what}{subject}{moved}{flag}"


def _heading(change: Change) -> str:
    return f"### {_literal(change.title)} ({_literal(change.result)})"


# No report is cut shorter than its opening lines and a few changes.
SHORTEST = 2_000


def _cut(opening: list[str], body: list[tuple[str, int | None]], total: int, limit: int) -> str:
    """The opening lines, then as many lines of the body as `limit` leaves room for, then, if
    any were left out, how many of the `total` changes (or problems) were never shown. Each body
    line carries the index of the change it shows, or None: a change may be shown twice."""
    # What the body from each line on adds, each line with its newline.
    rest = [0] * (len(body) + 1)
    for index in range(len(body) - 1, -1, -1):
        rest[index] = rest[index + 1] + 1 + len(body[index][0])
    text = ["\n".join(opening)]
    size = len(text[0])
    shown: set[int] = set()
    for index, (line, change) in enumerate(body):
        if size + rest[index] + 1 <= limit:  # the rest fits whole
            return "".join(text + ["\n" + line for line, _ in body[index:]]) + "\n"
        ending = (
            f"\n\n… and {plural('more change', total - len(shown))}, left out here: "
            "`cloudqual diff` gives them all."
        )
        if size + 1 + len(line) + len(ending) + 1 > limit:
            return "".join(text) + ending + "\n"
        text.append("\n" + line)
        size += 1 + len(line)
        if change is not None:
            shown.add(change)
    return "".join(text) + "\n"


def markdown(diff: Diff, *, limit: int = COMMENT_CHARACTERS) -> str:
    """The report for people, at most `limit` characters (or SHORTEST): the changes a reviewer
    must look at twice first, then every change result by result."""
    changed = {c.result for c in diff.changes}
    opening = [
        MARKER,
        "## What this change does to the site",
        "",
        f"Compared with {_literal(diff.base)}, judged on {diff.as_of.isoformat()}: "
        f"{plural('result', diff.results_before)} before, {diff.results_after} after; "
        f"{plural('change', len(diff.changes))} to {plural('result', len(changed))}.",
    ]
    if not diff.changes and not diff.pages:
        opening += ["", "Nothing a buyer reads has changed."]
    elif diff.pages:
        # Named, not shown: a page's text is the sum of the changes, and a change no result's
        # facts show (a hand-written page, a program's or a provider's statement) is here.
        shown = ", ".join(_literal(uri.removesuffix(".md")) for uri in diff.pages[:PAGES_SHOWN])
        more = len(diff.pages) - PAGES_SHOWN
        rest = f" and {more} more" if more > 0 else ""
        opening += ["", f"Pages whose text changed ({len(diff.pages)}): {shown}{rest}."]
        if not diff.changes:
            opening += [
                "",
                "No result's facts changed; the pages above did. Read them in the built site.",
            ]
    body: list[tuple[str, int | None]] = []
    twice = [(index, c) for index, c in enumerate(diff.changes) if c.look_twice]
    if twice:
        body += [("", None), ("### Look twice", None), ("", None)]
        body += [(f"{_line(c)} ({_literal(c.title)})", index) for index, c in twice]
    by_result: dict[str, list[tuple[int, Change]]] = defaultdict(list)
    for index, change in enumerate(diff.changes):
        by_result[change.result].append((index, change))
    for result_changes in by_result.values():
        body += [("", None), (_heading(result_changes[0][1]), None), ("", None)]
        body += [(_line(c), index) for index, c in result_changes]
    return _cut(opening, body, len(diff.changes), max(limit, SHORTEST))


# A refusal lists this many problems; `cloudqual check` gives them all.
REFUSAL_PROBLEMS = 20


def refused(name: str, problems: list[Problem], *, limit: int = COMMENT_CHARACTERS) -> str:
    """The report when a tree does not pass the checks: which tree, and its first problems."""
    opening = [
        MARKER,
        "## What this change does to the site",
        "",
        f"The content of {_literal(name)} does not pass the checks, so nothing was compared. "
        "`cloudqual check` lists every problem; the first:",
        "",
    ]
    body: list[tuple[str, int | None]] = [
        (f"- {_literal(str(problem))}", None) for problem in problems[:REFUSAL_PROBLEMS]
    ]
    if len(problems) > REFUSAL_PROBLEMS:
        body += [
            ("", None),
            (f"… and {plural('more problem', len(problems) - REFUSAL_PROBLEMS)}.", None),
        ]
    # At most 20 problems of at most CELL_CHARACTERS each: always under the shortest limit.
    return _cut(opening, body, 0, max(limit, SHORTEST))


def schema() -> dict[str, object]:
    """The JSON Schema of the document `--format json` writes."""
    return Diff.model_json_schema(mode="serialization")
