"""Every sentence around an inference figure is true of its data: on every built page, a figure of
an open-division result, or of a model run in a benchmark's place, is shown with its division and
the model actually run; a pair page sets side by side only figures of the same metric and
division; and each figure says what it was measured under."""

from __future__ import annotations

import csv
import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from test_history import Blocks

from generator.derive.provenance import (
    accuracy_words,
    against_words,
    served_words,
    system_of,
    value_words,
    workload_words,
)
from generator.model.measurements import (
    AccuracyValue,
    Measurement,
    Reference,
    ReportedAccuracy,
    System,
)
from generator.model.site import Site
from generator.model.validation import Validation

# The blocks a figure is shown in, whose text must say what the figure is: a row with every
# cell of it.
BLOCKS = {"tr", "li", "p"}


def blocks(page: Path) -> list[str]:
    parser = Blocks(BLOCKS, innermost=False)
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.found


def _opened(validation: Validation, measurement: Measurement) -> bool:
    system = system_of(validation, measurement)
    return system is not None and system.division == "open"


def _figures(site: Site) -> tuple[list[tuple[Validation, Measurement]], set[str]]:
    """The open-division and stand-in figures, and every other figure's value as shown."""
    marked, others = [], set()
    for v in site.validations.values():
        for m in v.measurements:
            shown = value_words(m.value, m.unit)
            if _opened(v, m) or m.model_run:
                marked.append((v, m))
            else:
                others.add(shown)
    return marked, others


@pytest.mark.build
def test_an_open_or_stand_in_figure_is_never_shown_without_its_division_and_model(
    built: Path, real_site: Site
) -> None:
    marked, others = _figures(real_site)
    pages = {p: blocks(p) for p in built.rglob("*.html")}
    checked = 0
    for v, m in marked:
        shown = value_words(m.value, m.unit)
        # A value a closed figure shares could be either: only a value of its own is traced.
        assert shown not in others, (v.id, shown)
        for page, found in pages.items():
            for block in found:
                if not re.search(rf"(?<![\d.]){re.escape(shown)}", block):
                    continue
                where = f"{page.relative_to(built)}: {block[:300]}"
                if _opened(v, m):
                    assert "open division" in block, where
                if m.model_run:
                    assert m.model_run in block, where
                checked += 1
    # The L40S stand-in alone is on its result's, its provider's and its chip's pages.
    assert len(marked) >= 8 and checked >= 3 * len(marked), (len(marked), checked)


@pytest.mark.build
def test_the_downloads_say_each_figure_s_division_availability_and_model(
    built: Path, real_site: Site
) -> None:
    rows = list(csv.DictReader(io.StringIO((built / "downloads/measurements.csv").read_text())))
    served = [r for r in rows if r["scenario"]]
    assert served and all(r["division"] in ("closed", "open") for r in served)
    assert all(r["availability"] for r in served)
    opened = [r for r in served if r["division"] == "open"]
    assert opened and all(not r["accuracy_target"] for r in opened)
    assert all(r["accuracy_reported"] for r in opened)
    standin = [r for r in rows if r["model_run"]]
    assert {r["model_run"] for r in standin} == {"neuralmagic_Llama-2-7b-chat-hf-FP8"}
    assert all(r["division"] == "open" for r in standin)


UNIT = re.compile(r"\d[\d,.]* (min|Tokens/s|Samples/s|Queries/s|ms)\b")


class PairRows(HTMLParser):
    """The rows of a pair page's "Measured by both" table: (workload, first cell, second)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.inside = False
        self.cells: list[str] = []
        self.rows: list[list[str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = dict(attrs).get("class") or ""
        if tag == "table" and "cq-pair-measurements" in classes:
            self.inside = True
        elif self.inside and tag == "tr":
            self.cells = []
        elif self.inside and tag in ("td", "th"):
            self.cells.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.inside = False
        elif self.inside and tag == "tr" and self.cells:
            self.rows.append(self.cells)

    def handle_data(self, data: str) -> None:
        if self.inside and self.cells:
            self.cells[-1] += data


@pytest.mark.build
def test_a_pair_page_sets_side_by_side_only_figures_of_one_metric_and_division(
    built: Path,
) -> None:
    compared = 0
    for page in sorted((built / "pairs").glob("*/index.html")):
        parser = PairRows()
        parser.feed(page.read_text(encoding="utf-8"))
        for workload, first, second in parser.rows[1:]:  # the header row first
            where = f"{page.parent.name}: {workload}"
            units = [set(UNIT.findall(cell)) for cell in (first, second)]
            assert units[0] and units[0] == units[1], (where, units)
            assert ("open division" in first) == ("open division" in second), where
            compared += 1
        shown = {unit for row in parser.rows[1:] for unit in UNIT.findall(row[1])}
        if shown - {"min"}:  # a rate or a latency is not "a time"
            assert "Each figure is a time at" not in page.read_text(encoding="utf-8"), page
    assert compared >= 20


def _system(**changes: object) -> System:
    base = System(
        source="s", grade="program-owner", key="k", name="Nebius B200", division="closed",
        status="available", accelerator="NVIDIA B200-SXM-180GB", nodes=1,
        accelerators_per_node=8, framework="TensorRT 10.11, CUDA 12.9",
        host_processor="Intel(R) Xeon(R) Platinum 8580", cooling="Air-cooled",
        driver="575.57.08",
    )  # fmt: skip
    return base.model_copy(update=changes)


def _measurement(**changes: object) -> Measurement:
    base = Measurement(
        workload="Llama 2 70B", metric="throughput", value=101.0, unit="Tokens/s", source="s",
        grade="program-owner", system="k", benchmark="llama2-70b-99", scenario="Server",
        accuracy_target="99% of the FP32 reference",
    )  # fmt: skip
    return base.model_copy(update=changes)


def test_a_figure_beside_the_makers_names_what_the_descriptions_differ_in() -> None:
    reference = Reference(
        source="r", grade="program-owner", submitter="NVIDIA", system="B200-SXM-180GBx8_TRT",
        accelerators=8, value=100.0, framework="TensorRT 10.11, CUDA 12.9",
        host_processor="Intel(R) Xeon(R) Platinum 8570", cooling="Air-cooled",
        driver="570.148",
    )  # fmt: skip
    words = against_words(_measurement(reference=reference), "GPU", _system())
    assert words == (
        "101% of NVIDIA's own result (100 Tokens/s on 8 GPUs), same round; the same framework "
        "described; described differently: host CPU Intel(R) Xeon(R) Platinum 8580 against "
        "Intel(R) Xeon(R) Platinum 8570 and driver 575.57.08 against 570.148"
    )
    same = reference.model_copy(update={"host_processor": None, "driver": "575.57.08"})
    assert against_words(_measurement(reference=same), "GPU", _system()).endswith(
        "; the same framework described"
    )  # a fact one description leaves out is not a difference


@pytest.mark.parametrize(
    ("system", "measurement", "expected"),
    [
        (
            {},
            {},
            "Server, 99% of the FP32 reference; closed division, available",
        ),
        (
            {"status": "preview"},
            {},
            "Server, 99% of the FP32 reference; closed division, preview: not available when "
            "measured",
        ),
        (
            {"division": "open"},
            {"accuracy_target": None},
            "Server, no accuracy target (open division); its accuracy was not read; open "
            "division, available",
        ),
    ],
)
def test_each_inference_figure_says_what_it_was_measured_under(
    system: dict[str, object], measurement: dict[str, object], expected: str
) -> None:
    assert served_words(_measurement(**measurement), _system(**system)) == expected


def test_a_model_run_in_a_benchmark_s_place_is_named_first() -> None:
    standin = _measurement(model_run="neuralmagic_Llama-2-7b-chat-hf-FP8")
    assert workload_words(standin) == (
        "neuralmagic_Llama-2-7b-chat-hf-FP8, run in Llama 2 70B's place"
    )
    assert workload_words(_measurement()) == "Llama 2 70B"


def test_an_open_figure_s_accuracy_reads_to_four_decimals_and_is_judged_as_logged() -> None:
    """The logs' seventeen digits are a float's: the words keep four decimals, while the judged
    targets are the importer's, from the value as logged."""
    reported = ReportedAccuracy(
        values=[
            AccuracyValue(metric="exact_match", value=81.17593436645396),
            AccuracyValue(metric="TOKENS_PER_SAMPLE", value=3739.3393345487693),
        ],
        meets=["99% of the FP32 reference"],
        misses=[],
    )
    words = accuracy_words(_measurement(accuracy=reported), _system(division="open"))
    assert words == (
        "no accuracy target (open division): its logs report exact_match 81.1759 and "
        "TOKENS_PER_SAMPLE 3,739.3393, meeting the closed division's 99% of the FP32 reference "
        "target"
    )
