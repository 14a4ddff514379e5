"""One round of MLPerf Inference results, read from a folder laid out as MLCommons publishes it.

A round holds `{closed,open}/SUBMITTER/systems/SYSTEM.json`, one description per system, and
`{closed,open}/SUBMITTER/results/SYSTEM/MODEL/SCENARIO/performance/run_1/`, one performance run
per result, with `mlperf_log_detail.txt` (LoadGen's MLLOG lines) and `mlperf_log_summary.txt`.
Only datacenter systems are read: an edge system is not what a cloud rents.

Each figure is the value MLCommons' submission checker reads for the round, model and scenario
(`metrics.result_key`), from the detail log; where the detail log is not there, from the summary
log's line of the same figure, as the checker's own fallback does for logs too large to publish.
A model folder the official list lacks is looked up in the submitter's `model_mapping.json`, as
the checker does for the open division.

Problems that leave the round unreadable (a system file that does not parse, results without a
system file) are `Problem`s at `path:line:col`; a result whose logs do not give a valid figure is
kept with its reason, so one run lists all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from generator.importers.core.folders import (
    MAX_FIELD,
    count,
    files,
    folders,
    json_line,
    key_position,
    lines,
    name_problem,
    positive,
    read_file,
    read_json,
    read_object,
)
from generator.importers.mlperf_inference.accuracy import Reported, read_accuracy
from generator.importers.mlperf_inference.metrics import (
    ALIASES,
    MODELS,
    SCENARIOS,
    SUMMARY_LINES,
    Figure,
    Key,
    result_key,
)
from generator.problems import Position, Problem

DIVISIONS = ("closed", "open")
PERFORMANCE = "performance/run_1"
SUMMARY = "summary"  # results/SYSTEM/summary/: the submission's README and HTML summary
MLLOG = b":::MLLOG "
# The most each file of a round may hold, well past the largest published: a description is a
# few kB, a model_mapping.json less, an accuracy.txt a few kB, a summary log a few kB, and a
# detail log tens of MB (it is read a line at a time, so only its lines are bounded in memory).
MAX_SYSTEM_BYTES = 1 << 20
MAX_MAPPING_BYTES = 1 << 16
MAX_ACCURACY_BYTES = 1 << 20
MAX_SUMMARY_BYTES = 1 << 24
MAX_DETAIL_BYTES = 1 << 30


@dataclass(frozen=True)
class SystemFile:
    """One system description, as published."""

    path: str  # relative to the round's folder
    division: str
    folder: str  # the submitter's folder
    key: str  # the file name without .json: MLCommons' only unique key of a system
    submitter: str
    name: str
    status: str
    system_type: str
    accelerator: str
    nodes: int
    accelerators_per_node: int
    framework: str | None
    # Every text the description gives, by field, the submitter's own line left out: what it
    # names (a cloud, a host CPU, a driver) is read from these.
    texts: tuple[tuple[str, str], ...] = ()
    host_processor: str | None = None
    cooling: str | None = None
    driver: str | None = None
    # What the system's fields were read from, and the field its name is in: its description,
    # or, for a round read from MLCommons' table alone, the table's row.
    described_by: str = "system description"
    name_field: str = "system_name"

    @property
    def accelerators(self) -> int:
        return self.nodes * self.accelerators_per_node


@dataclass(frozen=True)
class Result:
    """One performance run of a system on a model in a scenario."""

    system: SystemFile
    folder: str  # the result's folder, relative to the round's
    model: str  # the folder's name as published
    benchmark: str  # MLCommons' id of the benchmark it counts as
    scenario: str
    figure: Figure | None  # None: no valid figure, and `invalid` says why
    invalid: str | None = None
    from_summary: bool = False  # read from the summary log: the detail log is not there
    # False where the open division let the submitter run another model in the benchmark's
    # place (the submitter's model_mapping.json, or the checker's guess by name).
    same_model: bool = True
    # What an open-division run's accuracy file reports: the open division holds it to no
    # target, so the page says what it reached instead.
    accuracy: Reported | None = None


@dataclass
class Round:
    version: str
    systems: list[SystemFile] = field(default_factory=list)
    results: list[Result] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    edge_systems: int = 0  # described, but not read: not datacenter systems
    # Systems whose description cannot be read, with why: left out, and the rest imported.
    left_out: list[Problem] = field(default_factory=list)
    # Folders of a system's results that are no model of the round: named, never imported.
    not_models: list[str] = field(default_factory=list)
    # Systems of CPUs alone, with no accelerator to count: named, never imported.
    cpu_only: list[str] = field(default_factory=list)


def _text(value: object) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


# What descriptions write where they state nothing: shown as "not stated", never as a fact.
PLACEHOLDERS = {"todo", "n/a", "na", "none", "-", "tbd", "unknown"}


def _stated(value: object) -> str | None:
    text = _text(value)
    return None if text is None or text.casefold() in PLACEHOLDERS else text


# Descriptions nest a field or two ({"other_software_stack": {"vllm": "0.10.0"}}); deeper is
# not a description's shape, and is not read.
TEXT_DEPTH = 3
_DRIVER = re.compile(r"\bdriver[ :_a-z]*?([0-9]+(?:\.[0-9x]+)*)", re.IGNORECASE)


def _texts(data: dict[str, object]) -> tuple[tuple[str, str], ...]:
    """The description's texts, by field, nested ones under a dotted name, the submitter's own
    line left out: it names the submitter, not what was run."""
    found: list[tuple[str, str]] = []

    def walk(prefix: str, value: object, depth: int) -> None:
        if isinstance(value, str) and value.strip():
            found.append((prefix, value.strip()))
        elif isinstance(value, dict) and depth < TEXT_DEPTH:
            for key, inner in value.items():
                walk(f"{prefix}.{key}", inner, depth + 1)

    for key, value in data.items():
        if key != "submitter":
            walk(str(key), value, 1)
    return tuple(found)


def _driver(texts: tuple[tuple[str, str], ...]) -> str | None:
    """The accelerator driver a description states ("Driver 575.57.08", or a
    `cuda_driver_version` field), where it states one."""
    for name, value in texts:
        if name.endswith("driver_version"):
            return value
    for name, value in texts:
        if name in ("other_software_stack", "framework", "sw_notes") or name.startswith(
            "other_software_stack."
        ):
            match = _DRIVER.search(value)
            if match:
                return match[1]
    return None


def read_system(root: Path, path: Path) -> tuple[SystemFile | None, list[Problem]]:
    """One system description, or the problems that keep it from being read: each names the
    round's file, and leaves only this system out."""
    shown = path.relative_to(root).as_posix()
    read = read_object(path, shown, MAX_SYSTEM_BYTES, "a system description")
    if isinstance(read, Problem):
        return None, [read]
    text, data = read.text, read.value
    division, folder = shown.split("/")[:2]
    problems = []
    fields: dict[str, str] = {}
    for name in ("submitter", "status", "system_type", "accelerator_model_name"):
        value = _text(data.get(name))
        if value is None:
            problems.append(
                Problem(shown, key_position(text, name), name, "expected text, found none")
            )
        elif (problem := name_problem(shown, text, name, value)) is not None:
            problems.append(problem)
        fields[name] = value or ""
    system_name = _text(data.get("system_name")) or path.stem
    if (problem := name_problem(shown, text, "system_name", system_name)) is not None:
        problems.append(problem)
    nodes = count(data.get("number_of_nodes"))
    if nodes is None:
        problems.append(
            Problem(
                shown,
                key_position(text, "number_of_nodes"),
                "number_of_nodes",
                f"expected a positive whole number, found {_shown(data.get('number_of_nodes'))}",
            )
        )
    if problems:
        return None, problems
    texts = _texts(data)
    framework = _stated(data.get("framework"))
    return SystemFile(
        path=shown,
        division=division,
        folder=folder,
        key=path.stem,
        submitter=fields["submitter"],
        name=system_name,
        status=fields["status"],
        system_type=fields["system_type"],
        accelerator=fields["accelerator_model_name"],
        nodes=nodes or 1,
        # Zero on a system of CPUs alone: it has no accelerator to count.
        accelerators_per_node=count(data.get("accelerators_per_node")) or 0,
        framework=framework[:MAX_FIELD] if framework else None,
        texts=texts,
        host_processor=_stated(data.get("host_processor_model_name")),
        cooling=_stated(data.get("cooling")),
        driver=_driver(texts),
    ), []


def _shown(value: object) -> str:
    """A published value as a problem quotes it, cut to a line's length."""
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


def read_mllog(path: Path) -> dict[str, object]:
    """The MLLOG lines of a detail log, by key: the last of a key wins, as the checker's does.
    Read a line at a time; a line that is no JSON entry is passed over. Raises OSError."""
    values: dict[str, object] = {}
    for line in lines(path, MAX_DETAIL_BYTES):
        start = line.find(MLLOG)
        if start < 0:
            continue
        entry = json_line(line[start + len(MLLOG) :].decode("utf-8", errors="replace"))
        if isinstance(entry, dict) and isinstance(entry.get("key"), str):
            values[entry["key"]] = entry.get("value")
    return values


def read_summary(path: Path) -> dict[str, str]:
    """The `name : value` lines of a summary log, by name, the first of each. Read a line at a
    time. Raises OSError."""
    values: dict[str, str] = {}
    for line in lines(path, MAX_SUMMARY_BYTES):
        name, colon, value = line.decode("utf-8", errors="replace").partition(":")
        if colon and name.strip() and name.strip() not in values:
            values[name.strip()] = value.strip()
    return values


def _present(path: Path) -> bool:
    """Whether anything is at `path`: a link or a special file is there, to be refused."""
    return path.exists() or path.is_symlink()


def _figure(
    found: dict[str, object] | dict[str, str], name: str, log: str, key: Key
) -> Figure | str:
    """The run's figure, or why there is none: a value the log does not give, or one that is no
    rate or latency (NaN, an infinity, zero or a negative)."""
    value = found.get(name)
    if value is None:
        return f"{log} gives no {key.name}"
    number = positive(value)
    if number is None:
        return f"{log} gives {key.name} {_shown(value)}, not a positive number"
    return key.figure(number)


def read_figure(
    run: Path, version: str, benchmark: str, scenario: str
) -> tuple[Figure | None, str | None, bool]:
    """The figure of one performance run, or why there is none; and whether it was read from the
    summary log."""
    detail, summary = run / "mlperf_log_detail.txt", run / "mlperf_log_summary.txt"
    if _present(detail):
        try:
            log = read_mllog(detail)
        except OSError as error:
            return None, f"{detail.name} cannot be read: {error.strerror or error}", False
        # Interactive runs are logged as Server, under tighter latency bounds.
        logged = str(log.get("effective_scenario") or scenario)
        key = result_key(version, benchmark, logged)
        if key is None:
            return None, f"no figure is defined for {benchmark} {logged} in {version}", False
        if log.get("result_validity") != "VALID":
            return (
                None,
                f"LoadGen reports the run {log.get('result_validity') or 'not valid'}",
                False,
            )
        found = _figure(log, key.name, detail.name, key)
        return (found, None, False) if isinstance(found, Figure) else (None, found, False)
    if _present(summary):
        try:
            printed = read_summary(summary)
        except OSError as error:
            return None, f"{summary.name} cannot be read: {error.strerror or error}", True
        logged = printed.get("Scenario", scenario)
        key = result_key(version, benchmark, logged)
        if key is None:
            return None, f"no figure is defined for {benchmark} {logged} in {version}", True
        if printed.get("Result is") != "VALID":
            return None, f"LoadGen reports the run {printed.get('Result is') or 'not valid'}", True
        line = SUMMARY_LINES.get(key.name)
        if line is None:
            return None, f"{summary.name} gives no line for {key.name}", True
        found = _figure(printed, line, summary.name, key)
        return (found, None, True) if isinstance(found, Figure) else (None, found, True)
    return None, "the performance run has no log", False


def _model_mapping(folder: Path) -> dict[str, str]:
    """The submitter's model_mapping.json, where it has one that reads: a folder name to the
    benchmark it runs in place of. One that does not read maps nothing."""
    path = folder / "model_mapping.json"
    if not _present(path):
        return {}
    read = read_json(path, path.name, MAX_MAPPING_BYTES, "a model_mapping.json")
    if isinstance(read, Problem) or not isinstance(read.value, dict):
        return {}
    return {str(k): v for k, v in read.value.items() if isinstance(v, str)}


def benchmark_of(
    model: str, official: tuple[str, ...], aliases: dict[str, str], mapping: dict[str, str]
) -> tuple[str, bool]:
    """The benchmark a model folder counts as, looked up as the checker does
    (`Config.get_mlperf_model`): an official name, the round's aliases, the submitter's
    model_mapping.json, then the checker's own guess by a part of the name; and whether it is
    the benchmark's own model (an official name or an alias of one)."""
    if model in official:
        return model, True
    if model in aliases:
        return aliases[model], True
    if model in mapping:
        return mapping[model], False
    if "mobilenet" in model or "efficientnet" in model or "resnet50" in model:
        return "resnet", False
    for guess in ("bert-99.9", "bert-99"):
        if guess in model:
            return guess, False
    return model, False


def read_round(root: Path, version: str) -> Round:
    """Every datacenter system of the round at `root` and each of its results."""
    reading = Round(version)
    for division in DIVISIONS:
        for folder in folders(root / division):
            _read_submitter(root, folder, reading)
    return reading


def _read_submitter(root: Path, folder: Path, reading: Round) -> None:
    described: dict[str, SystemFile] = {}
    unread: set[str] = set()
    for path in files(folder / "systems", "*.json"):
        system, problems = read_system(root, path)
        if system is None:
            # A description that cannot be read leaves its system out, named in the report;
            # the rest of the round is imported.
            reading.left_out += problems
            unread.add(path.stem)
            continue
        if "datacenter" not in system.system_type:
            reading.edge_systems += 1
            continue
        described[system.key] = system
        reading.systems.append(system)
    official = MODELS[reading.version]
    aliases = ALIASES.get(reading.version, {})
    mapping = _model_mapping(folder)
    for system_folder in folders(folder / "results"):
        system = described.get(system_folder.name)
        if system is None:
            description = folder / "systems" / f"{system_folder.name}.json"
            if not _present(description):
                reading.problems.append(
                    Problem(
                        system_folder.relative_to(root).as_posix(),
                        Position(1, 1),
                        "",
                        "expected a system description "
                        f"{description.relative_to(root).as_posix()}, found none",
                    )
                )
            continue  # an edge system's results, or one whose description is left out
        for model_folder in folders(system_folder):
            if model_folder.name == SUMMARY:
                continue  # MLCommons' own page of the system's results, not a model
            benchmark, same = benchmark_of(model_folder.name, official, aliases, mapping)
            if benchmark not in official:
                # Neither a model of the round nor one the submitter mapped to it: its
                # results count as none of the round's, and are named in the report.
                reading.not_models.append(model_folder.relative_to(root).as_posix())
                continue
            for scenario_folder in folders(model_folder):
                scenario = SCENARIOS.get(scenario_folder.name.lower())
                if scenario is None:
                    continue  # not a scenario's folder
                found = _result(root, system, scenario_folder, benchmark, scenario, reading.version)
                reading.results.append(replace(found, same_model=same))


def _result(
    root: Path,
    system: SystemFile,
    folder: Path,
    benchmark: str,
    scenario: str,
    version: str,
) -> Result:
    shown = folder.relative_to(root).as_posix()
    model = folder.parent.name
    figure, invalid, summary = read_figure(folder / PERFORMANCE, version, benchmark, scenario)
    accuracy = None
    if system.division == "open":
        path = folder / "accuracy" / "accuracy.txt"
        raw = read_file(path, f"{shown}/accuracy/accuracy.txt", MAX_ACCURACY_BYTES, "accuracy")
        # Without a file that reads, the page says the accuracy was not read.
        text = "" if isinstance(raw, Problem) else raw.decode("utf-8", errors="replace")
        accuracy = read_accuracy(text, version, benchmark)
    return Result(
        system, shown, model, benchmark, scenario, figure, invalid, summary, accuracy=accuracy
    )
