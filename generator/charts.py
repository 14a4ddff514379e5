"""Charts: pure functions from the site's facts to tables, and from tables to Altair charts.

A `Table` is each chart's data and its text alternative at once: the page shows it in the figure,
the CSV download is it, and the chart is drawn from it, so the three cannot disagree. Altair is
imported inside the functions that need it, so `cloudqual check` never loads it.

Colours are the Okabe-Ito palette, which stays distinct under the common colour-vision
deficiencies; every cell also carries its value as text, so colour is never the only signal.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .derive import Derived, Gap, cells_ran_stated, coverage_cells
from .model import SHOWN_MEANINGS, CaseStudy, Program, Validation
from .svg import Drawing

if TYPE_CHECKING:
    import altair as alt

ANSWER_COLOURS = {
    "yes": "#009E73",
    "partial": "#56B4E9",
    "no": "#D55E00",
    "not-published": "#E69F00",
    "not-stated": "#BBBBBB",
    "unanswered": "#CC79A7",
    "not-applicable": "#EEEEEE",
}
# A colour for every word a page shows for an answer, in the order the legend lists them.
assert list(ANSWER_COLOURS) == list(SHOWN_MEANINGS)
CELL_COLOURS = {
    "tested": "#009E73",
    "in suite": "#56B4E9",
    "not in suite": "#DDDDDD",
}
RANGE_COLOURS = {"beyond tolerance": "#D55E00", "within tolerance": "#009E73"}
PROGRAM_SHAPES = ["circle", "square", "triangle-up", "diamond", "cross"]
PROGRAM_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00"]
# Text on the coloured cells: dark on every palette colour above, in both schemes.
CELL_TEXT = "#111111"
# Every chart is drawn no wider than the page's content column at a 1280 px window (about 690 px),
# so its SVG is shown at its own size and this is the smallest text a reader sees.
FONT_SIZE = 12
MAX_WIDTH = 680
THEMES = {
    "light": {"text": "#1f1f1f", "grid": "#d9d9d9", "rule": "#1f1f1f"},
    "dark": {"text": "#e6e6e6", "grid": "#4a4a4a", "rule": "#f0f0f0"},
}


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

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
    """Each finding's gap (`derive.gaps`), by case study id in `gaps`, one row each."""
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
    order = list(ANSWER_COLOURS)
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


# --- charts: how each table is drawn -------------------------------------------------------------


def _values(table: Table) -> Any:
    import altair as alt

    return alt.Data(values=table.records())


def _labelled_cells(
    base: alt.Chart, table: Table, field: str, title: str, colours: dict[str, str]
) -> alt.LayerChart:
    """A grid of cells coloured by `field`, each also labelled with its value as text."""
    import altair as alt

    values = {row[table.columns.index(field)] for row in table.rows}
    present = [value for value in colours if value in values]
    cells = base.mark_rect(stroke="#777777", strokeWidth=0.5).encode(
        color=alt.Color(
            f"{field}:N",
            title=title,
            scale=alt.Scale(domain=present, range=[colours[value] for value in present]),
        ),
        tooltip=[f"{column}:N" for column in table.columns],
    )
    labels = base.mark_text(fontSize=FONT_SIZE, color=CELL_TEXT).encode(text=f"{field}:N")
    return alt.LayerChart(layer=[cells, labels])


def coverage_chart(table: Table) -> alt.TopLevelMixin:
    import altair as alt

    base = alt.Chart(_values(table)).encode(
        x=alt.X("precision:N", title="Precision", axis=alt.Axis(orient="top", labelAngle=0)),
        y=alt.Y("model:N", title=None, sort=None),
    )
    grid = _labelled_cells(base, table, "status", "Cell", CELL_COLOURS)
    return grid.properties(width=360, height=alt.Step(26))


def case_study_chart(table: Table) -> alt.TopLevelMixin:
    """One panel per measure: an iteration-time increase and a throughput deficit are different
    quantities, so each gets its own axis, titled with what it measures."""
    import altair as alt

    # A finding published only as a bound ("within 3%") has no lower figure; its bar is drawn
    # from zero, and its label says "within", so the CSV never shows a lower bound of 0.
    base = alt.Chart().encode(
        y=alt.Y("finding:N", title=None, sort=None, axis=alt.Axis(labelLimit=220)),
    )
    bars = (
        base.transform_calculate(
            drawn_from="datum.gap_low_percent === '' ? 0 : toNumber(datum.gap_low_percent)"
        )
        .mark_bar(height=14)
        .encode(
            x=alt.X("drawn_from:Q", title="Gap (%)", scale=alt.Scale(domain=[0, 60])),
            x2="gap_high_percent:Q",
            color=alt.Color(
                "against:N",
                title="Against the tolerance",
                scale=alt.Scale(domain=list(RANGE_COLOURS), range=list(RANGE_COLOURS.values())),
            ),
            tooltip=["case_study:N", "measure:N", "finding:N", "gap:N"],
        )
    )
    labels = base.mark_text(align="left", dx=4).encode(x="gap_high_percent:Q", text="gap:N")
    tolerance = (
        alt.Chart()
        .transform_filter("datum.tolerance_percent != ''")
        .transform_aggregate(tolerance="max(tolerance_percent)")
        .transform_calculate(label="'tolerance ' + datum.tolerance + '%'")
    )
    rule = tolerance.mark_rule(strokeDash=[4, 3], strokeWidth=2).encode(x="tolerance:Q")
    layered = alt.layer(bars, labels, rule, data=_values(table)).properties(
        width=320, height=alt.Step(30)
    )
    faceted: alt.TopLevelMixin = layered.facet(
        row=alt.Row("measure:N", title=None, header=alt.Header(labelAngle=0, labelAlign="left",
                    labelOrient="top")),
    ).resolve_scale(y="independent")  # fmt: skip
    return faceted


def evidence_chart(table: Table) -> alt.TopLevelMixin:
    """For each program, a bar per question split by the answers its results give."""
    import altair as alt

    present = [a for a in ANSWER_COLOURS if a in {r[2] for r in table.rows}]
    bars = (
        alt.Chart(_values(table))
        .transform_calculate(count="toNumber(datum.results)")
        .mark_bar(stroke="#777777", strokeWidth=0.5)
        .encode(
            y=alt.Y("question:N", title=None, sort=None, axis=alt.Axis(labelLimit=170)),
            x=alt.X("sum(count):Q", title="Results", stack="normalize",
                    axis=alt.Axis(format="%", tickCount=4)),
            color=alt.Color("answer:N", title="Answer", sort=present,
                            scale=alt.Scale(domain=present,
                                            range=[ANSWER_COLOURS[a] for a in present])),
            order=alt.Order("order:Q"),
            tooltip=["program:N", "question:N", "answer:N", "results:N"],
        )
        .transform_calculate(order=f"indexof({present!r}, datum.answer)")
        .properties(width=148, height=alt.Step(22))
    )  # fmt: skip
    faceted: alt.TopLevelMixin = bars.facet(
        column=alt.Column("program:N", title=None, header=alt.Header(labelLimit=160)),
        spacing=8,
    )
    return faceted


def timeline_chart(table: Table, categories: tuple[str, ...] = ()) -> alt.TopLevelMixin:
    """Results announced per month, by program, and beside them one bar for the undated."""
    import altair as alt

    programs = list(categories) or sorted({row[1] for row in table.rows})
    colour = alt.Color(
        "program:N",
        title="Program",
        scale=alt.Scale(domain=programs, range=PROGRAM_COLOURS[: len(programs)]),
    )
    count = alt.Y("count:Q", title="Results", axis=alt.Axis(tickMinStep=1, format="d"))
    period = table.columns[0]
    tooltip = [f"{period}:N", "program:N", "results:N"]
    # The undated results get a panel of their own, apart from the months' order.
    dated = [r for r in table.records() if r[period] != UNDATED]
    undated = [r for r in table.records() if r[period] == UNDATED]
    by_month = (
        alt.Chart(alt.Data(values=dated))
        .transform_calculate(count="toNumber(datum.results)")
        .mark_bar()
        .encode(
            # Months as an ordered axis: a bar a month, as wide with one month as with forty.
            x=alt.X(f"{period}:O", title=f"Announced ({period})", sort="ascending",
                    axis=alt.Axis(labelAngle=-45, labelOverlap="parity")),
            y=count, color=colour, tooltip=tooltip,
        )
        .properties(width=alt.Step(28), height=160)
    )  # fmt: skip
    no_date = (
        alt.Chart(alt.Data(values=undated))
        .transform_calculate(count="toNumber(datum.results)")
        .mark_bar()
        .encode(
            x=alt.X(f"{period}:N", title=None, axis=alt.Axis(labelAngle=0)),
            y=count, color=colour, tooltip=tooltip,
        )
        .properties(width=90, height=160)
    )  # fmt: skip
    combined: alt.TopLevelMixin = alt.hconcat(by_month, no_date, spacing=16)
    return combined


DRAW: dict[str, Callable[..., alt.TopLevelMixin]] = {
    "coverage": coverage_chart,
    "case-studies": case_study_chart,
    "evidence": evidence_chart,
    "timeline": timeline_chart,
}


def spec(chart: Chart, theme: str) -> dict[str, Any]:
    """The Vega-Lite spec of `chart` in a colour scheme: the data is the chart's own table."""
    colours = THEMES[theme]
    drawn = DRAW[chart.kind](chart.table, *([chart.categories] if chart.categories else []))
    themed = (
        drawn.properties(title=chart.title, background="transparent")
        .configure_axis(
            labelColor=colours["text"],
            titleColor=colours["text"],
            gridColor=colours["grid"],
            domainColor=colours["grid"],
            tickColor=colours["grid"],
            labelFont="sans-serif",
            titleFont="sans-serif",
            labelFontSize=FONT_SIZE,
            titleFontSize=FONT_SIZE,
        )
        .configure_legend(
            labelColor=colours["text"],
            titleColor=colours["text"],
            labelFont="sans-serif",
            titleFont="sans-serif",
            labelFontSize=FONT_SIZE,
            titleFontSize=FONT_SIZE,
            orient="bottom",
            direction="horizontal",
            columns=4,
        )
        .configure_header(
            labelColor=colours["text"], labelFont="sans-serif", labelFontSize=FONT_SIZE + 1
        )
        .configure_title(
            color=colours["text"], font="sans-serif", anchor="start", fontSize=FONT_SIZE + 2
        )
        .configure_text(color=colours["text"], font="sans-serif", fontSize=FONT_SIZE)
        .configure_rule(color=colours["rule"])
        .configure_view(stroke=None)
    )
    # The spec is Altair's own output, so checking it against the Vega-Lite schema again would
    # only cost time: the tests convert every chart of the site.
    result: dict[str, Any] = themed.to_dict(validate=False)
    return result


@cache
def code_version() -> str:
    """The version of everything that turns a table into an SVG: this module's source, and
    Altair's and vl-convert's releases. Read without importing either library."""
    parts = [Path(__file__).read_bytes()]
    parts += [version(name).encode() for name in ("altair", "vl-convert-python")]
    return hashlib.sha256(b"\0".join(parts)).hexdigest()


def drawing(chart: Chart, theme: str) -> Drawing:
    """The SVG of `chart` in a colour scheme, keyed by what it is drawn from."""
    drawn_from = [theme, chart.kind, chart.title, chart.table.columns, chart.table.rows]
    text = json.dumps([code_version(), *drawn_from, chart.categories], ensure_ascii=False)
    key = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return Drawing(key, lambda: spec(chart, theme))


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
    each case study's findings (`derive.gaps`); `providers` maps provider ids to names."""
    charts: dict[str, Chart] = {}
    program_names = tuple(sorted(p.name for p in programs.values()))

    def add(chart: Chart) -> None:
        charts[chart.id] = chart

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
            add(
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
    if case_studies:
        tolerances = {
            f"within {t.percent:g}% of {t.against}"
            for t in (programs[c.program].tolerance for c in case_studies)
            if t is not None
        }
        stated = f": {'; '.join(sorted(tolerances))}" if tolerances else ""
        add(
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
        )
    add(
        Chart(
            "evidence",
            "evidence",
            "Evidence by program",
            "For each program, how its results answer each evidence question, as a share of "
            "its results. A question that does not apply to a program's results is shown as "
            "not-applicable, never as a gap.",
            evidence_table(validations, derived, programs),
        )
    )
    add(
        Chart(
            "timeline",
            "timeline",
            "Timeline of validations",
            "Results announced per month, by program; those whose announcement date no source "
            "states are counted together in one bar.",
            timeline_table(validations, programs),
            program_names,
        )
    )
    return charts
