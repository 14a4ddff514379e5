"""The build's cost against plain MkDocs, at the real content and at 100 and 1,000 validations.

Run: .venv/bin/python benchmarks/build.py [--rounds N] [--sizes real,100,1000] [--edits N]
                                          [--cases plain,cold,...]

For each size, a project is made in a temporary folder (the real content, or tests/synthetic.py's
copies of it), and `cloudqual render --out` writes the same pages as a plain MkDocs project.
Then, in each round, interleaved and in a rotating order, each size is built every way below,
each in its own process:

- plain:  `mkdocs build` of the rendered folder, with no plugin: what MkDocs alone costs;
- cold:   `mkdocs build` with the plugin, its cache (charts and the remembered build) cleared;
- charts: the same with the chart cache kept but the remembered build dropped, as in CI with
          its chart cache restored;
- edit:   `mkdocs build` after one validation's text is edited, the cache kept: what every
          `mkdocs build` after an edit costs; the remembered build's pages are reused where
          their signatures are unchanged;
- warm:   the same again, nothing changed;
- render: `cloudqual render --out` alone, the same command into the same folder as the plain
          project was made with, the chart cache kept: the core's part of the Zensical path;
- zensical-cleared: `cloudqual build --engine zensical` with Zensical's own cache (`.cache` in
          the work folder) and the path's remembered render deleted, the chart cache kept;
- zensical-kept: the same again, nothing changed: Zensical's cache and the remembered render
          kept;
- zensical-alone-cleared, zensical-alone-kept: `zensical build --strict` run directly in the
          work folder the Zensical path wrote, its cache deleted, then kept.

What is compared with what: "zensical-cleared" drops Zensical's cache and the path's remembered
render, so it loads and renders the whole site, as the plugin's "charts" case does; both keep
the converted charts, so neither starts the chart converter. "zensical-cleared" against "charts"
is thus the same core work with neither engine holding a cache (MkDocs has none).
"zensical-kept" against "warm" is what a contributor waits for when nothing changed, each
command as it is. "cold"
clears the charts too, and has no Zensical counterpart here: the chart conversion costs the same
whichever engine follows. The Zensical cases keep their own cache folder (and site folder), so
the plugin's "cold" clearing its cache never clears theirs.

The Zensical path's stages (loading, rendering, writing the work folder, the Zensical process,
finishing the pages, copying the site into place) are timed in the measured process itself, by
wrapping the functions `generator.engines.runner` calls. Each case's time is taken inside its
process,
after the interpreter started; the Zensical path's time includes starting the interpreter of its
Zensical subprocess, which "zensical-alone" does not.

After the rounds, a serve edit is measured per size (unless `--edits 0`): the plugin kept across
rebuilds, as `mkdocs serve` keeps it, one validation's text edited `--edits` times, and each
rebuild's core time (load, derive, render) divided by the rebuild's whole time. The first edit
comes once the plugin has warmed up after the first build (it does so in the background while a
contributor reads the page).

It prints the median time and peak memory of each case, the ratios the issues ask for (plugin
÷ plain, cold and warm; Zensical ÷ plain and ÷ plugin; the Zensical path ÷ (render + Zensical
alone); time(1,000) ÷ time(100); warm ÷ cold), the Zensical path's stages and the serve-edit
share. Only ratios measured in one run mean anything on a shared machine.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import re
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
PLUGIN = ("cold", "charts", "edit", "warm")
ZENSICAL_PATH = ("zensical-cleared", "zensical-kept")
ZENSICAL_ALONE = ("zensical-alone-cleared", "zensical-alone-kept")
CASES = ("plain", *PLUGIN, "render", *ZENSICAL_PATH, *ZENSICAL_ALONE)
# What the rotation moves: a "-kept" case is the run again, nothing changed, of the "-cleared"
# case before it, so each pair stays together. "warm" is not rotated: it runs last of a size.
UNITS = (("plain",), ("cold",), ("charts",), ("edit",), ("render",), ZENSICAL_PATH, ZENSICAL_ALONE)
STAGES = ("load", "render", "write", "zensical", "finish", "copy")
# Runs one command's module in this process and reports its time and peak memory (this process
# and the children it waited for: chart converters, the Zensical process) as JSON on the last
# line. With --stages, the Zensical path's stages are timed too, by wrapping the functions
# generator.engines.runner calls; wrapped after the clock starts, so importing them counts as it
# does in an unwrapped build.
PROBE = """
import json, resource, runpy, sys, time
staged = sys.argv[1] == "--stages"
module, arguments = (sys.argv[2], sys.argv[3:]) if staged else (sys.argv[1], sys.argv[2:])
sys.argv = [module, *arguments]
stages = {}
def timed(name, function):
    def call(*args, **kwargs):
        begun = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            stages[name] = stages.get(name, 0.0) + time.perf_counter() - begun
    return call
started = time.perf_counter()
if staged:
    import subprocess
    from generator.pipeline import run as pipeline
    from generator.checks import loader
    from generator.engines import runner as engine
    # The pipeline imports the loader where it runs it, so the loader's own name is wrapped.
    loader.load_site = timed("load", loader.load_site)
    pipeline.site_output = timed("render", pipeline.site_output)
    for stage, name in (("finish", "finish"), ("copy", "_replace")):
        setattr(engine, name, timed(stage, getattr(engine, name)))
    engine.project.write = timed("write", engine.project.write)
    # The path's one subprocess is Zensical's build (the charts are cached: no converter runs).
    subprocess.run = timed("zensical", subprocess.run)
try:
    runpy.run_module(module, run_name="__main__")
except SystemExit as stop:
    if stop.code:
        raise
seconds = time.perf_counter() - started
peak = max(resource.getrusage(who).ru_maxrss for who in
           (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
print(json.dumps({"seconds": seconds, "peak_mb": peak / 1024, "stages": stages}))
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
if plugin.session.warming is not None:  # a contributor reads the first build before an edit
    plugin.session.warming.join()
record = sorted((project / "content" / "validations").glob("*.yaml"))[3]
field = re.compile(r"^(\\s*(?:- )?text: )([^'\\"|>].*)$", re.M)
shares = []
for edit in range(edits):
    text = record.read_text(encoding="utf-8")
    found = field.search(text)
    record.write_text(text[: found.end(2)] + f" e{edit}" + text[found.end(2):], "utf-8")
    plugin, seconds = rebuild()
    shares.append([plugin.session.core_seconds, seconds])
print(json.dumps(shares))
"""


def environment(cache_home: Path) -> dict[str, str]:
    return {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        "CLOUDQUAL_AS_OF": AS_OF,
        "XDG_CACHE_HOME": str(cache_home),
    }


def render_arguments(folder: Path) -> list[str]:
    """`cloudqual render`'s arguments, writing the project in `folder` as a plain one."""
    project = folder / "project"
    arguments = ["render", "--out", str(folder / "plain")]
    arguments += ["--content", str(project / "content"), "--templates", str(project / "templates")]
    arguments += ["--as-of", AS_OF, "--cache", str(folder / "render-cache")]
    return [*arguments, "--config", str(project / "mkdocs.yml")]


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
    command = [sys.executable, "-m", "generator.cli", *render_arguments(folder)]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
    return {
        "folder": folder,
        "project": project,
        "plain": folder / "plain",
        "cache": folder / "cache-home",
        # The Zensical path's own cache home (its charts and work folder) and site folder.
        "zensical-home": folder / "zensical-home",
        "zensical-site": folder / "zensical-site",
    }


def work_folder(paths: dict[str, Path]) -> Path:
    """Where the Zensical path renders and Zensical builds: memo.default_cache_dir's one folder
    for the project under its cache home, then engine.WORK_FOLDER. Exists after its first build."""
    return next((paths["zensical-home"] / "cloudqual").glob("*/zensical"))


def run_build(paths: dict[str, Path], case: str) -> dict:
    cache_home = paths["zensical-home"] if case.startswith("zensical") else paths["cache"]
    if case == "cold":
        shutil.rmtree(cache_home, ignore_errors=True)
    elif case == "charts":
        for memo in cache_home.rglob("site-*.json"):
            memo.unlink()
    elif case == "edit":
        edit(paths["project"])
    elif case in ("zensical-cleared", "zensical-alone-cleared"):
        shutil.rmtree(work_folder(paths) / ".cache", ignore_errors=True)
        # And the path's remembered render, as after an edit: the path loads and renders.
        shutil.rmtree(work_folder(paths) / ".cloudqual-memo", ignore_errors=True)
    probe, cwd = [], None
    if case == "plain":
        arguments = ["mkdocs", "build", "--quiet", "-f", str(paths["plain"] / "mkdocs.yml")]
    elif case in PLUGIN:
        arguments = ["mkdocs", "build", "--quiet", "--strict"]
        arguments += ["-f", str(paths["project"] / "mkdocs.yml")]
    elif case == "render":
        arguments = ["generator.cli", *render_arguments(paths["folder"])]
    elif case in ZENSICAL_PATH:
        probe = ["--stages"]
        arguments = ["generator.cli", "build", "--engine", "zensical"]
        arguments += ["--config", str(paths["project"] / "mkdocs.yml")]
        arguments += ["--site-dir", str(paths["zensical-site"])]
    else:
        arguments, cwd = ["zensical", "build", "--strict", "-f", "mkdocs.yml"], work_folder(paths)
    result = subprocess.run(
        [sys.executable, "-c", PROBE, *probe, *arguments],
        env=environment(cache_home),
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"{case} build failed:\n{result.stderr[-3000:]}")
    figures: dict = json.loads(result.stdout.strip().splitlines()[-1])
    return figures


EDITED = re.compile(r"^(\s*(?:- )?text: )([^'\"|>].*)$", re.M)


def edit(project: Path) -> None:
    """One validation's first plain text, edited: a word added, so each edit is a new build."""
    record = sorted((project / "content" / "validations").glob("*.yaml"))[3]
    text = record.read_text(encoding="utf-8")
    found = EDITED.search(text)
    assert found is not None, record
    record.write_text(text[: found.end(2)] + " e" + text[found.end(2) :], encoding="utf-8")


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


def round_order(round_index: int, cases: list[str]) -> list[str]:
    """The selected cases of one size in this round: the units rotated by one each round, then
    "warm", which must follow a plugin build of unchanged content: every plugin case leaves the
    build remembered, and the Zensical cases keep another cache home, so whichever ran last
    before it (or the first fill) did."""
    start = round_index % len(UNITS)
    order = [case for unit in UNITS[start:] + UNITS[:start] for case in unit] + ["warm"]
    return [case for case in order if case in cases]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sizes", default="real,100,1000")
    parser.add_argument("--edits", type=int, default=3, help="serve edits per size; 0: none")
    parser.add_argument("--cases", default=",".join(CASES), help="of: " + ", ".join(CASES))
    args = parser.parse_args()
    sizes = args.sizes.split(",")
    cases = args.cases.split(",")
    if unknown := set(cases) - set(CASES):
        parser.error(f"unknown cases: {', '.join(sorted(unknown))}")
    times: dict[tuple[str, str], list[float]] = {}
    peaks: dict[tuple[str, str], list[float]] = {}
    stages: dict[tuple[str, str], list[dict[str, float]]] = {}
    # Each module of the package compiled once, as an installed copy is (and any copy after its
    # first run): with PYTHONDONTWRITEBYTECODE set, each build would compile it again.
    compileall.compile_dir(ROOT / "generator", quiet=1)
    with tempfile.TemporaryDirectory() as temporary:
        paths = {size: prepare(Path(temporary) / size, size) for size in sizes}
        for size in sizes:
            # Fill the caches, so that the first "charts" case finds charts and the Zensical
            # cases find theirs and the work folder.
            if set(cases) & {"plain", *PLUGIN}:
                run_build(paths[size], "warm")
            if set(cases) & {*ZENSICAL_PATH, *ZENSICAL_ALONE}:
                run_build(paths[size], "zensical-kept")
        for round_index in range(args.rounds):
            for size in sizes:
                for case in round_order(round_index, cases):
                    figures = run_build(paths[size], case)
                    times.setdefault((size, case), []).append(figures["seconds"])
                    peaks.setdefault((size, case), []).append(figures["peak_mb"])
                    if figures["stages"]:
                        stages.setdefault((size, case), []).append(figures["stages"])
            print(f"round {round_index + 1} of {args.rounds} done", file=sys.stderr)
        shares = {size: serve_share(paths[size], args.edits) for size in sizes if args.edits}
        pages = {
            size: sum(1 for _ in (paths[size]["plain"] / "docs").rglob("*.md")) for size in sizes
        }
        svgs = {
            size: len(
                {
                    svg.name
                    for svg in paths[size]["folder"].glob("*/cloudqual/*/cloudqual-charts/*.svg")
                }
            )
            for size in sizes
        }
        index = {
            size: (paths[size]["project"] / "site" / "search" / "search_index.json").stat().st_size
            for size in sizes
            if (paths[size]["project"] / "site").is_dir()
        }
        html = {
            size: sum(1 for _ in paths[size]["zensical-site"].rglob("*.html")) for size in sizes
        }
    report(args, sizes, cases, times, peaks, stages)
    for size in sizes:
        facts = [f"{pages[size]} Markdown pages", f"{svgs[size]} chart SVGs"]
        if size in index:
            facts.append(f"MkDocs search index {index[size] / 1000:,.0f} kB")
        if html[size]:
            facts.append(f"Zensical site {html[size]} HTML pages")
        print(f"{size}: " + ", ".join(facts))
    if shares:
        print("serve, one-record edit, core ÷ rebuild (target ≤ 0.10): " + ", ".join(
            f"{size} {statistics.median(shares[size]):.3f} "
            f"({', '.join(f'{s:.3f}' for s in shares[size])})" for size in sizes
        ))  # fmt: skip


def report(
    args: argparse.Namespace,
    sizes: list[str],
    cases: list[str],
    times: dict[tuple[str, str], list[float]],
    peaks: dict[tuple[str, str], list[float]],
    stages: dict[tuple[str, str], list[dict[str, float]]],
) -> None:
    median = {key: statistics.median(values) for key, values in times.items()}
    print(f"{args.rounds} rounds, interleaved; medians in seconds, peak memory in MB")
    for size in sizes:
        print(f"{size}:")
        for case in cases:
            print(f"  {case:24} {median[(size, case)]:7.2f} s {max(peaks[(size, case)]):5.0f} MB")

    def total(size: str, group: tuple[str, ...]) -> float:
        return sum(median[(size, case)] for case in group)

    def ratios(title: str, pairs: list[tuple[str, tuple[str, ...], tuple[str, ...]]]) -> None:
        """One line per size: each named ratio of the sum of some cases' medians to another's,
        for those whose cases were all measured."""
        lines = []
        for size in sizes:
            cells = [
                f"{name} {total(size, top) / total(size, bottom):.2f}"
                for name, top, bottom in pairs
                if all(case in cases for case in (*top, *bottom))
            ]
            if cells:
                lines.append(f"  {size}: " + ", ".join(cells))
        if lines:
            print(title, *lines, sep="\n")

    ratios(
        "plugin ÷ plain (target: warm and edit ≤ 1.15, cold ≤ 1.5):",
        [(case, (case,), ("plain",)) for case in PLUGIN],
    )
    # The same ratio taken within each round, where the two builds ran minutes apart at most:
    # plain MkDocs alone moved by a third from one run to the next on this machine, with nothing
    # else running, which a ratio of medians taken across all rounds carries whole.
    if "plain" in cases:
        print("plugin ÷ plain, paired in each round (median of the rounds; lowest–highest):")
    for size in sizes:
        if "plain" not in cases:
            break
        plain = times[(size, "plain")]
        cells = []
        for case in (c for c in PLUGIN if c in cases):
            paired = [t / p for t, p in zip(times[(size, case)], plain, strict=True)]
            cells.append(
                f"{case} {statistics.median(paired):.2f} ({min(paired):.2f}–{max(paired):.2f})"
            )
        if cells:
            print(
                f"  {size}: " + ", ".join(cells),
                f"  {size}: plain alone {min(plain):.2f}–{max(plain):.2f} s",
                sep="\n",
            )
    ratios(
        "Zensical path ÷ plain MkDocs:",
        [(case, (case,), ("plain",)) for case in ZENSICAL_PATH],
    )
    ratios(
        "Zensical path ÷ plugin build:",
        [
            ("cleared ÷ charts", ("zensical-cleared",), ("charts",)),
            ("kept ÷ charts", ("zensical-kept",), ("charts",)),
            ("kept ÷ warm", ("zensical-kept",), ("warm",)),
        ],
    )
    ratios(
        "Zensical path ÷ (render + Zensical alone) (target ≤ 1):",
        [
            ("cleared", ("zensical-cleared",), ("render", "zensical-alone-cleared")),
            ("kept", ("zensical-kept",), ("render", "zensical-alone-kept")),
        ],
    )
    ratios(
        "Zensical's cache kept ÷ cleared:",
        [
            ("path", ("zensical-kept",), ("zensical-cleared",)),
            ("alone", ("zensical-alone-kept",), ("zensical-alone-cleared",)),
        ],
    )
    ratios("warm ÷ cold:", [("plugin", ("warm",), ("cold",))])
    if "100" in sizes and "1000" in sizes:
        print("time(1,000) ÷ time(100) (target ≤ 11):")
        print("  " + ", ".join(
            f"{case} {median[('1000', case)] / median[('100', case)]:.2f}" for case in cases
        ))  # fmt: skip
    for (size, case), runs in stages.items():
        split = {stage: statistics.median(run.get(stage, 0.0) for run in runs) for stage in STAGES}
        other = median[(size, case)] - sum(split.values())
        print(f"{size} {case}, median of each stage (s): " + ", ".join(
            f"{stage} {seconds:.2f}" for stage, seconds in split.items()
        ) + f"; the rest (imports, config, hand-written pages) {other:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
