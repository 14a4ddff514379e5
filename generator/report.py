"""Printing problems: plain `path:line:col` lines, or GitHub Actions annotations and a summary.

Annotations follow the Actions toolkit's escaping (`@actions/core`, command.ts): data escapes
`%`, CR and LF; properties also escape `:` and `,`. GitHub shows at most ten annotations of each
level per step, so the rest are counted in a notice and listed in full in the step summary.
"""

from __future__ import annotations

import html

from .problem import Problem

ANNOTATIONS_PER_LEVEL = 10


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(problem: Problem) -> str:
    """One problem as a workflow command that GitHub shows on the file's line in a pull request."""
    level = "error" if problem.severity == "error" else "warning"
    properties = ",".join(
        f"{name}={_escape_property(str(value))}"
        for name, value in (
            ("file", problem.path),
            ("line", problem.position.line),
            ("col", problem.position.column),
            ("title", f"cloudqual: {problem.field}" if problem.field else "cloudqual"),
        )
    )
    return f"::{level} {properties}::{_escape_data(problem.message)}"


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
            "the step summary lists every one"
        )
    return lines


def _cell(text: str) -> str:
    return html.escape(text, quote=False).replace("|", "\\|").replace("\n", " ")


def summary(problems: list[Problem]) -> str:
    """Every problem as a Markdown table, for `$GITHUB_STEP_SUMMARY`."""
    errors = sum(1 for p in problems if p.severity == "error")
    heading = f"## cloudqual check: {errors} errors, {len(problems) - errors} warnings\n\n"
    if not problems:
        return heading + "Every record passed.\n"
    rows = [
        f"| {_cell(p.severity)} | `{_cell(f'{p.path}:{p.position.line}:{p.position.column}')}` "
        f"| {_cell(p.field)} | {_cell(p.message)} |"
        for p in sorted(problems)
    ]
    return (
        heading
        + "| level | where | field | problem |\n|---|---|---|---|\n"
        + "\n".join(rows)
        + "\n"
    )
