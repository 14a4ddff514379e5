"""Chart tables: pure functions from the site's facts to the table each chart shows.

A `Table` is each chart's data and its text alternative at once: the page shows it in the figure,
the CSV download is it, and the chart is drawn from it (render/charts.py), so the three cannot
disagree. Which charts the site has, and what each says, is decided here too; how each is drawn
is not.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date

from generator.derive.case_study_gaps import Gap
from generator.derive.suites import cells_ran_stated, coverage_cells
from generator.derive.validation import Derived
from generator.model.case_studies import CaseStudy
from generator.model.grades import SHOWN_MEANINGS
from generator.model.programs import Program
from generator.model.validation import Validation


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    @property
    def size(self) -> int:
        return len(self.rows)

    def records(self) -> list[dict[str, str]]:
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


@dataclass(frozen=True)
class Chart:
    """One chart: its file stem, its accessible name and caption, its data, and its kind."""

    id: str
    kind: str  # coverage | case-studies | evidence | timeline
    title: str
    caption: str
    table: Table
    # Every category the colour scale knows, so a program keeps its colour from chart to chart.
    categories: tuple[str, ...] = ()


# --- tables: the facts each chart shows ----------------------------------------------------------


def coverage_table(validation: Validation, derived: Derived) -> Table | None:
    cells = coverage_cells(validation, derived.reconciliation)
    if not cells:
        return None
    return Table(("model", "precision", "status"), tuple(cells))


def case_study_table(case_studies: list[CaseStudy], gaps: dict[str, list[Gap]]) -> Table:
    """Each finding's gap (`case_study_gaps.gaps`), by case study id in `gaps`, one row each."""
    rows = []
    for study in case_studies:
        for gap in gaps[study.id]:
            low, limit = gap.finding.gap_low_percent, gap.tolerance_percent
            rows.append(
                (
                    gap.finding.workload,
                    "" if low is None else f"{low:g}",
                    f"{gap.finding.gap_high_percent:g}",
                    gap.label,
                    "" if limit is None else f"{limit:g}",
                    "beyond tolerance" if gap.beyond_tolerance else "within tolerance",
                    study.title,
                    gap.finding.metric,
                )
            )
    return Table(
        (
            "finding",
            "gap_low_percent",
            "gap_high_percent",
            "gap",
            "tolerance_percent",
            "against",
            "case_study",
            "measure",
        ),
        tuple(rows),
    )


def evidence_table(
    validations: list[Validation], derived: dict[str, Derived], programs: dict[str, Program]
) -> Table:
    """How many results of each program give each answer to each question: one row per program,
    question and answer given, so the chart stays the same size at any number of results."""
    counts: Counter[tuple[str, int, str, str]] = Counter()
    for v in validations:
        for a in derived[v.id].answers:
            key = (programs[v.program].name, a.question.order, a.question.id)
            counts[(*key[:2], a.question.label, a.word)] += 1
    order = list(SHOWN_MEANINGS)
    rows = tuple(
        (program, label, word, str(count))
        for (program, _, label, word), count in sorted(
            counts.items(), key=lambda item: (item[0][0], item[0][1], order.index(item[0][3]))
        )
    )
    return Table(("program", "question", "answer", "results"), rows)


UNDATED = "no date stated"
# At most this many bars in a row: past it, months become quarters, then years, so the chart
# keeps to the page's width however long the record runs.
MAX_PERIODS = 18


def _period(day: date, size: str) -> str:
    if size == "month":
        return day.strftime("%Y-%m")
    if size == "quarter":
        return f"{day.year}-Q{(day.month - 1) // 3 + 1}"
    return str(day.year)


def timeline_table(validations: list[Validation], programs: dict[str, Program]) -> Table:
    """Results announced per period (month, quarter or year, the finest that fits) and program,
    oldest first, then the undated ones in one row per program: the chart grows with the time
    covered, not with the results."""
    days = [v.announced for v in validations if v.announced is not None]
    size = next(
        (s for s in ("month", "quarter") if len({_period(d, s) for d in days}) <= MAX_PERIODS),
        "year",
    )
    counts: Counter[tuple[str, str]] = Counter(
        (_period(v.announced, size) if v.announced else UNDATED, programs[v.program].name)
        for v in validations
    )
    rows = tuple(
        (period, program, str(count))
        for (period, program), count in sorted(
            counts.items(), key=lambda item: (item[0][0] == UNDATED, item[0])
        )
    )
    return Table((size if days else "month", "program", "results"), rows)


# --- which charts the site has -------------------------------------------------------------------


def site_charts(
    validations: list[Validation],
    derived: dict[str, Derived],
    titles: dict[str, str],
    programs: dict[str, Program],
    case_studies: list[CaseStudy],
    gaps: dict[str, list[Gap]],
    providers: dict[str, str],
) -> dict[str, Chart]:
    """Every chart of the site, by id: which charts it has, and what each says. `gaps` holds
    each case study's findings (`case_study_gaps.gaps`); `providers` maps provider ids to names."""
    charts = [
        *_coverage_charts(validations, derived, titles, providers),
        *_case_study_charts(programs, case_studies, gaps),
        _evidence_chart(validations, derived, programs),
        _timeline_chart(validations, programs),
    ]
    return {chart.id: chart for chart in charts}


def _coverage_charts(
    validations: list[Validation],
    derived: dict[str, Derived],
    titles: dict[str, str],
    providers: dict[str, str],
) -> list[Chart]:
    """One chart for each result that has a coverage grid (`coverage_table`)."""
    charts = []
    for v in validations:
        table = coverage_table(v, derived[v.id])
        if table is not None:
            reconciliation = derived[v.id].reconciliation
            suite = reconciliation.suite
            assert suite is not None
            in_suite = sum(1 for row in table.rows if row[2] != "not in suite")
            ran = (
                "The provider names this suite, and its counts match, so every cell in it ran."
                if cells_ran_stated(reconciliation)
                else f"Which cells {providers[v.provider]} ran is not published."
            )
            charts.append(
                Chart(
                    f"coverage-{v.id}",
                    "coverage",
                    f"Coverage: {titles[v.id]}",
                    f"The program owner's {suite.chip} suite at {suite.release}, graded "
                    f"{suite.grade}: {in_suite} of {len(table.rows)} model and precision cells are "
                    f"in the suite. {ran}",
                    table,
                )
            )
    return charts


def _case_study_charts(
    programs: dict[str, Program], case_studies: list[CaseStudy], gaps: dict[str, list[Gap]]
) -> list[Chart]:
    """The case studies' chart, or none where the site has no case study."""
    if not case_studies:
        return []
    tolerances = {
        f"within {t.percent:g}% of {t.against}"
        for t in (programs[c.program].tolerance for c in case_studies)
        if t is not None
    }
    stated = f": {'; '.join(sorted(tolerances))}" if tolerances else ""
    return [
        Chart(
            "case-studies",
            "case-studies",
            "Case studies: gap to the reference",
            "Each investigation's gap to the program owner's reference, as a range, in one "
            "panel per measure (a slower iteration and a lower throughput are not one "
            "quantity), beside the "
            f"program's tolerance (dashed line){stated}. A finding published only as a bound "
            "is drawn from zero.",
            case_study_table(case_studies, gaps),
        )
    ]


def _evidence_chart(
    validations: list[Validation], derived: dict[str, Derived], programs: dict[str, Program]
) -> Chart:
    return Chart(
        "evidence",
        "evidence",
        "Evidence by program",
        "For each program, how its results answer each evidence question, as a share of "
        "its results. A question that does not apply to a program's results is shown as "
        "not-applicable, never as a gap.",
        evidence_table(validations, derived, programs),
    )


def _timeline_chart(validations: list[Validation], programs: dict[str, Program]) -> Chart:
    # Every program name, not only those with results, so a program keeps its colour.
    program_names = tuple(sorted(p.name for p in programs.values()))
    return Chart(
        "timeline",
        "timeline",
        "Timeline of validations",
        "Results announced per month, by program; those whose announcement date no source "
        "states are counted together in one bar.",
        timeline_table(validations, programs),
        program_names,
    )
