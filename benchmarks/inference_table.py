"""Every datacenter result of an MLPerf Inference round, as the import reads it, against
MLCommons' own table of the round (`summary_results.json`).

    .venv/bin/python benchmarks/inference_table.py ROUND_FOLDER TABLE --round vX.Y

ROUND_FOLDER is a checkout of mlcommons/inference_results_vX.Y (or its division folders);
TABLE is that round's summary_results.json (for v4.1, from commit 4a0c874 of its repository).
It prints how many results equal the table's value as the table prints it (six significant
digits), how many differ, which results one side has and the other lacks, how many were read
from the summary log for want of a detail log, and each unit the table labels otherwise than
the figure read; and exits non-zero if any value differs or any result is missing. The tests
run the same comparison on a trimmed fixture; this runs it on a whole round.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from generator.importers.mlperf_inference.results import read_round
from generator.importers.mlperf_inference.table import UNITS, read_table


def table_rows(path: Path) -> list[dict[str, Any]]:
    """MLCommons' table: summary_results.json, or v6.1's summary.csv with its columns named as
    the JSON names them."""
    if path.suffix != ".csv":
        return list(json.loads(path.read_text(encoding="utf-8")))
    rows = csv.DictReader(io.StringIO(path.read_text(encoding="utf-8")))
    return [
        {
            "Location": row["Location"],
            "Suite": row["SystemType"],
            "Model": row["Model"],
            "Scenario": row["Scenario"],
            "Performance_Result": row["Result"],
            "Performance_Units": UNITS.get(row["Units"], (None, row["Units"]))[1],
        }
        for row in rows
        if row["accelerators_per_node"].strip() not in ("", "0")
    ]


def location(published: str) -> str:
    """A result's folder as the import names it: v6.0's table writes
    "./closed/.../Offline/performance/run_1" where earlier rounds write "closed/.../Offline"."""
    return published.removeprefix("./").removesuffix("/performance/run_1")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("table", type=Path)
    parser.add_argument("--round", required=True)
    args = parser.parse_args(argv)
    # A round whose logs are not held is read from its table alone (v6.1): the comparison then
    # holds the reading of summary.csv to the file itself.
    tabled = not (args.root / "closed").is_dir() and (args.root / "summary.csv").is_file()
    reading = read_table(args.root, args.round) if tabled else read_round(args.root, args.round)
    for problem in reading.problems:
        print(f"problem: {problem}")
    ours = {r.folder: r for r in reading.results}
    rows = {
        location(row["Location"]): row
        for row in table_rows(args.table)
        if "datacenter" in row["Suite"]
    }
    equal, differ, labels = 0, [], Counter()
    for folder, row in sorted(rows.items()):
        result = ours.get(folder)
        if result is None or result.figure is None:
            continue
        # v6.0's table gives wan-2.2's latency in seconds ("Latency (s)"); the figure is read,
        # as every latency, in ms.
        scale = 1000.0 if row["Performance_Units"] == "Latency (s)" else 1.0
        published = float(row["Performance_Result"]) * scale
        if float(f"{result.figure.value:.6g}") == float(f"{published:.6g}"):
            equal += 1
        else:
            differ.append(f"{folder}: {result.figure.value!r} against {row['Performance_Result']}")
        if result.figure.unit != row["Performance_Units"]:
            labels[
                (row["Model"], row["Scenario"], row["Performance_Units"], result.figure.unit)
            ] += 1
    missing = sorted(set(rows) - {f for f, r in ours.items() if r.figure is not None})
    extra = sorted(set(ours) - set(rows))
    print(
        f"{args.round}: {len(rows)} datacenter results in MLCommons' table, {len(ours)} read: "
        f"{equal} equal, {len(differ)} differ, {len(missing)} missing or without a figure, "
        f"{len(extra)} not in the table; "
        f"{sum(1 for r in ours.values() if r.from_summary)} read from the summary log"
    )
    for line in differ:
        print(f"differs: {line}")
    for folder in missing:
        why = ours[folder].invalid if folder in ours else "not read"
        print(f"missing: {folder}: {why}")
    for folder in extra:
        print(f"not in the table: {folder}")
    for (model, scenario, label, unit), count in sorted(labels.items()):
        print(f"the table labels {model} {scenario} {label}; the figure read is {unit}: {count}")
    return 1 if differ or missing else 0


if __name__ == "__main__":
    sys.exit(main())
