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
import json
import sys
from collections import Counter
from pathlib import Path

from generator.importers.mlperf_inference.results import read_round


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("table", type=Path)
    parser.add_argument("--round", required=True)
    args = parser.parse_args(argv)
    reading = read_round(args.root, args.round)
    for problem in reading.problems:
        print(f"problem: {problem}")
    ours = {r.folder: r for r in reading.results}
    rows = {
        row["Location"]: row
        for row in json.loads(args.table.read_text(encoding="utf-8"))
        if "datacenter" in row["Suite"]
    }
    equal, differ, labels = 0, [], Counter()
    for location, row in sorted(rows.items()):
        result = ours.get(location)
        if result is None or result.figure is None:
            continue
        if float(f"{result.figure.value:.6g}") == float(row["Performance_Result"]):
            equal += 1
        else:
            differ.append(
                f"{location}: {result.figure.value!r} against {row['Performance_Result']}"
            )
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
    for location in missing:
        why = ours[location].invalid if location in ours else "not read"
        print(f"missing: {location}: {why}")
    for location in extra:
        print(f"not in the table: {location}")
    for (model, scenario, label, unit), count in sorted(labels.items()):
        print(f"the table labels {model} {scenario} {label}; the figure read is {unit}: {count}")
    return 1 if differ or missing else 0


if __name__ == "__main__":
    sys.exit(main())
