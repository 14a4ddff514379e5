"""Charts: each spec drawn from its own data, the SVG cache, and lazy imports."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from conftest import ROOT

from generator.derive.chart_tables import Chart
from generator.derive.site_facts import derive_site
from generator.model.options import Options
from generator.model.policy import Policy
from generator.model.site import Site
from generator.pipeline.run import site_output
from generator.render import charts, svg
from generator.render.reuse import Reuse
from generator.render.svg import SvgStore

POLICY = Policy(as_of=date(2026, 12, 2))


@pytest.fixture(scope="module")
def real(real_site: Site) -> Site:
    return real_site


@pytest.fixture(scope="module")
def site_charts(real: Site) -> dict[str, Chart]:
    return derive_site(real, POLICY).charts


def layers(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """Every single view in a spec, through layers, concatenations and facets."""
    found = []
    for key in ("layer", "hconcat", "vconcat"):
        for part in spec.get(key, []):
            found += layers(part)
    if "spec" in spec:  # a faceted chart: one view repeated per facet
        found += layers(spec["spec"])
    if "mark" in spec:
        found.append(spec)
    return found


def values(spec: dict[str, Any], view: dict[str, Any]) -> list[dict[str, Any]]:
    data = view.get("data") or spec["data"]
    if "values" in data:
        return list(data["values"])
    return list(spec["datasets"][data["name"]])


def test_coverage_spec_draws_the_13_of_24_cells(site_charts: dict[str, Chart]) -> None:
    chart = site_charts["coverage-crusoe-hgx-b300-exemplar"]
    spec = charts.spec(chart, "light")
    cells = [v for v in layers(spec) if v["mark"]["type"] == "rect"]
    assert len(cells) == 1
    data = values(spec, cells[0])
    assert len(data) == 24
    # The grid is NVIDIA's suite, not Crusoe's matrix: no cell is called tested.
    assert sum(1 for row in data if row["status"] == "in suite") == 13
    assert sum(1 for row in data if row["status"] == "not in suite") == 11
    assert not [row for row in data if row["status"] == "tested"]
    assert {"model": "Kimi-K2 1T", "precision": "FP8", "status": "in suite"} in data
    assert {"model": "Kimi-K2 1T", "precision": "BF16", "status": "not in suite"} in data
    colour = cells[0]["encoding"]["color"]
    assert colour["field"] == "status"
    assert colour["scale"]["domain"] == ["in suite", "not in suite"]
    assert colour["scale"]["range"] == [
        charts.CELL_COLOURS["in suite"],
        charts.CELL_COLOURS["not in suite"],
    ]
    assert "graded program-owner" in chart.caption
    assert "Which cells Crusoe ran is not published." in chart.caption
    text = [v for v in layers(spec) if v["mark"]["type"] == "text"]
    assert (
        text[0]["encoding"]["text"]["field"] == "status"
    )  # the status is written, not only coloured


def test_case_study_spec_draws_ranges_against_the_tolerance(
    site_charts: dict[str, Chart],
) -> None:
    spec = charts.spec(site_charts["case-studies"], "dark")
    bars = next(v for v in layers(spec) if v["mark"]["type"] == "bar")
    data = {row["finding"]: row for row in values(spec, bars)}
    assert (
        data["DeepSeek-V3 MoE FP8 pretraining"]["gap_low_percent"],
        data["DeepSeek-V3 MoE FP8 pretraining"]["gap_high_percent"],
    ) == ("12", "14")
    assert data["Dense Llama 3 70B recipes"]["gap"] == "within 3%"
    # Only an upper bound is published: the lower bound stays empty, never 0.
    assert data["Dense Llama 3 70B recipes"]["gap_low_percent"] == ""
    assert data["Dense Llama 3 70B recipes"]["against"] == "within tolerance"
    assert data["Training workloads on a B200 deployment"]["gap"] == "13–53%"
    assert {row["tolerance_percent"] for row in data.values()} == {"5"}
    assert bars["encoding"]["x"]["field"] == "drawn_from"
    drawn = next(t for t in bars["transform"] if t.get("as") == "drawn_from")
    assert "datum.gap_low_percent === ''" in drawn["calculate"]
    assert bars["encoding"]["x2"]["field"] == "gap_high_percent"
    rule = next(v for v in layers(spec) if v["mark"]["type"] == "rule")
    assert rule["encoding"]["x"]["field"] == "tolerance"
    # An iteration-time increase and a throughput deficit are not one measure: a panel each.
    assert spec["facet"]["row"]["field"] == "measure"
    assert data["DeepSeek-V3 MoE FP8 pretraining"]["measure"] == (
        "time per iteration above the bare-metal reference"
    )
    assert len({row["measure"] for row in data.values()}) == 3


def test_evidence_spec_counts_every_answer_by_program(
    real: Site, site_charts: dict[str, Chart]
) -> None:
    spec = charts.spec(site_charts["evidence"], "light")
    assert spec["facet"]["column"]["field"] == "program"
    bars = next(v for v in layers(spec) if v["mark"]["type"] == "bar")
    data = values(spec, bars)
    names = {p.id: p.name for p in real.programs.values()}
    # Every result answers every question once: per program and question, the counts add up to
    # that program's results, so the chart's size does not grow with them.
    for program_id, name in names.items():
        results = sum(v.program == program_id for v in real.validations.values())
        for q in real.questions.values():
            counted = sum(
                int(row["results"])
                for row in data
                if row["program"] == name and row["question"] == q.label
            )
            assert counted == results, (name, q.label)
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]
    exemplar = {
        (row["question"], row["answer"]) for row in data if row["program"] == names[crusoe.program]
    }
    assert {(q.label, crusoe.evidence[q.id].answer) for q in real.questions.values()} <= exemplar
    margin = real.questions["margin-computable"].label
    mlperf = [
        row for row in data if row["program"] == "MLPerf Training" and row["question"] == margin
    ]
    assert [row["answer"] for row in mlperf] == ["not-applicable"]
    assert len(data) < 3 * len(real.questions) * len(charts.ANSWER_COLOURS)


def test_timeline_counts_months_and_groups_the_undated(
    real: Site, site_charts: dict[str, Chart]
) -> None:
    spec = charts.spec(site_charts["timeline"], "light")
    dated, undated = layers(spec)
    # Each round's results in its month (MLPerf's rounds are dated by their publication), the
    # months in order, the oldest first.
    expected: dict[tuple[str, str], int] = {}
    for v in real.validations.values():
        if v.announced is not None:
            key = (v.announced.strftime("%Y-%m"), real.programs[v.program].name)
            expected[key] = expected.get(key, 0) + 1
    shown = values(spec, dated)
    assert {(r["month"], r["program"]): int(r["results"]) for r in shown} == expected
    assert ("2024-11", "MLPerf Training") in expected and ("2025-06", "MLPerf Training") in expected
    assert [r["month"] for r in shown] == sorted(r["month"] for r in shown)
    assert dated["encoding"]["x"]["type"] == "ordinal"
    # One bar per program for every result no source dates, not a row per result.
    rows = values(spec, undated)
    assert {row["month"] for row in rows} == {"no date stated"}
    assert len(rows) == len({r["program"] for r in rows})
    assert sum(int(row["results"]) for row in rows) == len(real.validations) - sum(
        expected.values()
    )
    # One count scale for both panels, its axis drawn once: two axes each labelled 1 to N
    # read as two different counts.
    assert spec["resolve"]["scale"]["y"] == "shared"
    assert dated["encoding"]["y"]["axis"] and undated["encoding"]["y"]["axis"] is None


def test_themes_differ_only_in_colours(site_charts: dict[str, Chart]) -> None:
    chart = site_charts["evidence"]
    light, dark = charts.spec(chart, "light"), charts.spec(chart, "dark")
    assert light["config"]["axis"]["labelColor"] != dark["config"]["axis"]["labelColor"]
    back = {dark_colour: light_colour for light_colour, dark_colour in charts.DARK_MARKS.items()}
    assert {k: v for k, v in light.items() if k != "config"} == {
        k: v for k, v in charts.recoloured(dark, back).items() if k != "config"
    }
    assert "#6E6E6E" in json.dumps(dark) and "#EEEEEE" not in json.dumps(dark)


def luminance(colour: str) -> float:
    channels = [int(colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


# What a dark chart draws that is not a mark on the background: the text on coloured cells (its
# own contrast is checked against the cells) and the grid lines, which carry no value.
NOT_ON_BACKGROUND = {charts.CELL_TEXT, charts.THEMES["dark"]["grid"]}


def hex_colours(spec: Any) -> set[str]:
    """Every colour a spec names outside its data."""
    if isinstance(spec, dict):
        return {c for k, v in spec.items() if k not in ("data", "datasets") for c in hex_colours(v)}
    if isinstance(spec, list):
        return {c for v in spec for c in hex_colours(v)}
    return {spec} if isinstance(spec, str) and re.fullmatch(r"#[0-9a-fA-F]{6}", spec) else set()


def test_every_dark_mark_has_3_to_1_on_the_background(site_charts: dict[str, Chart]) -> None:
    """Every colour a dark chart draws with stands at least 3:1 against the slate background,
    and the cell text at least 4.5:1 on every cell colour."""
    for chart in site_charts.values():
        for colour in hex_colours(charts.spec(chart, "dark")) - NOT_ON_BACKGROUND:
            assert contrast(colour, charts.DARK_BACKGROUND) >= 3, (chart.id, colour)
    for colour in charts.CELL_COLOURS.values():
        dark = charts.DARK_MARKS.get(colour, colour)
        assert contrast(charts.CELL_TEXT, dark) >= 4.5, colour
        assert contrast(charts.CELL_TEXT, colour) >= 4.5, colour


def test_every_chart_table_is_its_spec_data(site_charts: dict[str, Chart]) -> None:
    for chart in site_charts.values():
        spec = charts.spec(chart, "light")
        drawn = [
            row
            for view in layers(spec)
            if view["mark"]["type"] in ("rect", "bar", "point")
            for row in values(spec, view)
        ]
        assert sorted(map(json.dumps, drawn)) == sorted(map(json.dumps, chart.table.records()))


@pytest.mark.slow
def test_svg_cache_converts_only_what_changed(tmp_path: Path, real: Site) -> None:
    store = SvgStore(tmp_path / "cache")
    first = site_output(real, Options(ROOT / "templates", POLICY), reuse=Reuse(svg=store))
    cold = store.conversions
    assert cold == 2 * sum(1 for uri in first.data if uri.endswith(".csv") and "charts/" in uri)
    # A fresh store over the same cache folder, as in a second `mkdocs build`: nothing converts.
    again = SvgStore(tmp_path / "cache")
    second = site_output(real, Options(ROOT / "templates", POLICY), reuse=Reuse(svg=again))
    assert again.conversions == 0
    assert second.data == first.data
    # One changed answer changes the evidence charts that show it, and nothing else.
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]
    answer = crusoe.evidence["pricing-published"].model_copy(update={"answer": "yes"})
    changed = crusoe.model_copy(
        update={"evidence": {**crusoe.evidence, "pricing-published": answer}}
    )
    edited = Site(**{**real.__dict__, "validations": {**real.validations, crusoe.id: changed}})
    site_output(edited, Options(ROOT / "templates", POLICY), reuse=Reuse(svg=again))
    assert again.conversions == 2  # the evidence chart, light and dark


@pytest.mark.slow
def test_svgs_are_self_contained(tmp_path: Path, real: Site) -> None:
    output = site_output(
        real, Options(ROOT / "templates", POLICY), reuse=Reuse(svg=SvgStore(tmp_path))
    )
    svgs = {uri: data for uri, data in output.data.items() if uri.endswith(".svg")}
    charts_drawn = {
        uri for uri in output.data if uri.startswith("charts/") and uri.endswith(".csv")
    }
    assert len(svgs) == 2 * len(charts_drawn) >= 8
    for uri, data in svgs.items():
        root = ElementTree.fromstring(data)  # noqa: S314 - our own converter output
        assert root.tag.endswith("svg"), uri
        assert (
            b"http://" not in data.replace(b"http://www.w3.org/", b"") and b"https://" not in data
        )
        if uri.endswith(".dark.svg"):  # as drawn: every mark 3:1 against the slate background
            for element in root.iter():
                if element.tag.endswith("text"):
                    continue
                for colour in (element.get("fill"), element.get("stroke")):
                    if colour and colour.startswith("#") and colour not in NOT_ON_BACKGROUND:
                        assert contrast(colour, charts.DARK_BACKGROUND) >= 3, (uri, colour)


def test_a_chart_is_keyed_by_what_it_is_drawn_from(
    site_charts: dict[str, Chart], monkeypatch: pytest.MonkeyPatch
) -> None:
    chart = site_charts["evidence"]
    key = charts.drawing(chart, "light").key
    assert charts.drawing(chart, "light").key == key
    assert charts.drawing(chart, "dark").key != key
    rows = (*chart.table.rows[:-1], (*chart.table.rows[-1][:-1], "999"))
    edited = dataclasses.replace(chart, table=dataclasses.replace(chart.table, rows=rows))
    assert charts.drawing(edited, "light").key != key
    assert charts.drawing(dataclasses.replace(chart, title="Other"), "light").key != key
    # A new release of the drawing code or of a chart library is a new key.
    monkeypatch.setattr(charts, "code_version", lambda: "another version")
    assert charts.drawing(chart, "light").key != key


@pytest.mark.slow
def test_a_warm_render_builds_no_spec_and_imports_no_chart_library(tmp_path: Path) -> None:
    # A copy of the content, outside the repository: no history to read for the changelog.
    content = shutil.copytree(ROOT / "content", tmp_path / "content")
    probe = (
        "import sys; from generator.cli import main; "
        f"args = ['render', '--out', {str(tmp_path / 'out')!r}, '--cache', "
        f"{str(tmp_path / 'cache')!r}, '--as-of', '2026-12-02', '--content', "
        f"{str(content)!r}]; main(args); "
        "print('altair' in sys.modules, 'vl_convert' in sys.modules)"
    )
    run = [sys.executable, "-c", probe]
    cold = subprocess.run(run, capture_output=True, text=True, check=True, cwd=ROOT)
    assert cold.stdout.split()[-2:] == ["True", "True"]
    warm = subprocess.run(run, capture_output=True, text=True, check=True, cwd=ROOT)
    assert warm.stdout.split()[-2:] == ["False", "False"]


@pytest.mark.slow
def test_the_cache_keeps_only_what_the_last_build_used(tmp_path: Path, real: Site) -> None:
    cache = tmp_path / "cache"
    site_output(real, Options(ROOT / "templates", POLICY), reuse=Reuse(svg=SvgStore(cache)))
    charts_dir = cache / svg.FOLDER
    before = {path.name for path in charts_dir.iterdir()}
    (charts_dir / "0123abcd.svg").write_text("<svg/>")  # an entry no chart of this site has
    (charts_dir / "0123abcd.svg.partial-1").write_text("<sv")  # left by a stopped build
    (cache / "logo.svg").write_text("<svg/>")  # beside the store's folder: not the store's
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]
    answer = crusoe.evidence["pricing-published"].model_copy(update={"answer": "yes"})
    changed = crusoe.model_copy(
        update={"evidence": {**crusoe.evidence, "pricing-published": answer}}
    )
    edited = Site(**{**real.__dict__, "validations": {**real.validations, crusoe.id: changed}})
    store = SvgStore(cache)
    site_output(edited, Options(ROOT / "templates", POLICY), reuse=Reuse(svg=store))
    after = {path.name for path in charts_dir.iterdir()}
    assert (cache / "logo.svg").is_file()
    assert len(after) == len(before)  # two evidence SVGs replaced, nothing else left
    assert len(after - before) == 2 and store.conversions == 2
    assert "0123abcd.svg" not in after and "0123abcd.svg.partial-1" not in after


@pytest.mark.slow
def test_check_imports_neither_altair_nor_vl_convert() -> None:
    probe = (
        "import sys; from generator.cli import main; code = main(['check', '--content', "
        f"{str(ROOT / 'content')!r}]); "
        "print(code, 'altair' in sys.modules, 'vl_convert' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.split()[-3:] == ["0", "False", "False"]


@pytest.mark.slow
def test_parallel_conversion_matches_serial(
    tmp_path: Path, site_charts: dict[str, Chart], monkeypatch: pytest.MonkeyPatch
) -> None:
    from generator.render import svg

    drawings = {f"{c.id}.svg": charts.drawing(c, "light") for c in list(site_charts.values())[:4]}
    serial = SvgStore(tmp_path / "serial", workers=1).render(drawings)
    monkeypatch.setattr(svg, "PARALLEL_FROM", 2)
    parallel_store = SvgStore(tmp_path / "parallel", workers=2)
    assert parallel_store.render(drawings) == serial
    assert parallel_store.conversions == 4
    assert len(list((tmp_path / "parallel" / svg.FOLDER).glob("*.svg"))) == 4


@pytest.mark.slow
def test_charts_drawn_later_match_and_are_cached(
    tmp_path: Path, site_charts: dict[str, Chart]
) -> None:
    """A single build draws the charts its cache lacks later: begun in a child process beside
    MkDocs (`start`), or drawn by `finish` (in the build's own child, engines/child.py). The
    same bytes as drawn at once either way, and cached for the next build."""
    drawings = {f"{c.id}.svg": charts.drawing(c, "light") for c in list(site_charts.values())[:3]}
    at_once = SvgStore(tmp_path / "at-once", workers=1).render(drawings)
    (name, drawing), *_ = drawings.items()
    for started in (True, False):
        folder = tmp_path / f"later-{started}"
        store = SvgStore(folder)
        store.render({name: drawing})  # one already in the cache
        assert store.render(drawings, later=True) == {name: at_once[name]}
        assert store.pending
        if started:
            store.start()
        assert store.finish() == {n: svg for n, svg in at_once.items() if n != name}
        assert not store.pending and store.finish() == {}  # nothing is left
        assert store.conversions == 1 + 2
        fresh = SvgStore(folder)
        assert fresh.render(drawings) == at_once
        assert fresh.conversions == 0
    # Drawn since by another process (the build's child, which failed after): read, not drawn.
    store = SvgStore(tmp_path / "at-once")
    assert store.render(drawings, later=True) == at_once  # all cached: nothing left
    partly = SvgStore(tmp_path / "partly")
    assert partly.render(drawings, later=True) == {}
    SvgStore(tmp_path / "partly").render({name: drawing})
    svgs = sorted((tmp_path / "partly" / "cloudqual-charts").glob("*.svg"))
    before = [path.stat().st_mtime_ns for path in svgs]
    assert partly.finish() == at_once
    assert [path.stat().st_mtime_ns for path in svgs] == before  # not written again
    # A build that failed stops the drawing, and caches nothing of it.
    cancelled = SvgStore(tmp_path / "cancelled")
    assert cancelled.render(drawings, later=True) == {}
    cancelled.start()
    cancelled.cancel()
    assert not cancelled.pending and cancelled.finish() == {}
    assert list((tmp_path / "cancelled").rglob("*.svg")) == []


@pytest.mark.slow
def test_charts_are_drawn_where_no_child_process_can_start(tmp_path: Path) -> None:
    """A parent run from standard input cannot spawn a child that imports its main module: the
    child dies, and the charts left to it are drawn in the parent, never waited for."""
    script = f"""
from pathlib import Path
from generator.derive.chart_tables import Chart, Table
from generator.render import charts
from generator.render.svg import SvgStore

table = Table(("model", "precision", "status"), (("llama", "fp8", "tested"),))
chart = Chart("coverage-x", "coverage", "Coverage", "A cell.", table)
store = SvgStore(Path({str(tmp_path)!r}))
assert store.render({{"x.svg": charts.drawing(chart, "light")}}, later=True) == {{}}
store.start()
print(store.finish()["x.svg"][:4].decode())
"""
    result = subprocess.run(
        [sys.executable, "-"], input=script, capture_output=True, text=True, timeout=120,
        cwd=ROOT, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout == "<svg\n"
    assert len(list((tmp_path / svg.FOLDER).glob("*.svg"))) == 1


def _tiny_chart() -> Chart:
    from generator.derive.chart_tables import Table

    table = Table(("model", "precision", "status"), (("llama", "fp8", "tested"),))
    return Chart("coverage-x", "coverage", "Coverage", "A cell.", table)


def _plant_link(entry: Path, tmp_path: Path, other: Path) -> Path:
    """The entry a symbolic link to a private file: what the build would publish."""
    private = tmp_path / "home" / ".ssh" / "id_ed25519"
    private.parent.mkdir(parents=True)
    private.write_text("PRIVATE KEY\n")
    entry.unlink()
    entry.symlink_to(private)
    return private


def _plant_link_to_a_chart(entry: Path, tmp_path: Path, other: Path) -> Path:
    """A link to a copy of the very entry, elsewhere: its bytes hold, but a link is no entry."""
    copy = tmp_path / "elsewhere.svg"
    copy.write_bytes(entry.read_bytes())
    entry.unlink()
    entry.symlink_to(copy)
    return copy


def _plant_script(entry: Path, tmp_path: Path, other: Path) -> Path:
    entry.write_bytes(b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
    return entry


def _plant_script_under_the_seal(entry: Path, tmp_path: Path, other: Path) -> Path:
    """The entry as stored, a script added after whatever precedes the SVG (a seal, if any)."""
    entry.write_bytes(entry.read_bytes().replace(b"</svg>", b"<script>alert(1)</script></svg>"))
    return entry


def _plant_another_chart(entry: Path, tmp_path: Path, other: Path) -> Path:
    """Another chart's entry, as stored, under this chart's key."""
    entry.write_bytes(other.read_bytes())
    return entry


PLANTED = {
    "a link to a private file": (_plant_link, "symbolic link"),
    "a link to a copy of the entry": (_plant_link_to_a_chart, "symbolic link"),
    "an SVG with a script": (_plant_script, "seal"),
    "a script added to the entry": (_plant_script_under_the_seal, "seal"),
    "another chart's entry": (_plant_another_chart, "seal"),
}


@pytest.mark.parametrize("case", sorted(PLANTED))
def test_a_chart_the_cache_did_not_write_is_drawn_again(
    tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Whoever can write the cache folder (`cache_dir` may name one in the project) could place
    a chart there that the site then serves: a link to a private file, or a script. Each entry
    is sealed with the memo's secret (pipeline/memo.py); one that fails is drawn again, and the log
    says which and why."""
    plant, why = PLANTED[case]
    cache = tmp_path / "cache"
    light, dark = (charts.drawing(_tiny_chart(), scheme) for scheme in ("light", "dark"))
    drawn = SvgStore(cache).render({"light.svg": light, "dark.svg": dark})
    entry = cache / svg.FOLDER / f"{light.key}.svg"
    planted = plant(entry, tmp_path, cache / svg.FOLDER / f"{dark.key}.svg")
    before = planted.read_bytes()
    capsys.readouterr()
    store = SvgStore(cache)
    assert store.render({"light.svg": light}) == {"light.svg": drawn["light.svg"]}
    assert store.conversions == 1
    said = capsys.readouterr().err
    assert str(entry) in said and why in said and "drawn again" in said, said
    assert len(said.strip().splitlines()) == 1, said
    # Replaced, never written through; and, drawn again, used as it is by the next build.
    assert entry.is_file() and not entry.is_symlink()
    if planted != entry:
        assert planted.read_bytes() == before
    again = SvgStore(cache)
    assert again.render({"light.svg": light}) == {"light.svg": drawn["light.svg"]}
    assert again.conversions == 0 and capsys.readouterr().err == ""


def test_a_link_where_a_chart_is_written_is_replaced_never_written_through(
    tmp_path: Path,
) -> None:
    """The store writes each entry beside its place, then renames it: a link placed at that
    name (it holds the process id, which CI makes easy to guess) is not written through."""
    import os

    cache = tmp_path / "cache"
    light = charts.drawing(_tiny_chart(), "light")
    store = SvgStore(cache)
    store.check()
    folder = cache / svg.FOLDER
    store._folder()  # claimed, as the first render claims it
    private = tmp_path / "home" / ".bashrc"
    private.parent.mkdir()
    private.write_text("# mine\n")
    (folder / f"{light.key}.svg.partial-{os.getpid()}").symlink_to(private)
    drawn = store.render({"light.svg": light})
    assert private.read_text() == "# mine\n"
    assert drawn["light.svg"].startswith(b"<svg")
    assert SvgStore(cache).render({"light.svg": light}) == drawn


def test_the_entries_not_used_are_told_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A cache restored from another machine, whose seals this user's secret does not make,
    fails entry by entry: one line says so, not one line a chart."""
    cache = tmp_path / "cache"
    drawings = {s: charts.drawing(_tiny_chart(), s) for s in ("light", "dark")}
    drawn = SvgStore(cache).render(drawings)
    for drawing in drawings.values():
        _plant_script(cache / svg.FOLDER / f"{drawing.key}.svg", tmp_path, tmp_path)
    capsys.readouterr()
    store = SvgStore(cache)
    assert store.render(drawings) == drawn and store.conversions == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and said[0].endswith("; and 1 more cached SVGs were not used"), said
