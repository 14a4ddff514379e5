"""Imported benchmark results on the site: the measurements table, caveats by rule, the pages."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from browsing import chromium, served
from conftest import ROOT
from playwright.sync_api import expect

from generator.derive import validation as derive
from generator.derive.caveats import rules as caveat_rules
from generator.model.measurements import InvalidResult
from generator.model.policy import Policy
from generator.model.site import Site
from generator.publish.api import MEASUREMENT_COLUMNS
from generator.publish.measurement_table import measurement_rows
from generator.render.output import Output

CONTENT = ROOT / "content"
IMPORTED_RULES = {
    "cloud-is-rentability",
    "time-at-its-size",
    "closed-division-fixes-model",
    "benchmark-not-workload",
}
SERVED_RULES = {
    "offline-without-latency",
    "served-at-its-size",
    "open-division",
    "preview-not-available",
    "invalid-served",
}


@pytest.fixture(scope="module")
def site(real_site: Site) -> Site:
    return real_site


@pytest.fixture(scope="module")
def output(real_output: Output) -> Output:
    return real_output  # the session's one render of the real content, on AS_OF


def _caveat_rules(site: Site, validation_id: str, **update: object) -> set[str]:
    validation = site.validations[validation_id].model_copy(update=update)
    derived = derive.derive_validation(
        validation,
        program=site.programs[validation.program],
        platform=site.platforms.get(validation.platform or ""),
        provider_name=site.providers[validation.provider].name,
        suites=list(site.suites.values()),
        program_case_studies=[
            c for c in site.case_studies.values() if c.program == validation.program
        ],
        checklists=list(site.checklists.values()),
        policy=Policy(as_of=validation.last_reviewed),
        questions=dict(site.questions),
    )
    return {caveat.rule for caveat in derived.standard_caveats}


def test_the_imported_training_rounds_are_in_content(site: Site) -> None:
    imported = [
        v for v in site.validations.values() if v.program == "mlperf-training" and v.systems
    ]
    assert {v.program_release for v in imported} == {"v4.1", "v5.0", "v5.1", "v6.0"}
    assert sum(len(v.measurements) for v in imported) == 103
    # v6.0 is read from a copy not authored by MLCommons: every fact of it is secondary.
    copied = [v for v in imported if v.program_release == "v6.0"]
    assert copied and all(m.grade == "secondary" for v in copied for m in v.measurements)
    # All but Oracle's MI355X time, read whole, are scored from excerpts, and say so.
    excerpted = [m for v in copied for m in v.measurements if m.system != "8xMI355X_2xEPYC_9575F"]
    assert len(excerpted) == 30
    assert all("Scored from excerpts of its" in (m.note or "") for m in excerpted)
    # Every measurement sits on one of its record's systems, with MLCommons' benchmark id.
    for v in imported:
        keys = {s.key for s in v.systems}
        assert all(m.system in keys and m.benchmark for m in v.measurements)
    # Lambda's GB300 results stay hand-typed: the copy holds no description of that system.
    v6 = site.validations["lambda-gb300-nvl72-mlperf-training-v6"]
    assert not v6.systems
    assert {m.grade for m in v6.measurements} == {"provider-reported"}
    # Its B200 results are read from the copy's logs, and keep Lambda's own words beside them.
    b200 = site.validations["lambda-nvidia-b200-sxm-180gb-mlperf-training-v6-0"]
    assert [round(m.value, 4) for m in b200.measurements] == [85.2632, 96.4571]
    said = [c for c in b200.claims if c.source == "lambda-mlperf-training-v6"]
    assert [c.grade for c in said] == ["provider-reported"] * 3
    assert "85.26 minutes" in said[0].text


def test_imported_results_carry_the_benchmark_caveats_and_others_do_not(site: Site) -> None:
    for validation in site.validations.values():
        rules = _caveat_rules(site, validation.id)
        if validation.systems and validation.program == "mlperf-training":
            assert rules >= IMPORTED_RULES, validation.id
            assert not rules & SERVED_RULES, validation.id
            assert "invalid-results" not in rules
        elif validation.systems:
            # A served result has a caveat set of its own: the timed rules never fire on it.
            assert rules >= {"served-at-its-size"}, validation.id
            assert not rules & (IMPORTED_RULES - {"cloud-is-rentability"}), validation.id
        else:
            assert not rules & (IMPORTED_RULES | SERVED_RULES), validation.id


def test_served_results_carry_the_caveats_their_facts_fire(site: Site) -> None:
    served = [v for v in site.validations.values() if v.program == "mlperf-inference"]
    assert len(served) == 57
    for v in served:
        rules = _caveat_rules(site, v.id)
        offline = any(m.scenario == "Offline" for m in v.measurements)
        assert ("offline-without-latency" in rules) == offline, v.id
        compared = any(m.reference for m in v.measurements)
        assert ("against-the-maker" in rules) == compared, v.id
        preview = any(s.status == "preview" for s in v.systems)
        assert ("preview-not-available" in rules) == preview, v.id
        opened = any(s.division == "open" for s in v.systems)
        assert ("open-division" in rules) == opened, v.id
    assert any("preview-not-available" in _caveat_rules(site, v.id) for v in served)
    for v in site.validations.values():  # timed results set against the maker's own too
        compared = any(m.reference for m in v.measurements)
        assert ("against-the-maker" in _caveat_rules(site, v.id)) == compared, v.id
    assert any("open-division" in _caveat_rules(site, v.id) for v in served)


def test_an_invalid_result_is_a_caveat_naming_it(site: Site) -> None:
    imported = next(
        v for v in site.validations.values() if v.systems and v.program == "mlperf-training"
    )
    system = imported.systems[0]
    invalid = InvalidResult(
        system=system.key,
        benchmark="llama2_70b_lora",
        reason="2 runs did not converge",
        source=system.source,
        grade="program-owner",
    )
    assert "invalid-results" in _caveat_rules(site, imported.id, invalid=[invalid])


def test_every_document_a_rule_cites_is_in_content(site: Site) -> None:
    cited = {rule.cites for rule in caveat_rules.RULES.values() if rule.cites is not None}
    assert cited == {"mlperf-submission-rules", "mlperf-training-rules", "mlperf-inference-rules"}
    assert cited <= set(site.sources)
    programs = {source: site.sources[source].program for source in cited}
    assert programs == {
        "mlperf-submission-rules": "mlperf-training",
        "mlperf-training-rules": "mlperf-training",
        "mlperf-inference-rules": "mlperf-inference",
    }


@pytest.mark.slow
def test_measurements_csv_reads_back_as_the_api_rows(site: Site, output: Output) -> None:
    rows = [row.model_dump(mode="json") for row in measurement_rows(site)]
    document = output.data
    api = json.loads(document["api/v1/measurements.json"])
    assert api["columns"] == list(MEASUREMENT_COLUMNS)
    assert api["measurements"] == rows
    parsed = list(csv.DictReader(io.StringIO(document["downloads/measurements.csv"].decode())))
    assert (
        len(parsed)
        == len(rows)
        == sum(len(v.measurements) + len(v.invalid) for v in site.validations.values())
    )
    for row, from_csv in zip(rows, parsed, strict=True):
        assert list(from_csv) == list(MEASUREMENT_COLUMNS)
        for column in MEASUREMENT_COLUMNS:
            value = row[column]
            text = from_csv[column]
            if value is None:
                assert text == ""
            elif isinstance(value, bool):
                assert text == str(value).lower()
            elif isinstance(value, float):
                assert float(text) == value  # unrounded: the very same float
            else:
                assert text == str(value)


def test_a_value_is_unrounded_in_data_and_two_decimals_on_the_page(
    site: Site, output: Output
) -> None:
    page = output.pages["validations/lambda-nvidia-h100-sxm5-80gb-mlperf-training-v4-1.md"]
    validation = site.validations["lambda-nvidia-h100-sxm5-80gb-mlperf-training-v4-1"]
    values = [m.value for m in validation.measurements]
    assert any(len(repr(value)) > 8 for value in values)  # there is something to round
    for value in values:
        assert f'<td><span class="cq-long">{value:.2f} min</span>' in page.markdown
        assert repr(value) not in page.markdown
    rows = json.loads(output.data["api/v1/measurements.json"])["measurements"]
    assert {r["value"] for r in rows if r["validation"] == validation.id} == set(values)


@pytest.mark.browser
def test_an_imported_result_reads_in_the_browser(built: Path) -> None:
    validation_id = "lambda-nvidia-h100-sxm5-80gb-mlperf-training-v4-1"
    with served(built) as url, chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request.url))
        page.goto(f"{url}validations/{validation_id}/")
        page.wait_for_load_state("networkidle")
        expect(page.get_by_role("heading", name="Systems")).to_be_visible()
        systems = page.locator("table.cq-systems tbody tr")
        expect(systems).to_have_count(3)
        expect(systems.first).to_contain_text("16 GPUs (2 × 8)")
        measurements = page.locator("h2#measurements ~ table").first.locator("tbody tr")
        expect(measurements).to_have_count(6)
        expect(measurements.nth(1)).to_contain_text("23.33 min")
        # The run that did not count is named with its file and line, in a note the row links.
        note = page.locator("ul.cq-notes li").filter(has_text="result_240930043022868987627_01")
        expect(note).to_contain_text(":785: a malformed MLLOG line")
        measurements.nth(1).get_by_role("link", name=re.compile("note")).click()
        expect(note).to_be_in_viewport()
        for rule in IMPORTED_RULES:
            expect(page.locator(f"#caveat-{rule}")).to_be_visible()
        # A system's link leads to its description's source entry, at the commit.
        href = systems.first.get_by_role("link", name="description").get_attribute("href")
        assert href is not None and href.startswith("#source-")
        source = page.locator(href.replace(".", "\\."))
        expect(source).to_contain_text("Lambda")
        link = source.get_by_role("link").first.get_attribute("href") or ""
        assert "/blob/b87b9e396f771345d4ef122ba33456304f15228d/Lambda/systems/" in link
        assert [r for r in requested if not r.startswith(url)] == []


@pytest.mark.browser
def test_an_inference_result_reads_in_the_browser(built: Path) -> None:
    """A served result: each figure with its scenario and accuracy target, beside NVIDIA's own
    as a share, the share's source one click away, and the served caveats, not the timed."""
    validation_id = "lambda-nvidia-b200-sxm-180gb-mlperf-inference-v5-1"
    with served(built) as url, chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        requested: list[str] = []
        page.on("request", lambda request: requested.append(request.url))
        page.goto(f"{url}validations/{validation_id}/")
        page.wait_for_load_state("networkidle")
        table = page.locator("h2#measurements ~ table").first
        expect(table.locator("thead")).to_contain_text("Scenario")
        expect(table.locator("thead")).to_contain_text("Against the chip maker's own")
        expect(table.locator("thead")).not_to_contain_text("Runs started")
        rows = table.locator("tbody tr")
        expect(rows).to_have_count(6)
        server = rows.filter(has_text="Server, 99% of the FP32 reference")
        expect(server).to_contain_text("99,993.9 Tokens/s")
        expect(server).to_contain_text("101% of NVIDIA's own result (99,123 Tokens/s on 8 GPUs)")
        server.get_by_role("link", name="B200-SXM-180GBx8_TRT").click()
        source = page.locator("#source-mlperf-inference-v5-1-nvidia-b200-sxm-180gbx8-trt")
        expect(source).to_be_in_viewport()
        expect(source).to_contain_text("closed/NVIDIA")
        for rule in ("offline-without-latency", "served-at-its-size", "against-the-maker"):
            expect(page.locator(f"#caveat-{rule}")).to_be_visible()
        for rule in IMPORTED_RULES - {"cloud-is-rentability"}:
            expect(page.locator(f"#caveat-{rule}")).to_have_count(0)
        # The program's page says which rounds the site holds.
        page.goto(f"{url}programs/mlperf-inference/")
        expect(page.get_by_text("Results held: v4.1, v5.1, v6.0 and v6.1.")).to_be_visible()
        assert [r for r in requested if not r.startswith(url)] == []
