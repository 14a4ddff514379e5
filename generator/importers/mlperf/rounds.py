"""One round of MLPerf Training results, read from a folder laid out as MLCommons publishes it,
and scored by MLCommons' rule.

A round holds `SUBMITTER/systems/SYSTEM.json`, one description per system, and
`SUBMITTER/results/SYSTEM/BENCHMARK/result_*.txt`, one log per run, with an optional
`scaling.json` beside the logs. The rule (mlcommons/training_policies, `training_rules.adoc`,
"Benchmark Results"): drop the fastest and the slowest run and take the mean of the rest; a
single non-converging run may stand in for the slowest; more than one makes the result invalid.
The mean is multiplied by the `scaling_factor` of `scaling.json` where one is given.

The arithmetic is MLCommons' own, step for step (mlperf_logging 4.1.68,
`result_summarizer._compute_olympic_average`), so each score equals the reference's to the last
bit: minutes as `ms / 60 / 1000`, sorted, summed in order, divided, then scaled. Unlike the
reference, a folder with fewer logs than the benchmark's minimum, or with a log that cannot be
read, is reported incomplete rather than scored from what is there.

Problems that leave the round unreadable (a system file that does not parse, an unknown status,
results without a system file) are `Problem`s at `path:line:col`; problems of one result are an
`invalid` reason on that result. Neither stops the rest from being read, so one run lists all.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path

from generator.english import plural
from generator.importers.core.folders import (
    MAX_FIELD,
    count,
    folders,
    key_position,
    read_json,
    read_object,
)
from generator.importers.mlperf.mllog import Run, read_run
from generator.importers.mlperf.tables import (
    AVAILABILITY,
    BENCHMARKS,
    MAX_NON_CONVERGED,
    MINIMUM_RUNS,
    availability,
)
from generator.model.mlperf import CLOUD
from generator.problems import Position, Problem

UNREADABLE = "cannot be read"  # a log that fails so makes its result incomplete, not scored

# A system description over this size is not one: the largest published is a few kB. The same
# holds a scaling.json (a few bytes), and a run log (the largest published is under 10 MB).
MAX_SYSTEM_BYTES = 1 << 20
MAX_SCALING_BYTES = 1 << 16
MAX_LOG_BYTES = 1 << 30
# A scaling factor corrects a time for a benchmark's convergence: published ones are near 1.
# One past this is not a correction, and 1e308 would make the time infinite.
MAX_SCALING_FACTOR = 1000.0
_REQUIRED = (
    "submitter",
    "division",
    "status",
    "system_name",
    "number_of_nodes",
    "accelerators_per_node",
    "accelerator_model_name",
)


@dataclass(frozen=True)
class SystemFile:
    """A cloud system's description: the fields the import uses, as published."""

    folder: str  # the submitter's folder, e.g. IBM+CoreWeave+NVIDIA
    key: str  # the file name without .json
    path: str  # as shown: FOLDER/systems/KEY.json
    submitter: str
    division: str
    status: str
    name: str
    nodes: int
    accelerators_per_node: int
    accelerator: str
    framework: str | None


@dataclass(frozen=True)
class Score:
    """One system's result on one benchmark: minutes, or the reason it is invalid."""

    system: SystemFile
    benchmark: str
    folder: str  # as shown: FOLDER/results/KEY/BENCHMARK
    runs: tuple[Run, ...]
    scaling_factor: float | None
    minutes: float | None
    invalid: str | None
    # Whether its logs are excerpts (the mapping's `excerpts`): the lines the score needs alone.
    excerpt: bool = False

    @property
    def dropped(self) -> tuple[Run, ...]:
        return tuple(run for run in self.runs if run.minutes is None)

    @property
    def starts_ms(self) -> tuple[float, ...]:
        """Every run's run_start, in ms since the epoch, in order."""
        return tuple(sorted(run.started_ms for run in self.runs if run.started_ms is not None))

    @property
    def frameworks(self) -> tuple[str, ...]:
        """The frameworks the runs' own SYSJSON lines give, each once."""
        return tuple(sorted({run.framework for run in self.runs if run.framework is not None}))

    @property
    def converged_minutes(self) -> float | None:
        """The score if every run that converged counted, where a malformed line alone kept one
        or more runs from counting; None otherwise. The rules never score this: reports show
        it beside the score, so a reader sees what the malformed lines cost."""
        if self.minutes is None or not self.dropped:
            return None
        if any(run.converged_minutes is None for run in self.dropped):
            return None
        times = [
            run.minutes if run.minutes is not None else run.converged_minutes for run in self.runs
        ]
        if None in times:
            return None
        mean = olympic_mean(
            [t for t in times if t is not None], 0, MAX_NON_CONVERGED.get(self.benchmark, 1)
        )
        if mean is None:
            return None
        return mean * self.scaling_factor if self.scaling_factor is not None else mean


@dataclass
class Round:
    """What a round's folder holds: the cloud systems, their scores, and what stopped reading."""

    number: str  # e.g. 5.1
    systems: list[SystemFile] = field(default_factory=list)
    scores: list[Score] = field(default_factory=list)
    without_results: list[SystemFile] = field(default_factory=list)
    other_systems: int = 0  # systems of another status, not imported
    problems: list[Problem] = field(default_factory=list)
    # Systems whose description cannot be read, with why: left out, and the rest imported.
    left_out: list[Problem] = field(default_factory=list)
    # The chip makers' own closed-division results on systems of another status: references a
    # cloud's times are set against, never imported as results of their own.
    references: list[Score] = field(default_factory=list)


def read_system(path: Path, shown: str, folder: str) -> tuple[SystemFile | None, list[Problem]]:
    """One system description, or the problems that keep it from being read."""
    read = read_object(path, shown, MAX_SYSTEM_BYTES, "a system description")
    if isinstance(read, Problem):
        return None, [read]
    text, data = read.text, read.value
    problems = []
    for key in _REQUIRED:
        value = data.get(key)
        if key not in data:
            problems.append(Problem(shown, Position(1, 1), key, "expected this field, found none"))
        elif key in ("number_of_nodes", "accelerators_per_node"):
            if count(value) is None:
                problems.append(
                    Problem(
                        shown,
                        key_position(text, key),
                        key,
                        f"expected a positive whole number, found {json.dumps(value)}",
                    )
                )
        elif not isinstance(value, str) or not value.strip():
            problems.append(
                Problem(
                    shown,
                    key_position(text, key),
                    key,
                    f"expected text, found {json.dumps(value)}",
                )
            )
        elif len(value) > MAX_FIELD:
            problems.append(
                Problem(
                    shown,
                    key_position(text, key),
                    key,
                    f"expected text of at most {MAX_FIELD} characters, found {len(value)}",
                )
            )
    if problems:
        return None, problems
    status = availability(data["status"])
    if status is None:
        known = ", ".join(sorted(set(AVAILABILITY.values())))
        return None, [
            Problem(
                shown,
                key_position(text, "status"),
                "status",
                f"expected one of MLCommons' statuses ({known}), "
                f"found {json.dumps(data['status'])}",
            )
        ]
    if data["division"] not in ("closed", "open"):
        return None, [
            Problem(
                shown,
                key_position(text, "division"),
                "division",
                f"expected closed or open, found {json.dumps(data['division'])}",
            )
        ]
    framework = data.get("framework")
    if isinstance(framework, str) and len(framework) > MAX_FIELD:
        framework = framework[:MAX_FIELD]  # not required: kept, cut to a name's length
    system = SystemFile(
        folder=folder,
        key=path.stem,
        path=shown,
        submitter=data["submitter"].strip(),
        division=data["division"],
        status=status,
        name=data["system_name"].strip(),
        nodes=count(data["number_of_nodes"]) or 0,
        accelerators_per_node=count(data["accelerators_per_node"]) or 0,
        accelerator=data["accelerator_model_name"].strip(),
        framework=framework.strip() if isinstance(framework, str) and framework.strip() else None,
    )
    return system, []


def olympic_mean(minutes: list[float], dropped: int, most: int) -> float | None:
    """MLCommons' olympic average: sort, drop `most` at each end, counting the `dropped` runs as
    the slowest, and average the rest; None if nothing remains."""
    ordered = sorted(minutes)
    countable = ordered[most : len(ordered) - (most - dropped)]
    if not countable:
        return None
    return sum(countable) * 1.0 / len(countable)


def _positive_number(value: object) -> float | None:
    """A JSON number as a positive float, or None: JSON's 1e999 reads as infinity, and an integer
    of 400 digits is past a float's range."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if 0 < number <= MAX_SCALING_FACTOR else None


def _scaling(folder: Path, shown: str) -> tuple[float | None, Problem | None]:
    path = folder / "scaling.json"
    if not path.exists() and not path.is_symlink():
        return None, None  # one that is there but cannot be read is a problem, not no factor
    shown = f"{shown}/scaling.json"
    read = read_json(path, shown, MAX_SCALING_BYTES, "a scaling.json")
    if isinstance(read, Problem):
        return None, read
    text, data = read.text, read.value
    found = data.get("scaling_factor") if isinstance(data, dict) else None
    factor = _positive_number(found)
    if factor is None:
        return None, Problem(
            shown,
            key_position(text, "scaling_factor"),
            "scaling_factor",
            f"expected a positive number of at most {MAX_SCALING_FACTOR:g}, found "
            f"{json.dumps(found)[:100]}",
        )
    return factor, None


def _why_not_scored(runs: list[Run], benchmark: str, number: str) -> str | None:
    needed = MINIMUM_RUNS.get(benchmark)
    if benchmark not in BENCHMARKS[number] or needed is None:
        return f"{benchmark} is not a benchmark of round v{number}"
    if len(runs) < needed:
        return f"incomplete: {plural('run log', len(runs))}, and {benchmark} needs {needed}"
    unreadable = [run for run in runs if run.failure and run.failure.startswith(UNREADABLE)]
    if unreadable:
        return f"incomplete: {unreadable[0].log} {unreadable[0].failure}"
    failed = [run for run in runs if run.minutes is None]
    most = MAX_NON_CONVERGED.get(benchmark, 1)
    if len(failed) > most:
        listed = "; ".join(_failure(run) for run in failed)
        return f"{len(failed)} runs did not converge, and the rules allow at most {most}: {listed}"
    return None


def _failure(run: Run) -> str:
    where = f"{run.log}:{run.line}" if run.line is not None else run.log
    return f"{where}: {run.failure}"


def score(
    system: SystemFile, folder: Path, shown: str, number: str, *, excerpt: bool = False
) -> tuple[Score, list[Problem]]:
    """One system's result on the benchmark whose logs are in `folder`; `excerpt` where its logs
    hold only the lines the score needs."""
    runs = []
    for log in sorted(folder.glob("result_*.txt")):
        log_shown = f"{shown}/{log.name}"
        # A FIFO or device would block the reader, and a link could point anywhere: a log is
        # a regular file in the round's own folder, or it cannot be read.
        if log.is_symlink() or not log.is_file():
            runs.append(Run(log_shown, None, f"{UNREADABLE}: not a regular file"))
            continue
        try:
            if (size := log.stat().st_size) > MAX_LOG_BYTES:
                failure = f"{UNREADABLE}: {size} bytes, past the {MAX_LOG_BYTES} a log may hold"
                runs.append(Run(log_shown, None, failure))
                continue
            run = read_run(log, log_shown)
            # An excerpt's entries are not the whole log's: its fingerprint would match no
            # earlier round's log, and say so falsely of one submitted again.
            runs.append(replace(run, fingerprint=None) if excerpt else run)
        except OSError as error:
            runs.append(Run(log_shown, None, f"{UNREADABLE}: {error.strerror}"))
    factor, problem = _scaling(folder, shown)
    benchmark = folder.name
    invalid = _why_not_scored(runs, benchmark, number)
    if problem is not None:
        # One bad value spoils its own result, not the round: the rest is imported.
        where = f"{problem.position.line}:{problem.position.column}"
        invalid = f"scaling.json:{where}: {problem.message}"
    minutes = None
    if invalid is None:
        failed = sum(run.minutes is None for run in runs)
        mean = olympic_mean(
            [run.minutes for run in runs if run.minutes is not None],
            failed,
            MAX_NON_CONVERGED.get(benchmark, 1),
        )
        if mean is None:
            invalid = f"no run remains once the fastest and slowest are dropped ({len(runs)} runs)"
        else:
            minutes = mean * factor if factor is not None else mean
    result = Score(system, benchmark, shown, tuple(runs), factor, minutes, invalid, excerpt)
    return result, []


def read_round(
    root: Path,
    number: str,
    makers: frozenset[str] = frozenset(),
    excerpts: frozenset[str] = frozenset(),
) -> Round:
    """Every cloud system of the round in `root`, with each benchmark scored; and the closed
    results of the systems of other statuses whose submitter is one of `makers`. The result
    folders in `excerpts` (as shown: SUBMITTER/results/SYSTEM/BENCHMARK) hold excerpts of logs."""
    result = Round(number)
    for submitter in folders(root):
        systems_dir, results_dir = submitter / "systems", submitter / "results"
        described: dict[str, SystemFile | None] = {}
        for path in sorted(systems_dir.glob("*.json")) if systems_dir.is_dir() else []:
            shown = f"{submitter.name}/systems/{path.name}"
            system, problems = read_system(path, shown, submitter.name)
            # A description that cannot be read leaves its system out, named in the report;
            # the rest of the round is imported.
            result.left_out += problems
            described[path.stem] = system
        for results in folders(results_dir):
            if results.name not in described:
                result.problems.append(
                    Problem(
                        f"{submitter.name}/results/{results.name}",
                        Position(1, 1),
                        "",
                        f"expected a system description {submitter.name}/systems/"
                        f"{results.name}.json for these results, found none",
                    )
                )
        for key, system in described.items():
            if system is None:
                continue
            if system.status != CLOUD:
                result.other_systems += 1
                if system.submitter in makers and system.division == "closed":
                    for folder in folders(results_dir / key):
                        shown = f"{submitter.name}/results/{key}/{folder.name}"
                        # A maker's log that cannot be read leaves no reference, and stops
                        # nothing: the maker's results are not imported.
                        scored, _ = score(system, folder, shown, number, excerpt=shown in excerpts)
                        if scored.minutes is not None:
                            result.references.append(scored)
                continue
            result.systems.append(system)
            benchmarks = folders(results_dir / key)
            if not benchmarks:
                result.without_results.append(system)
            for folder in benchmarks:
                shown = f"{submitter.name}/results/{key}/{folder.name}"
                scored, problems = score(system, folder, shown, number, excerpt=shown in excerpts)
                result.scores.append(scored)
                result.problems += problems
    return result
