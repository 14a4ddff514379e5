"""One MLPerf run log, read as a stream: when the run started and stopped, and whether it counts.

A log runs to megabytes, and all but a few lines are the training script's own output. Only lines
that hold `:::MLLOG ` are parsed, as MLCommons' parser does (mlperf_logging, `mlp_parser`): the
text after the token's last occurrence is one JSON object with `time_ms`, `key`, `value` and
`metadata`. Bytes are read as Latin-1, as that parser reads them, so no byte is undecodable.

MLCommons' summarizer counts a run only if its log passes the compliance checker, so a log with a
line that does not parse is a run that does not count, even when its `run_stop` says success.
Three real logs of round v4.1 hold such a line, where two writers interleaved.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

TOKEN = b":::MLLOG "
_FIELDS = ("time_ms", "key", "value", "metadata")


@dataclass(frozen=True)
class Run:
    """One log's run. `minutes` is None when the run does not count; `failure` then says why,
    naming the line where there is one."""

    log: str  # the log's name, as reports show it
    minutes: float | None
    failure: str | None
    line: int | None = None  # the line of the failure, 1-based, where one line is to blame


def _entry(raw: bytes) -> dict[str, object] | None:
    """The MLLOG entry on one line, or None if it does not parse as one."""
    text = raw[raw.rindex(TOKEN) + len(TOKEN) :].decode("latin-1").strip()
    try:
        entry = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser goes
        return None
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


def read_run(path: Path, shown: str) -> Run:
    """Read one log. Raises OSError if the file cannot be read at all."""
    start: float | None = None
    stop: float | None = None
    status: object = None
    stop_line = 0
    with path.open("rb") as stream:
        for number, raw in enumerate(stream, 1):
            if TOKEN not in raw:
                continue
            entry = _entry(raw)
            if entry is None:
                return Run(shown, None, "a malformed MLLOG line", number)
            key = entry["key"]
            if key not in ("run_start", "run_stop") or (start is not None and stop is not None):
                continue
            time = _time(entry)
            if time is None:
                return Run(shown, None, f"a {key} with no valid time_ms", number)
            # As MLCommons' summarizer does: each key's latest time until both are seen, which
            # is the last run_start before the first run_stop in a well-formed log.
            if key == "run_start":
                start = time
            else:
                stop, stop_line = time, number
                metadata = entry["metadata"]
                status = metadata.get("status") if isinstance(metadata, dict) else None
    if start is None:
        return Run(shown, None, "no run_start")
    if stop is None:
        return Run(shown, None, "no run_stop")
    if status != "success":
        return Run(shown, None, f"run_stop status {status!r}, not 'success'", stop_line)
    if stop < start:
        return Run(shown, None, "run_stop before run_start", stop_line)
    return Run(shown, (stop - start) / 60 / 1000, None)
