"""Charts: pure functions from the site's facts to tables, and from tables to Altair charts.

A `Table` is each chart's data and its text alternative at once: the page shows it in the figure,
the CSV download is it, and the chart is drawn from it, so the three cannot disagree. Altair is
imported inside the functions that need it, so `cloudqual check` never loads it.

Colours are the Okabe-Ito palette, which stays distinct under the common colour-vision
deficiencies; every cell also carries its value as text, so colour is never the only signal.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .derive import Derived, cells_ran_stated, coverage_cells, newest_first
from .model import CaseStudy, Program, Question, Validation

if TYPE_CHECKING:
    import altair as alt

ANSWER_COLOURS = {
    "yes": "#009E73",
    "partial": "#56B4E9",
    "no": "#D55E00",
    "not-published": "#E69F00",
    "not-stated": "#BBBBBB",
    "unanswered": "#CC79A7",
}
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


def case_study_table(case_studies: list[CaseStudy], programs: dict[str, Program]) -> Table:
    rows = []
    for study in case_studies:
        tolerance = programs[study.program].tolerance
        limit = tolerance.percent if tolerance is not None else None
        for finding in study.findings:
            low = finding.gap_low_percent
            shown = (
                f"within {finding.gap_high_percent:g}%"
                if low is None
                else (f"{low:g}–{finding.gap_high_percent:g}%")
            )
            beyond = limit is not None and finding.gap_high_percent > limit
            rows.append(
                (
                    finding.workload,
                    "" if low is None else f"{low:g}",
                    f"{finding.gap_high_percent:g}",
                    shown,
                    "" if limit is None else f"{limit:g}",
                    "beyond tolerance" if beyond else "within tolerance",
                    study.title,
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
        ),
        tuple(rows),
    )


def evidence_table(
    validations: list[Validation], questions: list[Question], titles: dict[str, str]
) -> Table:
    rows = tuple(
        (
            titles[v.id],
            q.question,
            q.label,
            v.evidence[q.id].answer if q.id in v.evidence else "unanswered",
        )
        for v in validations
        for q in questions
    )
    return Table(("validation", "question", "label", "answer"), rows)


def timeline_table(
    validations: list[Validation], titles: dict[str, str], programs: dict[str, Program]
) -> Table:
    rows = tuple(
        (
            titles[v.id],
            v.announced.isoformat() if v.announced else "undated",
            programs[v.program].name,
        )
        for v in validations
    )
    return Table(("validation", "announced", "program"), rows)


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
    labels = base.mark_text(fontSize=10, color=CELL_TEXT).encode(text=f"{field}:N")
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
    import altair as alt

    base = alt.Chart(_values(table)).encode(
        y=alt.Y("finding:N", title=None, sort=None, axis=alt.Axis(labelLimit=260)),
    )
    # A finding published only as a bound ("within 3%") has no lower figure; its bar is drawn
    # from zero, and its label says "within", so the CSV never shows a lower bound of 0.
    bars = (
        base.transform_calculate(
            drawn_from="datum.gap_low_percent === '' ? 0 : toNumber(datum.gap_low_percent)"
        )
        .mark_bar(height=14)
        .encode(
            x=alt.X(
                "drawn_from:Q", title="Gap to the reference (%)", scale=alt.Scale(domain=[0, 60])
            ),
            x2="gap_high_percent:Q",
            color=alt.Color(
                "against:N",
                title="Against the tolerance",
                scale=alt.Scale(domain=list(RANGE_COLOURS), range=list(RANGE_COLOURS.values())),
            ),
            tooltip=["case_study:N", "finding:N", "gap:N"],
        )
    )
    labels = base.mark_text(align="left", dx=4).encode(x="gap_high_percent:Q", text="gap:N")
    tolerance = (
        alt.Chart(_values(table))
        .transform_filter("datum.tolerance_percent != ''")
        .transform_aggregate(tolerance="max(tolerance_percent)")
        .transform_calculate(label="'tolerance ' + datum.tolerance + '%'")
    )
    rule = tolerance.mark_rule(strokeDash=[4, 3], strokeWidth=2).encode(x="tolerance:Q")
    rule_label = tolerance.mark_text(align="left", dx=3, dy=-6, baseline="bottom").encode(
        x="tolerance:Q", y=alt.value(0), text="label:N"
    )
    return alt.layer(bars, labels, rule, rule_label).properties(width=420, height=alt.Step(30))


# Validation titles read "Provider Platform: Program"; break axis labels at the colon.
_TWO_LINES = "split(datum.label, ': ')"


def evidence_chart(table: Table) -> alt.TopLevelMixin:
    import altair as alt

    base = alt.Chart(_values(table)).encode(
        x=alt.X(
            "validation:N",
            title=None,
            sort=None,
            axis=alt.Axis(
                orient="bottom",
                labelAngle=0,
                labelExpr=_TWO_LINES,
                labelLimit=150,
                labelFontSize=10,
            ),
        ),
        y=alt.Y("label:N", title=None, sort=None),
    )
    grid = _labelled_cells(base, table, "answer", "Answer", ANSWER_COLOURS)
    return grid.properties(width=alt.Step(150), height=alt.Step(24))


def timeline_chart(table: Table, categories: tuple[str, ...] = ()) -> alt.TopLevelMixin:
    """One row per validation: a point on the time axis, or in the "no date stated" column."""
    import altair as alt

    programs = list(categories) or sorted({row[2] for row in table.rows})
    # An explicit domain puts every validation on a row of both panels.
    rows = alt.Scale(domain=[row[0] for row in table.rows])
    marks = {
        "shape": alt.Shape(
            "program:N",
            title="Program",
            scale=alt.Scale(domain=programs, range=PROGRAM_SHAPES[: len(programs)]),
        ),
        "color": alt.Color(
            "program:N",
            title="Program",
            scale=alt.Scale(domain=programs, range=PROGRAM_COLOURS[: len(programs)]),
        ),
        "tooltip": ["validation:N", "announced:N", "program:N"],
    }
    # Each panel gets its own rows: Vega-Lite parses a temporal field for the whole data source,
    # which would turn "undated" into null for the other panel too.
    dated_rows = [r for r in table.records() if r["announced"] != "undated"]
    undated_rows = [r for r in table.records() if r["announced"] == "undated"]
    dated = (
        alt.Chart(alt.Data(values=dated_rows))
        .mark_point(size=110, filled=True, opacity=1)
        .encode(
            x=alt.X(
                "announced:T",
                title="Announced",
                scale=alt.Scale(padding=24),
                axis=alt.Axis(format="%b %Y", tickCount=4),
            ),
            y=alt.Y(
                "validation:N", title=None, sort=None, scale=rows, axis=alt.Axis(labelLimit=300)
            ),
            **marks,
        )
        .properties(width=260, height=alt.Step(24))
    )
    undated = (
        alt.Chart(alt.Data(values=undated_rows))
        .mark_point(size=110, filled=True, opacity=1)
        .encode(
            x=alt.X(
                "announced:N", title="No date stated", axis=alt.Axis(labels=False, ticks=False)
            ),
            y=alt.Y("validation:N", title=None, sort=None, scale=rows, axis=None),
            **marks,
        )
        .properties(width=70, height=alt.Step(24))
    )
    combined: alt.TopLevelMixin = alt.hconcat(dated, undated, spacing=6)
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
        )
        .configure_legend(
            labelColor=colours["text"],
            titleColor=colours["text"],
            labelFont="sans-serif",
            titleFont="sans-serif",
        )
        .configure_title(color=colours["text"], font="sans-serif", anchor="start")
        .configure_text(color=colours["text"], font="sans-serif")
        .configure_rule(color=colours["rule"])
        .configure_view(stroke=None)
    )
    result: dict[str, Any] = themed.to_dict()
    return result


# --- which charts the site has -------------------------------------------------------------------


def site_charts(
    validations: list[Validation],
    derived: dict[str, Derived],
    titles: dict[str, str],
    questions: list[Question],
    programs: dict[str, Program],
    case_studies: list[CaseStudy],
    providers: dict[str, str],
) -> dict[str, Chart]:
    """Every chart of the site, by id. `providers` maps provider ids to names."""
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
                "Each investigation's gap to the program owner's reference, as a range, beside the "
                f"program's tolerance (dashed line){stated}. A finding published only as a bound "
                "is drawn from zero.",
                case_study_table(case_studies, programs),
            )
        )
    add(
        Chart(
            "evidence",
            "evidence",
            "Evidence matrix",
            "Every validation against every evidence question, coloured and labelled by answer.",
            evidence_table(validations, questions, titles),
        )
    )
    add(
        Chart(
            "timeline",
            "timeline",
            "Timeline of validations",
            "Validations by announcement date; those whose date no source states are shown as "
            "undated.",
            timeline_table(newest_first(validations), titles, programs),
            program_names,
        )
    )
    for provider_id, name in sorted(providers.items()):
        own = [v for v in validations if v.provider == provider_id]
        if not own:
            continue
        add(
            Chart(
                f"evidence-{provider_id}",
                "evidence",
                f"Evidence matrix: {name}",
                f"{name}'s validations against every evidence question, coloured and labelled by "
                "answer.",
                evidence_table(own, questions, titles),
            )
        )
        add(
            Chart(
                f"timeline-{provider_id}",
                "timeline",
                f"Timeline: {name}",
                f"{name}'s validations by announcement date; undated ones are shown as undated.",
                timeline_table(newest_first(own), titles, programs),
                program_names,
            )
        )
    return charts
