"""Each cloud result against the chip maker's own: which of the maker's results is the reference
(MLPerf Training, chosen by the import), and how a figure is said as a share of it."""

from __future__ import annotations

import pytest
from conftest import ROOT

from generator.derive.provenance import against_words, share
from generator.importers.mlperf.mapping import read_mapping
from generator.importers.mlperf.records import RoundRecords
from generator.importers.mlperf.rounds import Round, Score, SystemFile
from generator.model.measurements import Measurement, Reference, System


def system(submitter: str, key: str, nodes: int, division: str = "closed") -> SystemFile:
    return SystemFile(
        folder=submitter,
        key=key,
        path=f"{submitter}/systems/{key}.json",
        submitter=submitter,
        division=division,
        status="Available cloud" if submitter != "NVIDIA" else "Available on-premise",
        name=key,
        nodes=nodes,
        accelerators_per_node=8,
        accelerator="NVIDIA Blackwell GPU (B200-SXM-180GB)",
        framework="PyTorch NVIDIA Release 25.04",
    )


def scored(on: SystemFile, benchmark: str, minutes: float | None) -> Score:
    return Score(
        on, benchmark, f"{on.folder}/results/{on.key}/{benchmark}", (), None, minutes, None
    )


@pytest.fixture(scope="module")
def builder() -> RoundRecords:
    cloud = system("Lambda", "lambda_n1", 1)
    bigger = system("Lambda", "lambda_n2", 2)
    reading = Round(
        "5.0",
        systems=[cloud, bigger],
        scores=[
            scored(cloud, "llama2_70b_lora", 11.4),
            scored(cloud, "bert", 5.0),
            scored(bigger, "llama2_70b_lora", 6.0),
        ],
        references=[
            scored(system("NVIDIA", "slow_n1", 1), "llama2_70b_lora", 12.0),
            scored(system("NVIDIA", "fast_n1", 1), "llama2_70b_lora", 11.0),
            scored(system("NVIDIA", "open_n1", 1, division="open"), "llama2_70b_lora", 1.0),
            scored(system("NVIDIA", "n4", 4), "llama2_70b_lora", 3.0),
        ],
    )
    return RoundRecords(reading, read_mapping(ROOT / "content"), "v5.0")


def test_the_reference_is_the_makers_fastest_closed_result_at_the_same_size(
    builder: RoundRecords,
) -> None:
    first, bert, bigger = builder.reading.scores
    found = builder.reference(first)
    assert found is not None and (found.system.key, found.minutes) == ("fast_n1", 11.0)
    # No maker's result of the benchmark, or of the size: no reference, never a near one.
    assert builder.reference(bert) is None
    assert builder.reference(bigger) is None
    assert [s.key for s in builder.reference_systems()] == ["fast_n1"]
    record = builder.reference_record(first)
    assert record is not None
    assert (record["submitter"], record["accelerators"], record["value"]) == ("NVIDIA", 8, 11.0)
    assert record["source"] == "mlperf-training-v5-0-nvidia-fast-n1"


def test_a_makers_own_result_is_never_its_own_reference(builder: RoundRecords) -> None:
    nvidia = system("NVIDIA", "cloud_n1", 1)
    assert builder.reference(scored(nvidia, "llama2_70b_lora", 10.0)) is None


def measurement(value: float, unit: str, metric: str, reference: float) -> Measurement:
    return Measurement(
        workload="Llama 2 70B",
        metric=metric,
        value=value,
        unit=unit,
        source="s",
        grade="program-owner",
        system="k",
        reference=Reference(
            source="r",
            grade="program-owner",
            submitter="NVIDIA",
            system="nyx",
            accelerators=8,
            value=reference,
            framework="TensorRT 10.11",
        ),
    )


def test_a_share_is_of_the_makers_speed_whichever_way_the_figure_runs() -> None:
    # A rate: higher is better.
    assert share(measurement(97.0, "Tokens/s", "throughput", 100.0)) == pytest.approx(0.97)
    # A time: 12 minutes where the maker took 11 is 92% of the maker's speed.
    assert share(measurement(12.0, "min", "time to train", 11.0)) == pytest.approx(11 / 12)
    # A latency: the same.
    assert share(measurement(2.0, "ms", "latency", 1.0)) == pytest.approx(0.5)


def test_against_words_say_what_was_compared() -> None:
    on = System(
        source="s",
        grade="program-owner",
        key="k",
        name="k",
        division="closed",
        status="available",
        accelerator="B200",
        nodes=1,
        accelerators_per_node=8,
        framework="TensorRT 10.11",
        framework_in_logs=None,
    )
    assert against_words(measurement(97.0, "Tokens/s", "throughput", 100.0), "GPU", on) == (
        "97% of NVIDIA's own result (100 Tokens/s on 8 GPUs), same round; the same framework "
        "described"
    )
    other = on.model_copy(update={"framework": "vLLM 0.9"})
    assert against_words(measurement(12.0, "min", "time to train", 11.0), "GPU", other) == (
        "92% of the speed of NVIDIA's own (11.00 min on 8 GPUs), same round; another framework "
        "described"
    )
