"""A round read from MLCommons' table alone: `summary.csv`, one row per result, where the round's
system descriptions and logs cannot be read (v6.1: MLCommons' repository of the round holds the
table and no logs, and no copy of them can be brought here).

Each row gives the result's figure as MLCommons published it (`Result`, in `Units`), its system
(`Platform`, the description's key, with the description's own fields beside it) and, for the
open division, the accuracy reached. A figure is the table's, never recomputed: the page says so,
and that the logs could not be read. The same guards hold as for a round's folder: the file is a
regular file of bounded size, and a bad value spoils only its own row, named with its line.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from generator.importers.core.folders import count, name_problem, positive, read_file
from generator.importers.mlperf_inference.accuracy import Reported, family, within
from generator.importers.mlperf_inference.metrics import ALIASES, MODELS, SCENARIOS, Figure
from generator.importers.mlperf_inference.results import (
    PLACEHOLDERS,
    Result,
    Round,
    SystemFile,
    benchmark_of,
)
from generator.problems import Position, Problem

TABLE = "summary.csv"
MAX_TABLE_BYTES = 1 << 24  # the published one is 0.3 MB
COLUMNS = (
    "Organization", "Availability", "Division", "SystemType", "SystemName", "Platform", "Model",
    "Scenario", "Result", "Accuracy", "number_of_nodes", "accelerator_model_name",
    "accelerators_per_node", "Location", "framework", "notes", "Units",
)  # fmt: skip
# The table's units, as the site writes each figure's metric and unit.
UNITS = {
    "Tokens/s": ("throughput", "Tokens/s"),
    "Samples/s": ("throughput", "Samples/s"),
    "Queries/s": ("throughput", "Queries/s"),
    "Tasks/s": ("throughput", "Tasks/s"),
    "Latency (ms)": ("latency", "ms"),
    "Latency (s)": ("latency", "s"),
}
# The fields a row gives of its system, as a description would: what names a cloud is read here.
DESCRIBED = (
    "SystemName", "notes", "framework", "operating_system", "host_processor_model_name",
)  # fmt: skip


def _text(value: str | None) -> str | None:
    text = (value or "").strip()
    return None if not text or text.casefold() in PLACEHOLDERS else text


def _accuracy(text: str, version: str, benchmark: str) -> Reported | None:
    """The table's accuracy ("exact_match: 81.7  TOKENS_PER_SAMPLE: 3727.5"), metric by metric,
    and which of the closed division's targets it meets."""
    values: list[tuple[str, float]] = []
    parts = text.replace(":", " ").split()
    for name, value in zip(parts[::2], parts[1::2], strict=False):
        number = positive(value)
        if number is not None:
            values.append((name, number))
    if not values:
        return None
    found = dict(values)
    siblings = family(version, benchmark)
    meets = tuple(b for b in siblings if within(found, version, b))
    return Reported(tuple(values), meets, tuple(b for b in siblings if b not in meets))


def read_table(root: Path, version: str) -> Round:
    """Every datacenter result of the round's table at `root/summary.csv`, by system."""
    reading = Round(version)
    raw = read_file(root / TABLE, TABLE, MAX_TABLE_BYTES, "MLCommons' table of the round")
    if isinstance(raw, Problem):
        reading.problems.append(raw)
        return reading
    rows = csv.DictReader(io.StringIO(raw.decode("utf-8-sig", errors="replace")))
    lacking = [c for c in COLUMNS if c not in (rows.fieldnames or [])]
    if lacking:
        missing = ", ".join(lacking)
        reading.problems.append(Problem(TABLE, Position(1, 1), "", f"expected columns {missing}"))
        return reading
    systems: dict[tuple[str, str, str], SystemFile | None] = {}
    official = MODELS[version]
    for line, row in enumerate(rows, 2):
        if "datacenter" not in row["SystemType"]:
            reading.edge_systems += 1
            continue
        key = (row["Division"], row["Organization"], row["Platform"])
        if key not in systems:
            systems[key] = _system(reading, row, line)
        system = systems[key]
        if system is None:
            continue  # left out, named in the report
        benchmark, same = benchmark_of(row["Model"], official, ALIASES.get(version, {}), {})
        if benchmark not in official:
            reading.not_models.append(f"{TABLE}:{line}: {row['Model']}")
            continue
        reading.results.append(_result(system, row, line, benchmark, same, version))
    return reading


def _system(reading: Round, row: dict[str, str], line: int) -> SystemFile | None:
    """A system as its rows describe it; None, and why in the report, where it cannot be one
    of the site's (no accelerator: a system of CPUs alone)."""
    shown = f"{TABLE}:{line}"
    division, organization, key = row["Division"], row["Organization"], row["Platform"]
    accelerators = count(row["accelerators_per_node"])
    accelerator = _text(row["accelerator_model_name"])
    if accelerators is None or accelerator is None:
        reading.cpu_only.append(f"{shown}: {division}/{organization}, {key}")
        return None
    for name in ("Organization", "SystemName", "accelerator_model_name"):
        problem = name_problem(TABLE, "", name, row[name])
        if problem is not None:
            reading.left_out.append(Problem(TABLE, Position(line, 1), name, problem.message))
            return None
    texts = tuple((name, text) for name in DESCRIBED if (text := _text(row.get(name))))
    system = SystemFile(
        # The rows, not a description: no system file of the round is read.
        path=f"{TABLE}: {division}/{organization}, {key}",
        division=division,
        folder=organization,
        key=key,
        submitter=organization,
        name=_text(row["SystemName"]) or key,
        status=row["Availability"],
        system_type=row["SystemType"],
        accelerator=accelerator,
        nodes=count(row["number_of_nodes"]) or 1,
        accelerators_per_node=accelerators,
        framework=_text(row["framework"]),
        texts=texts,
        host_processor=_text(row.get("host_processor_model_name")),
        described_by="row of MLCommons' table",
        name_field="SystemName",
    )
    reading.systems.append(system)
    return system


def _result(
    system: SystemFile, row: dict[str, str], line: int, benchmark: str, same: bool, version: str
) -> Result:
    folder = row["Location"].removeprefix("./").removesuffix("/performance/run_1")
    scenario = SCENARIOS.get(row["Scenario"].lower(), row["Scenario"])
    unit = UNITS.get(row["Units"])
    value = positive(row["Result"])
    figure, invalid = None, None
    if unit is None:
        invalid = f"{TABLE}:{line}: the table's unit {row['Units']!r} is not one the site reads"
    elif value is None:
        invalid = f"{TABLE}:{line}: the table gives {row['Result']!r}, not a positive number"
    else:
        figure = Figure(unit[0], value, unit[1], "Result")
    accuracy = None
    if system.division == "open":
        accuracy = _accuracy(row["Accuracy"], version, benchmark)
    return Result(
        system,
        folder,
        row["Model"],
        benchmark,
        scenario,
        figure,
        invalid,
        same_model=same,
        accuracy=accuracy,
    )
