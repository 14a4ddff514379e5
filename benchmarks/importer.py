"""The import against MLCommons' summarizer on one round, interleaved, and their scores compared.

Run: .venv/bin/python benchmarks/importer.py PATH --round vX.Y [--rounds N]

PATH is a round laid out as MLCommons publishes it (a checkout of mlcommons/training_results_vX.Y,
or the submitter folders of one). Each repetition times, in alternating order:

- the import: `cloudqual import mlperf-training PATH --round vX.Y`, end to end, into a copy of
  content/ (it reads every system description and the logs of the cloud systems, scores them,
  checks the whole content folder with the new records, and writes);
- the reference: `python -m mlperf_logging.result_summarizer SUBMITTER training X.Y.0 --csv OUT`
  for every submitter folder of PATH, one after the other, as MLCommons documents it. It reads
  every log of the folder, whatever the system's status, and checks each for compliance.

The summarizer may rewrite the scaling.json files it is given, so each of its runs reads a fresh
copy of the round, made outside the timing. Machines here are noisy: the report gives the ratio of
medians from one run. Last, every cloud score of the reference's table is compared with the
import's, to 1e-9 relative.
"""

from __future__ import annotations

import argparse
import csv
import math
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path, PurePosixPath

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.importers.mlperf.rounds import read_round  # noqa: E402
from generator.importers.mlperf.tables import BENCHMARKS, round_number  # noqa: E402
from generator.model.mlperf import CLOUD  # noqa: E402

BIN = Path(sys.executable).parent


def submitters(path: Path) -> list[str]:
    return sorted(p.name for p in path.iterdir() if (p / "systems").is_dir())


def run_import(path: Path, round_name: str, work: Path) -> float:
    content = work / "content"
    shutil.rmtree(content, ignore_errors=True)
    shutil.copytree(ROOT / "content", content)
    command = [str(BIN / "cloudqual"), "import", "mlperf-training", str(path)]
    command += ["--round", round_name, "--content", str(content)]
    started = time.perf_counter()
    finished = subprocess.run(command, capture_output=True, text=True, cwd=work)
    elapsed = time.perf_counter() - started
    if finished.returncode != 0:
        raise SystemExit(f"the import failed:\n{finished.stdout}{finished.stderr}")
    return elapsed


def run_reference(path: Path, number: str, work: Path) -> tuple[float, list[dict[str, str]]]:
    copy = work / "round"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(path, copy, ignore=shutil.ignore_patterns("benchmarks", ".git"))
    rows: list[dict[str, str]] = []
    elapsed = 0.0
    for submitter in submitters(copy):
        out = work / f"{submitter}.csv"
        command = [sys.executable, "-m", "mlperf_logging.result_summarizer", submitter]
        command += ["training", f"{number}.0", "--csv", str(out)]
        started = time.perf_counter()
        finished = subprocess.run(command, capture_output=True, text=True, cwd=copy)
        elapsed += time.perf_counter() - started
        if finished.returncode != 0:
            raise SystemExit(f"the reference failed on {submitter}:\n{finished.stderr}")
        with out.open(newline="", encoding="utf-8") as stream:
            rows += [{**row, "folder": submitter} for row in csv.DictReader(stream)]
    return elapsed, rows


def compare(path: Path, number: str, rows: list[dict[str, str]]) -> None:
    reference = {
        (row["folder"], PurePosixPath(row["details_url"]).stem, column): float(cell)
        for row in rows
        if row["availability"] == CLOUD
        for column, cell in row.items()
        if cell and column in BENCHMARKS[number]
    }
    scored = read_round(path, number)
    imported = {
        (s.system.folder, s.system.key, s.benchmark): s.minutes
        for s in scored.scores
        if s.minutes is not None
    }
    invalid = [s for s in scored.scores if s.minutes is None]
    print(
        f"cloud scores: import {len(imported)} (and {len(invalid)} invalid), reference "
        f"{len(reference)}"
    )
    only = sorted(imported.keys() ^ reference.keys())
    for key in only:
        print(f"  in one table only: {key}")
    worst = max(
        (
            abs(imported[k] - reference[k]) / reference[k]
            for k in imported.keys() & reference.keys()
        ),
        default=0.0,
    )
    equal = all(
        math.isclose(imported[k], reference[k], rel_tol=1e-9, abs_tol=0)
        for k in imported.keys() & reference.keys()
    )
    print(f"largest relative difference: {worst:.3g} ({'equal' if equal else 'NOT equal'} to 1e-9)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--round", required=True, dest="round_name")
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    number = round_number(options.round_name)
    path = options.path.resolve()
    times: dict[str, list[float]] = {"import": [], "reference": []}
    rows: list[dict[str, str]] = []
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for repetition in range(options.rounds):
            # Alternate which goes first, so neither always meets a warm or a cold file cache.
            order = ("import", "reference") if repetition % 2 == 0 else ("reference", "import")
            for name in order:
                if name == "import":
                    times[name].append(run_import(path, options.round_name, work))
                else:
                    elapsed, rows = run_reference(path, number, work)
                    times[name].append(elapsed)
    median = {name: statistics.median(values) for name, values in times.items()}
    logs = sum(1 for _ in path.glob("*/results/*/*/result_*.txt"))
    print(
        f"{options.round_name}: {len(submitters(path))} submitter folders, {logs} run logs, "
        f"{options.rounds} rounds, interleaved"
    )
    print(f"medians (s): import {median['import']:.2f}, reference {median['reference']:.2f}")
    print(f"import / reference: {median['import'] / median['reference']:.4f}")
    compare(path, number, rows)


if __name__ == "__main__":
    main()
