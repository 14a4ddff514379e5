"""The figures pages' facts (derive/figures.py) and the home page's freshness, on the real
content: every figure once, each set beside only its own kind, the better first, with its share
of the chip maker's own and its age."""

from __future__ import annotations

from datetime import date

import pytest

from generator.derive.figures import ChipFigures
from generator.derive.page_words import freshness
from generator.derive.site_facts import SiteFacts, derive_site
from generator.english import age_words
from generator.model.policy import Policy
from generator.model.site import Site

AS_OF = date(2026, 12, 2)


@pytest.fixture(scope="module")
def facts(real_site: Site) -> SiteFacts:
    return derive_site(real_site, Policy(AS_OF))


def _chip(facts: SiteFacts, name: str) -> ChipFigures:
    return next(c for c in facts.figures if c.chip == name)


def test_every_figure_of_a_result_on_a_chip_is_on_its_chip_page_once(
    facts: SiteFacts,
) -> None:
    on_chip = {
        v.id: facts.derived[v.id].reconciliation.chip
        for v in facts.validations
        if facts.derived[v.id].reconciliation.chip is not None
    }
    expected = sorted(
        (on_chip[v.id], v.id, i)
        for v in facts.validations
        if v.id in on_chip
        for i in range(len(v.measurements))
    )
    found = sorted(
        (chip.chip, line.validation.id, line.validation.measurements.index(line.figure.measurement))
        for chip in facts.figures
        for line in chip.lines
    )
    assert found == expected
    assert len(found) > 300
    assert [c.chip for c in facts.figures] == sorted(c.chip for c in facts.figures)


def test_llama_2_70b_on_b200_answers_which_cloud_is_closest_to_nvidia(facts: SiteFacts) -> None:
    """The walkthrough's question, read off one page: v5.1, 8 GPUs, Server at the 99% target."""
    lines = [
        line
        for line in _chip(facts, "B200").lines
        if line.workload == "Llama 2 70B"
        and line.under == "Server, 99% of the FP32 reference; closed division, available"
        and line.program == "MLPerf Inference v5.1"
    ]
    shown = [(line.provider, line.figure.value, line.share_words, line.count) for line in lines]
    lambda_name = "Lambda (its description names no cloud)"
    assert (lambda_name, "99,993.9 Tokens/s", "101% of NVIDIA's own", 8) in shown
    # The better figure first, within one benchmark and what it was measured under.
    values = [line.figure.measurement.value for line in lines]
    assert values == sorted(values, reverse=True) and len(values) >= 3
    lambda_line = next(line for line in lines if line.provider == lambda_name)
    assert lambda_line.share == pytest.approx(99993.9 / 99123)
    assert lambda_line.age == "14 months" and lambda_line.age_days == 449


def test_an_open_division_figure_names_its_model_and_has_no_share(facts: SiteFacts) -> None:
    lines = [
        line
        for chip in facts.figures
        for line in chip.lines
        if line.figure.measurement.model_run is not None
    ]
    assert lines
    for line in lines:
        m = line.figure.measurement
        assert line.workload.startswith(f"{m.model_run}, run in {m.workload}'s place")
        assert line.workload.endswith("(open division)")
        assert line.share is None
        assert line.share_words == "none: open division, held to no target"


def test_a_time_is_best_when_shortest_and_its_share_is_of_speed(facts: SiteFacts) -> None:
    times = [
        line
        for chip in facts.figures
        for line in chip.lines
        if line.figure.measurement.unit == "min"
    ]
    assert times
    for line in times:
        assert line.best == line.figure.measurement.value
        assert line.share is None or "of the speed of" in line.share_words
    assert any(line.share is not None for line in times)


def test_an_undated_result_has_no_age(facts: SiteFacts) -> None:
    undated = [
        line for chip in facts.figures for line in chip.lines if line.validation.announced is None
    ]
    assert undated  # MLPerf Inference v6.1, which no source dates
    assert {(line.age, line.age_days) for line in undated} == {("undated", None)}


@pytest.mark.parametrize(
    ("days", "words"),
    [
        (None, "undated"),
        (-1, "dated after this build's date"),
        (0, "0 days"),
        (1, "1 day"),
        (59, "59 days"),
        (60, "2 months"),
        (729, "24 months"),
        (730, "2 years"),
    ],
)
def test_an_age_is_said_in_the_unit_read_at_a_glance(days: int | None, words: str) -> None:
    assert age_words(days) == words


def test_the_home_page_says_how_fresh_the_evidence_is(facts: SiteFacts, real_site: Site) -> None:
    dated = [v for v in facts.validations if v.announced is not None]
    newest = max(dated, key=lambda v: v.announced or date.min)
    undated = len(facts.validations) - len(dated)
    said = freshness(newest, undated, AS_OF)
    assert said.startswith("On 2026-12-02, the newest dated evidence here was announced on ")
    assert newest.announced is not None and newest.announced.isoformat() in said
    assert f"{undated} results no source dates" in said
    assert freshness(newest, 0, AS_OF).endswith("earlier.")
    assert freshness(None, 3, AS_OF).startswith("On 2026-12-02, no result on this site is dated")


def test_a_chips_workloads_page_says_who_has_results_on_it_and_from_which_programs(
    facts: SiteFacts,
) -> None:
    """Which clouds have results on GB300, and from which programs: a row a provider, every
    result of it on the chip, by program, the newest round first."""
    chip = next(view for view in facts.chips if view.chip == "GB300")
    on_chip = {
        v.id for v in facts.validations if facts.derived[v.id].reconciliation.chip == "GB300"
    }
    listed = [v.id for _, _, results in chip.results for v in results]
    assert sorted(listed) == sorted(on_chip)  # every result once
    assert [p for p, _, _ in chip.results] == [p for p, _ in chip.providers]
    for _, _, results in chip.results:
        programs = [v.program for v in results]
        assert programs == sorted(programs, key=programs.index)  # each program's together
        for program in set(programs):
            releases = [v.program_release for v in results if v.program == program]
            keys = [tuple(int(n) for n in r.lstrip("v").split(".")) for r in releases if r]
            assert keys == sorted(keys, reverse=True), releases
    # Who ran a result, where not the provider itself, is in the words a phone shows.
    nvidia = next(results for p, _, results in chip.results if p == "nvidia")
    assert all(
        facts.rows[v.id].program_and_whom.endswith("(its description names no cloud)")
        for v in nvidia
    )
    coreweave = next(results for p, _, results in chip.results if p == "coreweave")
    assert next(v.program_release for v in coreweave if v.program == "mlperf-inference") == "v6.1"
