"""The build's cost against plain MkDocs, at the real content and at 100 and 1,000 validations.

Run: .venv/bin/python benchmarks/build.py [--rounds N] [--sizes real,100,1000] [--edits N]

For each size, a project is made in a temporary folder (the real content, or tests/synthetic.py's
copies of it), and `cloudqual render --out` writes the same pages as a plain MkDocs project.
Then, in each round, interleaved and in a rotating order, each size is built four ways, each in
its own process:

- plain:  `mkdocs build` of the rendered folder, with no plugin: what MkDocs alone costs;
- cold:   `mkdocs build` with the plugin, its cache (charts and the remembered build) cleared;
- charts: the same with the chart cache kept but the remembered build dropped, as after an edit
          outside `mkdocs serve`;
- warm:   the same again, nothing changed.

After the rounds, a serve edit is measured per size: the plugin kept across rebuilds, as
`mkdocs serve` keeps it, one validation's text edited `--edits` times, and each rebuild's core
time (load, derive, render) divided by the rebuild's whole time. The first edit comes once the
plugin has warmed up after the first build (it does so in the background while a contributor
reads the page).

It prints the median time and peak memory of each case, the ratios the issue asks for (plugin
÷ plain, cold and warm; time(1,000) ÷ time(100); warm ÷ cold) and the serve-edit share. Only
ratios measured in one run mean anything on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from synthetic import synthetic_content  # noqa: E402

AS_OF = "2026-12-02"
CASES = ("plain", "cold", "charts", "warm")
# Runs one build in this process and reports its time and peak memory (this process and the
# chart converters it started) as JSON on the last line.
PROBE = """
import json, resource, runpy, sys, time
sys.argv = ["mkdocs", *sys.argv[1:]]
started = time.perf_counter()
try:
    runpy.run_module("mkdocs", run_name="__main__")
except SystemExit as stop:
    if stop.code:
        raise
seconds = time.perf_counter() - started
peak = max(resource.getrusage(who).ru_maxrss for who in
           (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
print(json.dumps({"seconds": seconds, "peak_mb": peak / 1024}))
"""
# One serve session: the plugin instance kept, as `mkdocs serve` keeps it, across an unchanged
# build and then `edits` rebuilds, each after one edit of a validation's text.
SERVE = """
import json, os, re, sys, time
from pathlib import Path
from mkdocs.commands.build import build
from mkdocs.config import load_config
project, edits = Path(sys.argv[1]), int(sys.argv[2])
def rebuild():
    config = load_config(str(project / "mkdocs.yml"))
    config.plugins.on_startup(command="serve", dirty=False)
    started = time.perf_counter()
    build(config, serve_url="http://127.0.0.1:8000/")
    return config.plugins["cloudqual"], time.perf_counter() - started
plugin, _ = rebuild()
if plugin.warming is not None:  # a contributor reads the first build before the first edit
    plugin.warming.join()
record = sorted((project / "content" / "validations").glob("*.yaml"))[3]
field = re.compile(r"^(\\s*(?:- )?text: )([^'\\"|>].*)$", re.M)
shares = []
for edit in range(edits):
    text = record.read_text(encoding="utf-8")
    found = field.search(text)
    record.write_text(text[: found.end(2)] + f" e{edit}" + text[found.end(2):], "utf-8")
    plugin, seconds = rebuild()
    shares.append([plugin.core_seconds, seconds])
print(json.dumps(shares))
"""


def environment(cache_home: Path) -> dict[str, str]:
    return {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "CLOUDQUAL_AS_OF": AS_OF,
        "XDG_CACHE_HOME": str(cache_home),
    }


def prepare(folder: Path, size: str) -> dict[str, Path]:
    """A project with the plugin, and the same pages rendered as a plain MkDocs project."""
    project = folder / "project"
    project.mkdir(parents=True)
    shutil.copyfile(ROOT / "mkdocs.yml", project / "mkdocs.yml")
    shutil.copytree(ROOT / "templates", project / "templates")
    if size == "real":
        shutil.copytree(ROOT / "content", project / "content")
    else:
        synthetic_content(project / "content", int(size))
    plain = folder / "plain"
    command = [sys.executable, "-m", "generator.cli", "render", "--out", str(plain)]
    command += ["--content", str(project / "content"), "--templates", str(project / "templates")]
    command += ["--as-of", AS_OF, "--cache", str(folder / "render-cache")]
    command += ["--config", str(project / "mkdocs.yml")]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
    return {"project": project, "plain": plain, "cache": folder / "cache-home"}


def run_build(paths: dict[str, Path], case: str) -> dict[str, float]:
    cache_home = paths["cache"]
    if case == "cold":
        shutil.rmtree(cache_home, ignore_errors=True)
    elif case == "charts":
        for memo in cache_home.rglob("site-*.json"):
            memo.unlink()
    if case == "plain":
        arguments = ["build", "--quiet", "-f", str(paths["plain"] / "mkdocs.yml")]
    else:
        arguments = ["build", "--quiet", "--strict", "-f", str(paths["project"] / "mkdocs.yml")]
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *arguments],
        env=environment(cache_home),
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"{case} build failed:\n{result.stderr[-3000:]}")
    figures: dict[str, float] = json.loads(result.stdout.strip().splitlines()[-1])
    return figures


def serve_share(paths: dict[str, Path], edits: int) -> list[float]:
    result = subprocess.run(
        [sys.executable, "-c", SERVE, str(paths["project"]), str(edits)],
        env=environment(paths["cache"]),
        capture_output=True,
        text=True,
        check=True,
    )
    pairs = json.loads(result.stdout.strip().splitlines()[-1])
    return [core / total for core, total in pairs]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sizes", default="real,100,1000")
    parser.add_argument("--edits", type=int, default=3)
    args = parser.parse_args()
    sizes = args.sizes.split(",")
    times: dict[tuple[str, str], list[float]] = {}
    peaks: dict[tuple[str, str], list[float]] = {}
    with tempfile.TemporaryDirectory() as temporary:
        paths = {size: prepare(Path(temporary) / size, size) for size in sizes}
        for size in sizes:  # fill the caches, so the first "charts" case finds charts
            run_build(paths[size], "warm")
        for round_index in range(args.rounds):
            order = CASES[round_index % len(CASES) :] + CASES[: round_index % len(CASES)]
            for size in sizes:
                # "warm" must follow a build of unchanged content: it runs after whichever
                # plugin case ran last in the rotation, which leaves the build remembered.
                for case in [c for c in order if c != "warm"] + ["warm"]:
                    figures = run_build(paths[size], case)
                    times.setdefault((size, case), []).append(figures["seconds"])
                    peaks.setdefault((size, case), []).append(figures["peak_mb"])
            print(f"round {round_index + 1} of {args.rounds} done", file=sys.stderr)
        shares = {size: serve_share(paths[size], args.edits) for size in sizes}
        pages = {
            size: sum(1 for _ in (paths[size]["plain"] / "docs").rglob("*.md")) for size in sizes
        }
        svgs = {size: sum(1 for _ in paths[size]["cache"].rglob("*.svg")) for size in sizes}
        index = {
            size: (paths[size]["project"] / "site" / "search" / "search_index.json").stat().st_size
            for size in sizes
        }
    median = {key: statistics.median(values) for key, values in times.items()}
    print(f"{args.rounds} rounds, interleaved; medians in seconds, peak memory in MB")
    for size in sizes:
        cells = ", ".join(
            f"{case} {median[(size, case)]:.2f} s ({max(peaks[(size, case)]):.0f} MB)"
            for case in CASES
        )
        print(f"{size}: {pages[size]} Markdown pages, {svgs[size]} chart SVGs, search index "
              f"{index[size] / 1000:,.0f} kB; {cells}")  # fmt: skip
    print("plugin ÷ plain (target: warm ≤ 1.15, cold ≤ 1.5):")
    for size in sizes:
        ratios = {case: median[(size, case)] / median[(size, "plain")] for case in CASES[1:]}
        print(f"  {size}: " + ", ".join(f"{case} {ratio:.2f}" for case, ratio in ratios.items()))
    if "100" in sizes and "1000" in sizes:
        print("time(1,000) ÷ time(100) (target ≤ 11):")
        print("  " + ", ".join(
            f"{case} {median[('1000', case)] / median[('100', case)]:.2f}" for case in CASES
        ))  # fmt: skip
    print("warm ÷ cold: " + ", ".join(
        f"{size} {median[(size, 'warm')] / median[(size, 'cold')]:.2f}" for size in sizes
    ))  # fmt: skip
    print("serve, one-record edit, core ÷ rebuild (target ≤ 0.10): " + ", ".join(
        f"{size} {statistics.median(shares[size]):.3f} "
        f"({', '.join(f'{s:.3f}' for s in shares[size])})" for size in sizes
    ))  # fmt: skip


if __name__ == "__main__":
    main()
