"""Results submitted again: the runs of an earlier round, published with a later one.

MLPerf Training's rules let a submitter submit an earlier round's result again in a later round
("Results Resubmission", training_rules.adoc in mlcommons/training_policies). Such a result is
published with the later round's, under its own system name; a page that sets it beside the
earlier round's would show a change that was never measured (v5.1 rescored the logs of v5.0 with a
new `scaling.json`). Two rules find one from the data alone, and either is enough:

- identical logs: a run log whose fingerprint (`mllog.Run.fingerprint`, a hash of its MLLOG
  entries in order) equals a log of the earlier round is the same run. This needs the earlier
  round's folder.
- started before: every run started before the previous round was published, so none was run for
  this round. This needs only the previous round's date, from the import mapping.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path

from generator.importers.core.folders import folders
from generator.importers.mlperf.mllog import read_run
from generator.importers.mlperf.rounds import Score
from generator.problems import Position, Problem


@dataclass
class EarlierLogs:
    """The run logs of an earlier round, by fingerprint: the benchmark folder holding each."""

    round: str  # e.g. v5.0
    folders: dict[str, list[str]] = field(default_factory=dict)  # fingerprint -> folders
    logs: int = 0
    problems: list[Problem] = field(default_factory=list)


def read_earlier(root: Path, round_name: str) -> EarlierLogs:
    """Every run log of the round in `root`, whatever its status: a result may have been
    submitted first under another status or by another name."""
    found = EarlierLogs(round_name)
    for submitter in folders(root):
        for system in folders(submitter / "results"):
            for benchmark in folders(system):
                shown = f"{submitter.name}/results/{system.name}/{benchmark.name}"
                for log in sorted(benchmark.glob("result_*.txt")):
                    # As for the round's own logs: a regular file inside the folder, or nothing.
                    if log.is_symlink() or not log.is_file():
                        continue
                    try:
                        run = read_run(log, f"{shown}/{log.name}")
                    except OSError as error:
                        found.problems.append(
                            Problem(
                                f"{shown}/{log.name}",
                                Position(1, 1),
                                "",
                                f"cannot be read: {error.strerror}",
                            )
                        )
                        continue
                    found.logs += 1
                    if run.fingerprint is not None:
                        found.folders.setdefault(run.fingerprint, []).append(shown)
    return found


@dataclass(frozen=True)
class Resubmission:
    """What shows a result to be an earlier round's: its logs found there, its runs' dates, or
    both."""

    round: str  # the earlier round
    folder: str | None  # that round's benchmark folder holding the same logs, if compared
    identical: int  # how many of the result's logs equal a log of that folder
    runs: int  # how many logs the result has
    published: date | None  # the earlier round's publication, where every run started before it
    last_start: date | None  # the latest run_start of the result's runs, in UTC


def start_date(time_ms: float) -> date:
    return datetime.fromtimestamp(time_ms / 1000, UTC).date()


def find(
    score: Score, earlier: EarlierLogs | None, previous: tuple[str, date] | None
) -> Resubmission | None:
    """Whether `score` repeats an earlier round's runs. `earlier` is that round's logs, where
    its folder was given; `previous` the previous round and its publication date."""
    matches: Counter[str] = Counter()
    if earlier is not None:
        for run in score.runs:
            places = earlier.folders.get(run.fingerprint or "", [])
            # A log is counted once, for the first folder that holds it (sorted by name).
            for place in sorted(set(places))[:1]:
                matches[place] += 1
    folder, identical = None, 0
    if matches:
        folder, identical = min(matches.items(), key=lambda item: (-item[1], item[0]))
    starts = score.starts_ms
    last = start_date(starts[-1]) if starts else None
    before = (
        previous is not None
        and last is not None
        and len(starts) == len(score.runs)
        and last < previous[1]
    )
    if identical and earlier is not None:
        round_name = earlier.round
    elif before and previous is not None:
        round_name = previous[0]
    else:
        return None
    return Resubmission(
        round=round_name,
        folder=folder,
        identical=identical,
        runs=len(score.runs),
        published=previous[1] if before and previous is not None else None,
        last_start=last,
    )
