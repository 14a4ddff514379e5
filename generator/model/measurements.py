"""A validation's published figures and the systems they ran on: each figure's runs,
resubmission, scenario, the chip maker's reference result and reported accuracy, and the results
not scored."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from generator.model.base import Sourced, Strict
from generator.model.fields import BenchmarkId, Day, Name, SystemKey, Text


class System(Sourced):
    """A system a result ran on, as its system description states it."""

    key: SystemKey = Field(
        description="The system description's file name without .json: MLCommons' key for it."
    )
    name: Name = Field(description="The system's name as published; not unique.")
    division: Literal["closed", "open"]
    status: Text = Field(description="The availability status as published, e.g. Available cloud.")
    accelerator: Text = Field(description="The accelerator model as published.")
    nodes: int = Field(gt=0)
    accelerators_per_node: int = Field(gt=0)
    framework: Text | None
    framework_in_logs: Text | None = Field(
        default=None,
        description="The framework the run logs' own system lines give, where they give one: "
        "the framework as run, which may differ from the description's.",
    )
    results_published: bool = Field(
        default=True,
        description="false for a system that was described but has no published result.",
    )
    host_processor: Text | None = Field(default=None, description="The host CPU as described.")
    cooling: Text | None = Field(default=None, description="The cooling as described.")
    driver: Text | None = Field(
        default=None, description="The accelerator driver's version as described."
    )

    @property
    def accelerator_count(self) -> int:
        """Its accelerators: nodes times accelerators per node."""
        return self.nodes * self.accelerators_per_node


class RunDates(Strict):
    """When a figure's runs started, in UTC, as their logs record it."""

    first: Day
    last: Day


class Resubmitted(Sourced):
    """That a figure is an earlier round's result submitted again, and what shows it: its run
    logs found in the earlier round, its runs started before that round was published, or both."""

    round: Text = Field(description="The earlier round, e.g. v5.0.")
    folder: Text | None = Field(
        description="The earlier round's folder holding the same run logs; null if not compared."
    )
    identical_logs: int = Field(ge=0, description="How many of the run logs equal one there.")
    runs: int = Field(gt=0, description="How many run logs the figure has.")
    before: Day | None = Field(
        description="The earlier round's publication date, where every run started before it."
    )


# MLPerf Inference's scenarios (inference_rules.adoc, "Scenarios"): Offline is throughput with
# every sample sent at once; Server and Interactive are throughput under a latency bound.
Scenario = Literal["Offline", "Server", "Interactive", "SingleStream", "MultiStream"]


class Reference(Sourced):
    """The chip maker's own result for the same benchmark, scenario, accuracy target and number
    of accelerators in the same round and division: what a cloud's figure is set against."""

    submitter: Name = Field(description="The maker, as the program publishes its submitter.")
    system: SystemKey = Field(description="The key of the maker's system description.")
    accelerators: int = Field(gt=0)
    value: float = Field(gt=0)
    framework: Text | None = Field(description="The maker's framework, as its system says.")
    host_processor: Text | None = Field(
        default=None, description="The maker's host CPU, as its system says."
    )
    cooling: Text | None = Field(
        default=None, description="The maker's cooling, as its system says."
    )
    driver: Text | None = Field(
        default=None, description="The maker's accelerator driver, as its system says."
    )


class AccuracyValue(Strict):
    metric: Text = Field(description="The metric as the submission checker names it, e.g. ROUGE1.")
    value: float


class ReportedAccuracy(Strict):
    """What an open-division run's accuracy file reports. The open division holds a result to no
    accuracy target; this says which of the closed division's it would meet."""

    values: list[AccuracyValue] = Field(min_length=1)
    meets: list[Text] = Field(
        description="The closed division's targets it meets, e.g. 99% of the FP32 reference."
    )
    misses: list[Text] = Field(description="The closed division's targets it does not meet.")


class Measurement(Sourced):
    workload: Name
    metric: Text
    value: float
    unit: Text
    note: Text | None = None
    system: SystemKey | None = Field(
        default=None, description="The key of the system in `systems` this was measured on."
    )
    benchmark: BenchmarkId | None = Field(
        default=None, description="The program's own id of the benchmark, e.g. llama2_70b_lora."
    )
    runs_started: RunDates | None = Field(
        default=None, description="When the runs behind the figure started, where logs say."
    )
    resubmitted: Resubmitted | None = Field(
        default=None,
        description="Set when the figure is an earlier round's result submitted again: it "
        "measures nothing new, and pages never count it as progress.",
    )
    scenario: Scenario | None = Field(
        default=None, description="The MLPerf Inference scenario the figure was measured in."
    )
    accuracy_target: Text | None = Field(
        default=None,
        description="The accuracy the result had to reach, e.g. 99% of the FP32 reference.",
    )
    reference: Reference | None = Field(
        default=None, description="The chip maker's own result it is set against, if any."
    )
    model_run: Text | None = Field(
        default=None,
        description="The model the submitter ran, where the open division let it differ from "
        "the benchmark's.",
    )
    accuracy: ReportedAccuracy | None = Field(
        default=None,
        description="What an open-division run's logs report of its accuracy, in place of a "
        "target it was not held to.",
    )


class InvalidResult(Sourced):
    """A result the program's rules do not let be scored, and why: never a silent gap."""

    system: SystemKey
    benchmark: BenchmarkId
    reason: Text
    scenario: Scenario | None = None
