"""`cloudqual import mlperf-inference` on trimmed real folders of rounds v5.1 and v4.1
(tests/fixtures/mlperf-inference): every value equals MLCommons' own table of the round, and the
summary log, read apart from the detail log, agrees; whose cloud each result ran on comes from
the mapping, never a guess; each cloud figure sits beside the chip maker's own."""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import math
import shutil
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, copy_content
from ruamel.yaml import YAML

from generator.cli import main
from generator.importers.core import writing as writer
from generator.importers.core.mapping import ImportFailure
from generator.importers.mlperf_inference.command import plan_import
from generator.importers.mlperf_inference.mapping import read_mapping
from generator.importers.mlperf_inference.metrics import SUMMARY_LINES, result_key
from generator.importers.mlperf_inference.results import read_round, read_summary
from generator.model.site import Site
from generator.render.output import Output

FIXTURE = ROOT / "tests" / "fixtures" / "mlperf-inference"
ROUNDS = ["v5.1", "v4.1", "v6.0"]


def _benchmark() -> Any:
    """benchmarks/inference_table.py, loaded from its file: the whole-round comparison's own
    reading of a table's locations (its folder is not put on the path, where its markdown.py
    would stand for the Markdown package)."""
    spec = importlib.util.spec_from_file_location("inference_table", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCHMARK = ROOT / "benchmarks" / "inference_table.py"


def location(published: str) -> str:
    return str(_benchmark().location(published))


def table(version: str) -> dict[str, dict[str, Any]]:
    """MLCommons' table, by the result's folder (v6.0's table writes "./closed/…/run_1")."""
    rows = json.loads((FIXTURE / version / "summary_results.json").read_text())
    return {location(row["Location"]): row for row in rows}


def as_published(value: float) -> float:
    """A value as MLCommons' table prints it: six significant digits."""
    return float(f"{value:.6g}")


@pytest.mark.parametrize("version", ROUNDS)
def test_every_value_equals_mlcommons_table(version: str) -> None:
    reading = read_round(FIXTURE / version, version)
    rows = table(version)
    assert reading.problems == []
    assert {r.folder for r in reading.results} == set(rows)
    for result in reading.results:
        assert result.figure is not None, result.folder
        assert as_published(result.figure.value) == rows[result.folder]["Performance_Result"], (
            result.folder
        )


@pytest.mark.parametrize("version", ROUNDS)
def test_the_summary_log_read_apart_agrees(version: str) -> None:
    """Each figure read again from mlperf_log_summary.txt alone, by the line that prints it,
    is the detail log's to the digits the summary prints: two readings of the run, one value,
    and that value MLCommons' table's."""
    rows = table(version)
    compared = 0
    for result in read_round(FIXTURE / version, version).results:
        lines = read_summary(
            FIXTURE / version / result.folder / "performance/run_1/mlperf_log_summary.txt"
        )
        assert lines["Result is"] == "VALID"
        key = result_key(version, result.benchmark, lines["Scenario"])
        assert key is not None and result.figure is not None
        line = SUMMARY_LINES.get(key.name)
        if line is None:
            continue  # GPT-J's inferred token rate is in the detail log alone
        printed = lines[line]
        # Both logs print a rounding of LoadGen's value, the detail log to six significant
        # digits, the summary to its decimals: they agree within the two roundings.
        decimals = len(printed.partition(".")[2])
        sixth = 10 ** (math.floor(math.log10(result.figure.value)) - 5)
        bound = 0.5 * sixth + 0.5 * 10**-decimals + 1e-9
        assert abs(float(printed) - result.figure.value) <= bound, result.folder
        assert as_published(result.figure.value) == rows[result.folder]["Performance_Result"]
        compared += 1
    assert compared == {"v5.1": 16, "v4.1": 5, "v6.0": 7}[version]


def test_units_follow_the_figure_read_not_the_table_label() -> None:
    """MLCommons' v5.1 table labels whisper's token rate Samples/s, and v4.1's labels an open
    model's token rate by its folder; the import says what the figure is."""
    results = {r.folder: r for r in read_round(FIXTURE / "v5.1", "v5.1").results}
    whisper = results["closed/Google/results/B200-SXM-180GBx8_TRT/whisper/Offline"]
    assert whisper.figure is not None and whisper.figure.unit == "Tokens/s"
    assert table("v5.1")[whisper.folder]["Performance_Units"] == "Samples/s"
    rgat = results["closed/Google/results/B200-SXM-180GBx8_TRT/rgat/Offline"]
    assert rgat.from_summary and rgat.figure is not None and rgat.figure.unit == "Samples/s"
    interactive = results["closed/Nebius/results/H200-SXM-141GBx8_TRT/llama2-70b-99/Interactive"]
    assert interactive.scenario == "Interactive"
    assert interactive.figure is not None and interactive.figure.key == (
        "result_completed_tokens_per_second"
    )
    old = {r.folder: r for r in read_round(FIXTURE / "v4.1", "v4.1").results}
    gptj = old["closed/Sustainable_Metal_Cloud/results/SMC_H100_SXM_80GBX8_TRT/gptj-99/Offline"]
    assert gptj.figure is not None and gptj.figure.key == "result_inferred_tokens_per_second"
    resnet = old["closed/Sustainable_Metal_Cloud/results/SMC_H100_SXM_80GBX8_TRT/resnet50/Offline"]
    assert (resnet.benchmark, resnet.same_model) == ("resnet", True)
    run = "open/NeuralMagic/results/vLLM_8xL40S-reference-cpu-pytorch-v2.3.1-default_config"
    swapped = old[f"{run}/neuralmagic_Llama-2-7b-chat-hf-FP8/offline"]
    assert (swapped.benchmark, swapped.same_model) == ("llama2-70b-99.9", False)


@pytest.fixture
def content(tmp_path: Path) -> Path:
    return copy_content(ROOT / "content", tmp_path / "content")


def records(plan: writer.Writes, kind: str) -> dict[str, dict[str, Any]]:
    yaml = YAML(typ="safe")
    return {
        path.split("/", 1)[1].removesuffix(".yaml"): yaml.load(text)
        for path, text in plan.files.items()
        if path.startswith(f"{kind}/")
    }


@pytest.mark.slow
def test_whose_cloud_comes_from_the_mapping(content: Path) -> None:
    plan = plan_import(content, FIXTURE / "v5.1", "v5.1")
    validations = records(plan, "validations")
    assert set(validations) == {
        "coreweave-nvidia-gb300-mlperf-inference-v5-1",
        "google-cloud-nvidia-b200-sxm-180gb-mlperf-inference-v5-1",
        "lambda-nvidia-b200-sxm-180gb-mlperf-inference-v5-1",
        "nebius-nvidia-h100-sxm5-80gb-mlperf-inference-v5-1",
        "nebius-nvidia-h200-sxm5-141gb-mlperf-inference-v5-1",
    }  # neither NVIDIA's results (a maker's) nor Dell's (no cloud's) are validations
    stage = validations["nebius-nvidia-h100-sxm5-80gb-mlperf-inference-v5-1"]["submission"]
    assert (stage["submitter"], stage["cloud"]) == ("The_Stage", "named")
    google = validations["google-cloud-nvidia-b200-sxm-180gb-mlperf-inference-v5-1"]["submission"]
    assert google["cloud"] == "not-named" and "NVIDIA DGX B200" in google["note"]
    # One rule for every submitting cloud: Lambda's description of the same DGX B200 names no
    # cloud either, and Nebius's names Nebius, in the field the note quotes.
    lambda_ = validations["lambda-nvidia-b200-sxm-180gb-mlperf-inference-v5-1"]["submission"]
    assert lambda_["cloud"] == "not-named"
    assert lambda_["note"] == (
        "The system description names no cloud (its system_name reads 'NVIDIA DGX B200 (8x "
        "B200-SXM-180GB, TensorRT)'); the result is listed here because Lambda, a cloud, "
        "submitted it."
    )
    nebius = validations["nebius-nvidia-h200-sxm5-141gb-mlperf-inference-v5-1"]["submission"]
    assert nebius["cloud"] == "submitter"
    assert nebius["note"].startswith("The system description names Nebius in its system_name: ")
    preview = validations["coreweave-nvidia-gb300-mlperf-inference-v5-1"]
    assert preview["systems"][0]["status"] == "preview"
    assert "not generally available" in preview["summary"]


@pytest.mark.slow
def test_each_cloud_figure_sits_beside_the_makers_own(content: Path) -> None:
    plan = plan_import(content, FIXTURE / "v5.1", "v5.1")
    rows = table("v5.1")
    lambda_ = records(plan, "validations")["lambda-nvidia-b200-sxm-180gb-mlperf-inference-v5-1"]
    nvidia = "closed/NVIDIA/results/B200-SXM-180GBx8_TRT/llama2-70b-99"
    for m in lambda_["measurements"]:
        reference = m["reference"]
        assert (reference["submitter"], reference["system"]) == ("NVIDIA", "B200-SXM-180GBx8_TRT")
        assert reference["accelerators"] == 8
        assert (
            as_published(reference["value"])
            == rows[f"{nvidia}/{m['scenario']}"]["Performance_Result"]
        )
    google = records(plan, "validations")[
        "google-cloud-nvidia-b200-sxm-180gb-mlperf-inference-v5-1"
    ]
    by_benchmark = {m["benchmark"]: m for m in google["measurements"]}
    assert by_benchmark["rgat"]["reference"]["submitter"] == "NVIDIA"
    assert "summary log" in by_benchmark["rgat"]["note"]
    # No maker's result of the same accelerator and count: no reference, never a near one.
    for vid in ("nebius-nvidia-h200-sxm5-141gb-mlperf-inference-v5-1",):
        assert all("reference" not in m for m in records(plan, "validations")[vid]["measurements"])
    assert plan.references == 4  # Lambda's 2, Google's 2
    sources = records(plan, "sources")
    assert "mlperf-inference-v5-1-nvidia-b200-sxm-180gbx8-trt" in sources


@pytest.mark.slow
def test_open_division_model_run_is_named_and_never_compared(content: Path) -> None:
    plan = plan_import(content, FIXTURE / "v4.1", "v4.1")
    validations = records(plan, "validations")
    opened = validations["crusoe-nvidia-l40s-mlperf-inference-v4-1-open"]
    runs = {m.get("model_run") for m in opened["measurements"]}
    assert runs == {None, "neuralmagic_Llama-2-7b-chat-hf-FP8"}
    assert all("reference" not in m for m in opened["measurements"])
    assert opened["submission"]["cloud"] == "named"
    # The open division holds a result to no accuracy target: the logs' own accuracy instead,
    # as the submission checker reads accuracy.txt, and the closed targets it misses.
    by_model = {m.get("model_run"): m for m in opened["measurements"]}
    standin = by_model["neuralmagic_Llama-2-7b-chat-hf-FP8"]
    assert standin["accuracy_target"] is None
    assert standin["accuracy"] == {
        "values": [
            {"metric": "ROUGE1", "value": 41.6143},
            {"metric": "ROUGE2", "value": 19.5677},
            {"metric": "ROUGEL", "value": 26.4225},
            {"metric": "TOKENS_PER_SAMPLE", "value": 296.6},
        ],
        "meets": [],
        "misses": ["99% of the FP32 reference", "99.9% of the FP32 reference"],
    }
    # ROUGE1 44.1411 clears the 99% bound (43.99) but ROUGE2 21.8139 does not (21.8148).
    own = by_model[None]
    assert own["accuracy"]["misses"] == ["99% of the FP32 reference", "99.9% of the FP32 reference"]
    # A cloud a partner's description names, in the open division: CTuning on AWS.
    aws = validations["aws-nvidia-t4-mlperf-inference-v4-1-open"]
    assert (aws["submission"]["submitter"], aws["submission"]["cloud"]) == ("CTuning", "named")
    [bert] = aws["measurements"]
    assert (bert["benchmark"], bert["scenario"], bert["value"]) == ("bert-99", "Offline", 381.124)
    assert bert["accuracy"]["values"] == [{"metric": "F1", "value": 90.21494616303566}]
    assert bert["accuracy"]["meets"] == ["99% of the FP32 reference"]
    smc = validations["sustainable-metal-cloud-nvidia-h100-sxm5-80gb-mlperf-inference-v4-1"]
    compared = [m for m in smc["measurements"] if "reference" in m]
    assert {m["benchmark"] for m in compared} == {"gptj-99"}


def test_a_submitting_cloud_must_name_what_names_it(content: Path) -> None:
    """`cloud: submitter` without the names its descriptions would use cannot be applied by the
    one rule: the mapping is refused at the entry's position."""
    mapping = content / "imports" / "mlperf-inference.yaml"
    text = mapping.read_text()
    old = "  Nebius: {provider: nebius, cloud: submitter, names: [Nebius]}\n"
    assert old in text
    mapping.write_text(text.replace(old, "  Nebius: {provider: nebius, cloud: submitter}\n"))
    with pytest.raises(ImportFailure) as failure:
        read_mapping(content)
    [problem] = failure.value.problems
    assert "a cloud that submits lists the names its descriptions would call it by" in str(problem)
    assert str(problem).startswith("content/imports/mlperf-inference.yaml:")


@pytest.mark.slow
def test_an_unmapped_submitter_stops_the_import(content: Path, tmp_path: Path) -> None:
    mapping = content / "imports" / "mlperf-inference.yaml"
    mapping.write_text(mapping.read_text().replace("  Dell: {}\n", ""))
    with pytest.raises(ImportFailure) as failure:
        plan_import(content, FIXTURE / "v5.1", "v5.1")
    assert [str(p) for p in failure.value.problems] == [
        "closed/Dell/systems/R470-L4-PCIE-24GBx2_TRT.json:1:1: submitter: expected a submitter "
        "that content/imports/mlperf-inference.yaml lists (with the provider whose cloud ran "
        "it, or none), found 'Dell': add it under submitters"
    ]


@pytest.mark.slow
def test_a_second_import_changes_nothing(content: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["import", "mlperf-inference", str(FIXTURE / "v5.1"), "--round", "v5.1"]
    assert main([*args, "--content", str(content)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "cloudqual import mlperf-inference v5.1: 7 datacenter systems (0 edge systems not "
        "read), 5 validations, 11 measurements (4 set against the chip maker's own), 0 results "
        "without a valid figure."
    )
    assert main([*args, "--content", str(content), "--check"]) == 0
    assert "content/ is what the import writes" in capsys.readouterr().out
    # A round folder with a broken system description: the import names it and leaves that
    # system out, as the training import does; the rest of the round is imported.
    broken = content.parent / "round"
    shutil.copytree(FIXTURE / "v5.1", broken)
    (broken / "closed/Lambda/systems/B200-SXM-180GBx8_TRT.json").write_text('{"submitter": ')
    args = ["import", "mlperf-inference", str(broken), "--round", "v5.1", "--content"]
    assert main([*args, str(content), "--check"]) == 1
    out = capsys.readouterr().out
    assert (
        "left out: closed/Lambda/systems/B200-SXM-180GBx8_TRT.json:1:15: expected JSON: "
        "Expecting value"
    ) in out
    assert "6 datacenter systems" in out


@pytest.mark.slow
def test_a_round_read_at_mlcommons_commit_in_a_copy(content: Path) -> None:
    """v6.0 is read at MLCommons' commit as another party's copy carries it: every source says
    so; ORACLE's MI355X figures sit beside AMD's own; Lambda_SIT is Lambda's joint submission;
    an open result reports the accuracy its logs give."""
    plan = plan_import(content, FIXTURE / "v6.0", "v6.0")
    validations, sources = records(plan, "validations"), records(plan, "sources")
    assert all("Read at MLCommons' commit ab33b21 as gbeezybez/inference_results_v6.0" in s["note"]
               for s in sources.values())  # fmt: skip
    oracle = validations["oracle-amd-instinct-mi355x-mlperf-inference-v6-0"]
    assert oracle["submission"]["cloud"] == "submitter"
    assert "names OCI in its sw_notes" in oracle["submission"]["note"]
    for m in oracle["measurements"]:
        assert m["reference"]["submitter"] == "AMD" and m["reference"]["accelerators"] == 8
    lambda_ = validations["lambda-nvidia-gb300-mlperf-inference-v6-0"]
    assert (lambda_["submission"]["submitter"], lambda_["submission"]["cloud"]) == (
        "Lambda_SIT",
        "joint",
    )
    # NVIDIA published no GPT-OSS 120B result on 4 GB300s: no reference, never a near one.
    assert all("reference" not in m for m in lambda_["measurements"])
    opened = validations["coreweave-nvidia-gb300-mlperf-inference-v6-0-open"]
    [deepseek] = opened["measurements"]
    assert deepseek["accuracy_target"] is None
    assert [v["metric"] for v in deepseek["accuracy"]["values"]] == [
        "exact_match",
        "TOKENS_PER_SAMPLE",
    ]
    assert validations["nebius-nvidia-b300-sxm-270gb-mlperf-inference-v6-0"]["announced"] == (
        date(2026, 4, 1)
    )


@pytest.mark.slow
def test_a_round_read_from_mlcommons_table_alone(content: Path) -> None:
    """v6.1 is read from MLCommons' summary.csv alone: each figure is the table's Result, the
    pages say so and that the logs could not be read; the round is undated, never guessed; a
    system of CPUs alone and an edge system are left out, named in the report."""
    plan = plan_import(content, FIXTURE / "v6.1", "v6.1")
    reading = plan.round
    assert reading is not None
    text = (FIXTURE / "v6.1" / "summary.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(text)))
    by_folder = {
        r["Location"].removeprefix("./").removesuffix("/performance/run_1"): r for r in rows
    }
    for result in reading.results:
        assert result.figure is not None
        assert result.figure.value == float(by_folder[result.folder]["Result"]), result.folder
    assert reading.cpu_only == ["summary.csv:8: closed/Oracle, 1-node-1S-GNR_120C"]
    assert reading.edge_systems == 1  # Lambda's open SGLang system
    validations, sources = records(plan, "validations"), records(plan, "sources")
    crusoe = validations["crusoe-amd-instinct-mi355x-mlperf-inference-v6-1"]
    assert crusoe["announced"] is None and crusoe["dating"] is None
    assert "MLCommons' table's, as published" in crusoe["claims"][0]["text"]
    assert crusoe["submission"]["note"].startswith(
        "The row of MLCommons' table names Crusoe in its SystemName: 'Crusoe Cloud 64x8"
    )
    assert all(s["url"].endswith("/summary.csv") for s in sources.values())
    # The table's own accuracy for an open result, and no reference for it.
    scitix = validations["scitix-nvidia-b200-sxm-180gb-mlperf-inference-v6-1-open"]
    assert all(
        m["accuracy"]["values"][0]["metric"] == "exact_match" for m in scitix["measurements"]
    )
    # A preview system's results are kept, and said to be preview.
    assert validations["nebius-nvidia-vr200-mlperf-inference-v6-1"]["systems"][0]["status"] == (
        "preview"
    )
    # ORACLE's MI355X beside AMD's own, from the same table.
    oracle = validations["oracle-amd-instinct-mi355x-mlperf-inference-v6-1"]
    assert {m["reference"]["submitter"] for m in oracle["measurements"]} == {"AMD"}


def test_every_imported_result_carries_its_rounds_date(real_site: Site) -> None:
    mapping = read_mapping(ROOT / "content")
    served = [v for v in real_site.validations.values() if v.program == "mlperf-inference"]
    assert {v.program_release for v in served} == {"v4.1", "v5.1", "v6.0", "v6.1"}
    for v in served:
        published = mapping.rounds[v.program_release or ""].published
        if published is None:  # no source dates the round: undated, never guessed
            assert v.announced is None and v.dating is None, v.id
            continue
        assert v.announced == published.date, v.id
        assert v.dating is not None and v.dating.basis == published.basis, v.id
        assert v.dating.source == published.source, v.id
        assert v.dating.grade == published.grade, v.id


@pytest.mark.slow
def test_the_program_page_says_which_rounds_are_held(real_output: Output) -> None:
    page = real_output.pages["programs/mlperf-inference.md"].markdown
    assert "<p>Results held: v4.1, v5.1, v6.0 and v6.1.</p>" in page
    assert "<li>v5.0: not held." in page
    # How each round was read: v6.0 at MLCommons' commit, in another party's copy.
    assert (
        "<li>v6.0: read from MLCommons&#39; commit, in a copy another party holds (<a "
        'href="https://github.com/gbeezybez/inference_results_v6.0/tree/'
        'ab33b2144a9f822f69d24f78569f993d195ee7e5" rel="noopener noreferrer">'
        "gbeezybez/inference_results_v6.0</a> at "
        "commit <code>ab33b21</code>); published 2026-04-01"
    ) in page
    lambda_ = real_output.pages[
        "validations/lambda-nvidia-b200-sxm-180gb-mlperf-inference-v5-1.md"
    ].markdown
    # The figure, its scenario and target, and the maker's own beside it as a share, cited.
    # Its scenario cell, with MLPerf's terms linked to the glossary where a buyer meets them.
    glossary = "../../glossary/"
    assert (
        f'<td><a class="cq-term" href="{glossary}#scenario-server">Server</a>, 99% of the FP32 '
        f'reference; <a class="cq-term" href="{glossary}#division">closed division</a>, '
        f'<a class="cq-term" href="{glossary}#availability-available">available</a></td>'
    ) in lambda_
    assert (
        "101% of NVIDIA&#39;s own result (99,123 Tokens/s on 8 GPUs), same round; the same "
        'framework described (<a class="cq-cite" '
        'href="#source-mlperf-inference-v5-1-nvidia-b200-sxm-180gbx8-trt"'
    ) in lambda_
