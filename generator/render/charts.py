"""Charts: from the tables of derive/chart_tables.py to Altair charts, themed, and to SVG.

The chart is drawn from the table the page also shows and the CSV download holds. Altair is
imported inside the functions that need it, so `cloudqual check` never loads it.

Colours are the Okabe-Ito palette, which stays distinct under the common colour-vision
deficiencies; every cell also carries its value as text, so colour is never the only signal.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import cache, partial
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.derive.chart_tables import UNDATED, Chart, Table
from generator.model.grades import SHOWN_MEANINGS
from generator.render.svg import Drawing

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
# The dark scheme's mark colours, where the light one's will not do on the slate background
# (#1e2029): near-white greys would outshine every meaningful mark (a "not applicable" bar the
# brightest on the chart), and the palette's blue is barely 3:1. Each replacement keeps at least
# 3:1 against the background and 4.5:1 under the dark cell text; tests check every dark mark.
DARK_MARKS = {
    "#EEEEEE": "#6E6E6E",
    "#DDDDDD": "#8C8C8C",
    "#BBBBBB": "#9A9A9A",
    "#0072B2": "#3D8FD1",
}
DARK_BACKGROUND = "#1e2029"


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
        y=alt.Y("finding:N", title=None, sort=None, axis=alt.Axis(labelLimit=320)),
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
        # Two programs a line: four side by side ran past a phone's screen, the last unseen.
        legend=alt.Legend(columns=2),
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
            # One count scale for both panels, its axis drawn once, on the months.
            y=alt.Y("count:Q", axis=None), color=colour, tooltip=tooltip,
        )
        .properties(width=90, height=160)
    )  # fmt: skip
    combined: alt.TopLevelMixin = alt.hconcat(by_month, no_date, spacing=16).resolve_scale(
        y="shared"
    )
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
    return recoloured(result, DARK_MARKS) if theme == "dark" else result


def recoloured(spec: Any, colours: dict[str, str]) -> Any:
    """`spec` with each mark colour of `colours` replaced. The data is left as it is: a value
    in a table that reads like a colour is content, never a colour."""
    if isinstance(spec, dict):
        return {
            key: value if key in ("data", "datasets") else recoloured(value, colours)
            for key, value in spec.items()
        }
    if isinstance(spec, list):
        return [recoloured(value, colours) for value in spec]
    if isinstance(spec, str):
        return colours.get(spec, spec)
    return spec


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
    # A partial, not a lambda: it is sent to the child process that draws it (svg.py).
    return Drawing(key, partial(spec, chart, theme))
