"""Reading a round of MLPerf Inference results that is not well formed: each broken system
description is a problem at its path, each run without a valid figure is kept with the reason,
and each model folder counts as the benchmark MLCommons' checker would take it for. The rounds
here are written by the tests; the trimmed real rounds are
tests/importers/test_import_inference.py's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.importers.mlperf_inference.results import (
    Result,
    Round,
    benchmark_of,
    read_figure,
    read_round,
)

SYSTEM = {
    "submitter": "Acme",
    "status": "available",
    "system_type": "datacenter",
    "accelerator_model_name": "Acme X1",
    "number_of_nodes": 1,
    "accelerators_per_node": 8,
}


def mllog(**values: object) -> str:
    return "".join(
        f":::MLLOG {json.dumps({'key': key, 'value': value})}\n" for key, value in values.items()
    )


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def run(root: Path, system: str, model: str, scenario: str) -> Path:
    return root / "closed/Acme/results" / system / model / scenario / "performance/run_1"


@pytest.fixture
def reading(tmp_path: Path) -> Round:
    systems = tmp_path / "closed/Acme/systems"
    write(systems / "x1.json", json.dumps({**SYSTEM, "number_of_nodes": "2"}))
    write(systems / "edge.json", json.dumps({**SYSTEM, "system_type": "edge"}))
    write(systems / "list.json", "[1, 2]")
    write(systems / "bare.json", json.dumps({"system_type": "datacenter", "number_of_nodes": True}))
    write(systems / "nodes.json", json.dumps({**SYSTEM, "number_of_nodes": [2]}))
    write(tmp_path / "closed/Acme/model_mapping.json", json.dumps({"acme-detector": "retinanet"}))
    x1 = "x1"
    # The detail log: not valid; a figure missing; a scenario with no figure; lines that are not
    # MLLOG's JSON, then the figure written as text; a whole number.
    write(run(tmp_path, x1, "resnet50", "Offline") / "mlperf_log_detail.txt",
          mllog(effective_scenario="Offline", result_validity="INVALID"))  # fmt: skip
    write(run(tmp_path, x1, "resnet50", "Server") / "mlperf_log_detail.txt",
          mllog(effective_scenario="Server", result_validity="VALID"))  # fmt: skip
    write(run(tmp_path, x1, "resnet50", "SingleStream") / "mlperf_log_detail.txt",
          mllog(effective_scenario="Bogus", result_validity="VALID"))  # fmt: skip
    write(
        run(tmp_path, x1, "acme-detector", "Offline") / "mlperf_log_detail.txt",
        "LoadGen's own line\n:::MLLOG {not json\n"
        + mllog(result_validity="VALID", result_samples_per_second="1234.5"),
    )
    write(run(tmp_path, x1, "rgat", "Offline") / "mlperf_log_detail.txt",
          mllog(result_validity="VALID", result_samples_per_second=7))  # fmt: skip
    write(run(tmp_path, x1, "mobilenet-tiny", "Offline") / "mlperf_log_detail.txt",
          mllog(result_validity="VALID", result_samples_per_second="many"))  # fmt: skip
    write(run(tmp_path, x1, "bert-99-large", "Offline") / "mlperf_log_detail.txt",
          mllog(result_validity="VALID", result_samples_per_second=True))  # fmt: skip
    # The summary log alone: a scenario with no figure; not valid; a figure it has no line for.
    write(run(tmp_path, x1, "retinanet", "Offline") / "mlperf_log_summary.txt",
          "Scenario : Bogus\nResult is : VALID\n")  # fmt: skip
    write(run(tmp_path, x1, "retinanet", "Server") / "mlperf_log_summary.txt",
          "Scenario : Server\nResult is : INVALID\n")  # fmt: skip
    write(run(tmp_path, x1, "retinanet", "SingleStream") / "mlperf_log_summary.txt",
          "Scenario : SingleStream\nResult is : VALID\n")  # fmt: skip
    # No log at all; a model the round does not have; a folder that is not a scenario's.
    (run(tmp_path, x1, "retinanet", "MultiStream")).mkdir(parents=True)
    write(run(tmp_path, x1, "gpt-9", "Offline") / "mlperf_log_detail.txt", mllog())
    write(tmp_path / "closed/Acme/results/x1/resnet50/notes/README.md", "notes\n")
    # Results of the edge system are not read; results of a system never described are a problem.
    write(run(tmp_path, "edge", "resnet50", "Offline") / "mlperf_log_detail.txt", mllog())
    write(run(tmp_path, "ghost", "resnet50", "Offline") / "mlperf_log_detail.txt", mllog())
    return read_round(tmp_path, "v5.1")


def test_each_broken_description_is_a_problem_at_its_path(reading: Round) -> None:
    """A description that cannot be read leaves its system out, named at its own position; the
    rest of the round is read."""
    assert [str(p) for p in reading.left_out] == [
        "closed/Acme/systems/bare.json:1:1: submitter: expected text, found none",
        "closed/Acme/systems/bare.json:1:1: status: expected text, found none",
        "closed/Acme/systems/bare.json:1:1: accelerator_model_name: expected text, found none",
        "closed/Acme/systems/bare.json:1:31: number_of_nodes: expected a positive whole number, "
        "found True",
        "closed/Acme/systems/list.json:1:1: expected a JSON object",
        "closed/Acme/systems/nodes.json:1:112: number_of_nodes: expected a positive whole "
        "number, found [2]",
    ]
    assert [str(p) for p in reading.problems] == [
        "closed/Acme/results/ghost:1:1: expected a system description "
        "closed/Acme/systems/ghost.json, found none",
    ]
    assert [s.key for s in reading.systems] == ["x1"]
    assert reading.systems[0].accelerators == 16  # two nodes, written as text
    assert reading.edge_systems == 1
    # A folder that is no model of the round is named, never read as a result of one.
    assert reading.not_models == ["closed/Acme/results/x1/gpt-9"]


def test_each_run_without_a_valid_figure_says_why(reading: Round) -> None:
    def shown(result: Result) -> tuple[str, str, str | None, bool, bool]:
        value = f"{result.figure.value:g} {result.figure.unit}" if result.figure else "-"
        return value, result.benchmark, result.invalid, result.from_summary, result.same_model

    found = {r.folder.removeprefix("closed/Acme/results/x1/"): shown(r) for r in reading.results}
    assert found == {
        "acme-detector/Offline": ("1234.5 Samples/s", "retinanet", None, False, False),
        "bert-99-large/Offline": (
            "-", "bert-99",
            "mlperf_log_detail.txt gives result_samples_per_second True, not a positive number",
            False, False,
        ),
        "mobilenet-tiny/Offline": (
            "-", "resnet",
            "mlperf_log_detail.txt gives result_samples_per_second 'many', not a positive number",
            False, False,
        ),
        "resnet50/Offline": ("-", "resnet", "LoadGen reports the run INVALID", False, True),
        "resnet50/Server": (
            "-", "resnet", "mlperf_log_detail.txt gives no result_completed_samples_per_sec",
            False, True,
        ),
        "resnet50/SingleStream": (
            "-", "resnet", "no figure is defined for resnet Bogus in v5.1", False, True,
        ),
        "rgat/Offline": ("7 Samples/s", "rgat", None, False, True),
        "retinanet/MultiStream": (
            "-", "retinanet", "the performance run has no log", False, True,
        ),
        "retinanet/Offline": (
            "-", "retinanet", "no figure is defined for retinanet Bogus in v5.1", True, True,
        ),
        "retinanet/Server": ("-", "retinanet", "LoadGen reports the run INVALID", True, True),
        "retinanet/SingleStream": (
            "-", "retinanet",
            "mlperf_log_summary.txt gives no line for early_stopping_latency_ss", True, True,
        ),
    }  # fmt: skip


def test_a_round_without_a_figure_table_reads_no_figure(tmp_path: Path) -> None:
    write(tmp_path / "mlperf_log_detail.txt", mllog(result_validity="VALID"))
    assert read_figure(tmp_path, "v0.5", "resnet", "Offline") == (
        None,
        "no figure is defined for resnet Offline in v0.5",
        False,
    )


def test_a_mapping_that_is_not_an_object_maps_nothing(tmp_path: Path) -> None:
    write(tmp_path / "closed/Acme/systems/x1.json", json.dumps(SYSTEM))
    write(tmp_path / "closed/Acme/model_mapping.json", '["acme-detector", "retinanet"]')
    write(run(tmp_path, "x1", "acme-detector", "Offline") / "mlperf_log_detail.txt", mllog())
    found = read_round(tmp_path, "v5.1")
    assert found.results == []
    assert found.not_models == ["closed/Acme/results/x1/acme-detector"]


@pytest.mark.parametrize(
    ("model", "mapping", "expected"),
    [
        ("resnet", {}, ("resnet", True)),
        ("resnet50", {}, ("resnet", True)),
        ("acme", {"acme": "rgat"}, ("rgat", False)),
        ("efficientnet-b0", {}, ("resnet", False)),
        ("bert-99.9-int8", {}, ("bert-99.9", False)),
        ("bert-99-int8", {}, ("bert-99", False)),
        ("acme", {}, ("acme", False)),
    ],
)
def test_a_model_folder_counts_as_the_checker_takes_it(
    model: str, mapping: dict[str, str], expected: tuple[str, bool]
) -> None:
    official = ("resnet", "bert-99", "bert-99.9", "rgat")
    assert benchmark_of(model, official, {"resnet50": "resnet"}, mapping) == expected
