"""One MLPerf run log, read as a stream: when the run started and stopped, whether it counts,
what the log says of its own system, and a fingerprint of its entries.

A log runs to megabytes, and all but a few lines are the training script's own output. Only lines
that hold `:::MLLOG ` are parsed, as MLCommons' parser does (mlperf_logging, `mlp_parser`): the
text after the token's last occurrence is one JSON object with `time_ms`, `key`, `value` and
`metadata`. Bytes are read as Latin-1, as that parser reads them, so no byte is undecodable.

MLCommons' summarizer counts a run only if its log passes the compliance checker, so a log with a
line that does not parse is a run that does not count, even when its `run_stop` says success.
Three real logs of round v4.1 hold such a line, where two writers interleaved. The reader goes on
past such a line, so that the report can say whether the run itself converged, and what it would
score with the line skipped; the score itself never counts it.

Two more things are read, for what the import says of a run beside its time:

- the `:::SYSJSON ` line that NVIDIA's reference implementations write at the top of each log:
  the system description as the run's own container saw it. Its `framework` is the framework as
  run, which is not always what the published description says.
- the fingerprint: a hash of every MLLOG entry's text, in order. Two logs with the same
  fingerprint record the same run, whatever else (a SYSJSON line, the script's output) differs:
  a result submitted again in a later round carries its earlier logs' fingerprints.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

from generator.importers.core.folders import MAX_LINE, json_line

TOKEN = b":::MLLOG "
SYSTEM_TOKEN = b":::SYSJSON "
_FIELDS = ("time_ms", "key", "value", "metadata")


@dataclass(frozen=True)
class Run:
    """One log's run. `minutes` is None when the run does not count; `failure` then says why,
    naming the line where there is one."""

    log: str  # the log's name, as reports show it
    minutes: float | None
    failure: str | None
    line: int | None = None  # the line of the failure, 1-based, where one line is to blame
    # The time of the run_start, in ms since the epoch, where the log gives one.
    started_ms: float | None = None
    # A run that does not count for a malformed line only, yet whose run_stop says success: its
    # minutes with that line skipped. None for every other run.
    converged_minutes: float | None = None
    fingerprint: str | None = None  # None when the log holds no MLLOG line
    framework: str | None = None  # the framework its SYSJSON line gives, if any


def _entry(raw: bytes) -> dict[str, object] | None:
    """The MLLOG entry on one line, or None if it does not parse as one."""
    entry = json_line(raw[raw.rindex(TOKEN) + len(TOKEN) :].decode("latin-1").strip())
    if not isinstance(entry, dict) or any(name not in entry for name in _FIELDS):
        return None
    return entry


def _time(entry: dict[str, object]) -> float | None:
    value = entry["time_ms"]
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        time = float(value)
    except (ValueError, OverflowError):  # OverflowError: an integer past a float's range
        return None
    return time if math.isfinite(time) else None


def _framework(raw: bytes) -> str | None:
    """The `framework` of a SYSJSON line, or None if the line gives none that reads."""
    described = json_line(
        raw[raw.index(SYSTEM_TOKEN) + len(SYSTEM_TOKEN) :].decode("latin-1").strip()
    )
    framework = described.get("framework") if isinstance(described, dict) else None
    if not isinstance(framework, str) or not framework.strip():
        return None
    return " ".join(framework.split())


def _lines(stream: BinaryIO) -> Iterator[bytes]:
    """Lines of at most MAX_LINE bytes; a longer one is cut, and its remainder read apart."""
    while line := stream.readline(MAX_LINE):
        yield line


def read_run(path: Path, shown: str) -> Run:
    """Read one log. Raises OSError if the file cannot be read at all."""
    start: float | None = None
    stop: float | None = None
    status: object = None
    stop_line = 0
    malformed: tuple[int, str] | None = None  # the first line that keeps the run from counting
    framework: str | None = None
    digest = hashlib.sha256()
    entries = 0
    with path.open("rb") as stream:
        for number, raw in enumerate(_lines(stream), 1):
            if framework is None and SYSTEM_TOKEN in raw:
                framework = _framework(raw)
            if TOKEN not in raw:
                continue
            digest.update(raw[raw.rindex(TOKEN) + len(TOKEN) :].strip() + b"\n")
            entries += 1
            entry = _entry(raw)
            if entry is None:
                malformed = malformed or (number, "a malformed MLLOG line")
                continue
            key = entry["key"]
            if key not in ("run_start", "run_stop") or (start is not None and stop is not None):
                continue
            time = _time(entry)
            if time is None:
                malformed = malformed or (number, f"a {key} with no valid time_ms")
                continue
            # As MLCommons' summarizer does: each key's latest time until both are seen, which
            # is the last run_start before the first run_stop in a well-formed log.
            if key == "run_start":
                start = time
            else:
                stop, stop_line = time, number
                metadata = entry["metadata"]
                status = metadata.get("status") if isinstance(metadata, dict) else None
    # A log with no entry has no fingerprint: every empty log would otherwise share one.
    fingerprint = digest.hexdigest() if entries else None
    run = Run(shown, None, None, started_ms=start, fingerprint=fingerprint, framework=framework)
    converged = start is not None and stop is not None and status == "success" and stop >= start
    minutes = (stop - start) / 60 / 1000 if start is not None and stop is not None else None
    if malformed is not None:
        line, failure = malformed
        return replace(
            run, failure=failure, line=line, converged_minutes=minutes if converged else None
        )
    if start is None:
        return replace(run, failure="no run_start")
    if stop is None:
        return replace(run, failure="no run_stop")
    if status != "success":
        return replace(run, failure=f"run_stop status {status!r}, not 'success'", line=stop_line)
    if stop < start:
        return replace(run, failure="run_stop before run_start", line=stop_line)
    return replace(run, minutes=minutes)
