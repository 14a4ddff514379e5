"""Printing problems: plain `path:line:col` lines, GitHub Actions annotations and a step summary.

A problem's path, field and message carry contributors' text (file names, misspelled keys, found
values), and contributors are strangers sending pull requests. The Actions runner reads every line
a step prints, on stdout and on stderr, for workflow commands: a line whose text starts with `::`
after leading whitespace, or that holds the legacy `##[` anywhere (the runner's ActionCommand.cs
looks for it with IndexOf). So a problem becomes text only here, and every piece of it only
through `quote` (problems.py), which keeps contributors' text on its own line and unable to
start a command.

Annotations then follow the Actions toolkit's escaping (`@actions/core`, command.ts): data escapes
`%`, CR and LF; properties also escape `:` and `,`. GitHub shows at most ten annotations of each
level per step, so the rest are counted in a notice. The step summary shows contributors' text as
code, never as Markdown, and stops short of GitHub's size limit; the log always lists every problem.
"""

from __future__ import annotations

import re

from generator.problems import Problem, plain, quote

ANNOTATIONS_PER_LEVEL = 10

# GitHub drops a step summary over 1 MiB whole ("upload aborted", in an error annotation) and
# shows none of it. Half that leaves room for a second writer in the same step (the file is
# appended to), and still holds well over a thousand typical rows, more than anyone reads before
# turning to the log.
SUMMARY_BYTES = 512 * 1024

# A cell quotes at most this many characters of one path, field or message, so one huge key
# cannot fill the summary on its own; the log has it in full.
CELL_CHARACTERS = 500


def log(problems: list[Problem], stop_token: str | None = None) -> list[str]:
    """Every problem as a plain line, in order; nothing is left out of the log.

    With `stop_token`, the lines sit between `::stop-commands::TOKEN` and `::TOKEN::`, so the
    runner ignores any command in them even if quoting ever missed one. The token must be
    unguessable, and must not be printed anywhere else, or content could resume commands early.
    """
    lines = [plain(problem) for problem in problems]
    if stop_token is None or not lines:
        return lines
    return [f"::stop-commands::{stop_token}", *lines, f"::{stop_token}::"]


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(problem: Problem) -> str:
    """One problem as a workflow command that GitHub shows on the file's line in a pull request.

    The file is quoted too: an ordinary path is unchanged and still finds its line, and a path
    with control characters in it could not name a file in the pull request's diff anyway.
    """
    level = "error" if problem.severity == "error" else "warning"
    properties = ",".join(
        f"{name}={_escape_property(value)}"
        for name, value in (
            ("file", quote(problem.path)),
            ("line", str(problem.position.line)),
            ("col", str(problem.position.column)),
            ("title", f"cloudqual: {quote(problem.field)}" if problem.field else "cloudqual"),
        )
    )
    return f"::{level} {properties}::{_escape_data(quote(problem.message))}"


def github(problems: list[Problem]) -> list[str]:
    """Annotations for the first problems of each level, then a notice counting the rest."""
    lines, shown, hidden = [], {"error": 0, "warning": 0}, 0
    for problem in sorted(problems):
        level = "error" if problem.severity == "error" else "warning"
        if shown[level] < ANNOTATIONS_PER_LEVEL:
            lines.append(annotation(problem))
            shown[level] += 1
        else:
            hidden += 1
    if hidden:
        lines.append(
            f"::notice title=cloudqual::{hidden} more problems are not annotated; "
            "the log of this step lists every one"
        )
    return lines


def _shown(text: str) -> tuple[str, bool]:
    """`text` quoted for a summary cell, cut to `CELL_CHARACTERS`; and whether it was cut."""
    if len(text) <= CELL_CHARACTERS:
        return quote(text), False
    return quote(text[:CELL_CHARACTERS]) + "…", True


def _code(shown: str) -> str:
    """Quoted text as a Markdown code span in a table cell: shown as typed, never interpreted.

    Inside a code span Markdown, HTML, entities and autolinks are all inert. The fence is one
    backtick longer than any run of backticks in the text, so the text cannot close it; a space
    pads the text when it starts or ends with a backtick or a space, and CommonMark strips that
    one space again. GitHub's tables split cells on `|` even inside code, unless it is escaped.
    """
    if not shown:
        return ""
    fence = "`" * (max((len(run) for run in re.findall(r"`+", shown)), default=0) + 1)
    padding = " " if shown[0] in "` " or shown[-1] in "` " else ""
    cell = shown.replace("|", "\\|")
    return f"{fence}{padding}{cell}{padding}{fence}"


def _row(problem: Problem) -> tuple[str, bool]:
    path, path_cut = _shown(problem.path)
    field, field_cut = _shown(problem.field)
    message, message_cut = _shown(problem.message)
    where = f"{path}:{problem.position.line}:{problem.position.column}"
    level = "error" if problem.severity == "error" else "warning"
    row = f"| {level} | {_code(where)} | {_code(field)} | {_code(message)} |"
    return row, path_cut or field_cut or message_cut


def summary(problems: list[Problem]) -> str:
    """The problems as a Markdown table for `$GITHUB_STEP_SUMMARY`, under `SUMMARY_BYTES`.

    Rows go in until the next one would pass the limit; a last line then says how many were left
    out and that the log lists them all.
    """
    errors = sum(1 for p in problems if p.severity == "error")
    heading = f"## cloudqual check: {errors} errors, {len(problems) - errors} warnings\n\n"
    if not problems:
        return heading + "Every record passed.\n"
    table = heading + "| level | where | field | problem |\n|---|---|---|---|\n"
    # Room kept for the closing lines, which hold only numbers and fixed words.
    budget = SUMMARY_BYTES - len(table.encode("utf-8")) - 1024
    rows: list[str] = []
    any_cut = False
    for problem in sorted(problems):
        row, cut = _row(problem)
        budget -= len(row.encode("utf-8")) + 1
        if budget < 0:
            break
        rows.append(row)
        any_cut = any_cut or cut
    notes = []
    if any_cut:
        notes.append("Text ending in … is cut short here; the log of this step has it in full.")
    left_out = len(problems) - len(rows)
    if left_out:
        notes.append(
            f"**{left_out} more problem{'s are' if left_out != 1 else ' is'} left out of this "
            "summary** to keep it under GitHub's 1 MiB limit; the log of this step lists every "
            "problem."
        )
    closing = "".join(f"\n{note}\n" for note in notes)
    return table + "\n".join(rows) + "\n" + closing
