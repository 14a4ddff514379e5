"""A diff as people and scripts read it: Markdown for a pull request's comment and step summary,
and a JSON document (`Diff`) with its own schema, like the API's.

Everything in a change came from contributors (titles, statements, ids, values), so the
Markdown shows each as literal text: Markdown and HTML escaped (escape.markdown_literal), an
`@` or a `#` before a name or number made an entity so GitHub neither notifies anyone nor links
an issue, and each cut to CELL_CHARACTERS. The whole comment stops short of GitHub's limit and
says how many changes it left out.
"""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import date

from pydantic import BaseModel, ConfigDict

from generator.changes.compare import Change
from generator.english import plural
from generator.escape import markdown_literal
from generator.problems import Problem

VERSION = "1"
# The first line of every report, by which the workflow finds its own comment to edit. A
# contributor's text cannot hold it: `<` is escaped in every piece of theirs.
MARKER = "<!-- cloudqual diff -->"
# GitHub refuses a comment over 65,536 characters; this leaves room for the closing line.
COMMENT_CHARACTERS = 60_000
CELL_CHARACTERS = 300
_MENTION = re.compile(r"[@#]")


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


def _literal(text: str) -> str:
    """Contributors' text as Markdown that shows it as it is, and pings or links nothing."""
    if len(text) > CELL_CHARACTERS:
        text = text[: CELL_CHARACTERS - 1] + "…"
    shown = markdown_literal(text)
    return _MENTION.sub(lambda m: f"&#{ord(m[0])};", shown)


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


def markdown(diff: Diff, *, limit: int = COMMENT_CHARACTERS) -> str:
    """The report for people, at most `limit` characters: the changes a reviewer must look at
    twice first, then every change result by result."""
    changed = {c.result for c in diff.changes}
    lines = [
        MARKER,
        "## What this change does to the site",
        "",
        f"Compared with {_literal(diff.base)}, judged on {diff.as_of.isoformat()}: "
        f"{plural('result', diff.results_before)} before, {diff.results_after} after; "
        f"{plural('change', len(diff.changes))} to {plural('result', len(changed))}.",
    ]
    if not diff.changes:
        lines += ["", "Nothing a buyer reads has changed."]
    twice = [c for c in diff.changes if c.look_twice]
    body: list[str] = []
    if twice:
        body += ["", "### Look twice", ""]
        body += [f"{_line(c)} ({_literal(c.title)})" for c in twice]
    by_result: dict[str, list[Change]] = defaultdict(list)
    for change in diff.changes:
        by_result[change.result].append(change)
    for result_changes in by_result.values():
        body += ["", _heading(result_changes[0]), ""]
        body += [_line(c) for c in result_changes]
    # How many change lines each line of the body leaves after it, itself included.
    left = [0] * (len(body) + 1)
    for index in range(len(body) - 1, -1, -1):
        left[index] = left[index + 1] + body[index].startswith("- ")
    shown = ["\n".join(lines)]
    size = len(shown[0])
    for index, line in enumerate(body):
        ending = (
            f"\n\n… and {plural('more change', left[index])}, left out here: the step summary "
            "of the run and `cloudqual diff` give them all."
        )
        if size + 1 + len(line) + len(ending) > limit:
            return "".join(shown) + ending + "\n"
        shown.append("\n" + line)
        size += 1 + len(line)
    return "".join(shown) + "\n"


# A refusal lists this many problems; `cloudqual check` gives them all.
REFUSAL_PROBLEMS = 20


def refused(name: str, problems: list[Problem]) -> str:
    """The report when a tree does not pass the checks: which tree, and its first problems."""
    lines = [
        MARKER,
        "## What this change does to the site",
        "",
        f"The content of {_literal(name)} does not pass the checks, so nothing was compared. "
        "`cloudqual check` lists every problem; the first:",
        "",
    ]
    lines += [f"- {_literal(str(problem))}" for problem in problems[:REFUSAL_PROBLEMS]]
    if len(problems) > REFUSAL_PROBLEMS:
        lines += ["", f"… and {plural('more problem', len(problems) - REFUSAL_PROBLEMS)}."]
    return "\n".join(lines) + "\n"


def schema() -> dict[str, object]:
    """The JSON Schema of the document `--format json` writes."""
    return Diff.model_json_schema(mode="serialization")
