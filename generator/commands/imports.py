"""`cloudqual import`: a program's published results read by its importer, planned, and written
or checked."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from generator import report
from generator.english import plural
from generator.problems import plain, quote

if TYPE_CHECKING:
    from generator.importers.core.writing import Writes


def _failed(name: str, error: Exception) -> int:
    """An import that wrote nothing: its problems, each at its place, or the file error."""
    from generator.importers.core.mapping import ImportFailure

    if isinstance(error, ImportFailure):
        for line in report.log(error.problems):
            print(line, file=sys.stderr)
        said = plural("problem", len(error.problems))
    else:
        said = quote(str(error))
    print(f"{name}: {said}; nothing was written.", file=sys.stderr)
    return 1


def _write(args: argparse.Namespace, plan: Writes) -> list[str]:
    """The paths the plan changes: written, or with --check only named."""
    from generator.importers.core import writing

    return writing.changed(args.content, plan) if args.check else writing.apply(args.content, plan)


def import_results(args: argparse.Namespace) -> int:
    if args.program == "mlperf-inference":
        return _import_inference(args)
    # Imported here: the import and its reader stay off the path of every other command.
    from generator.importers.core.mapping import ImportFailure
    from generator.importers.mlperf import command as importer
    from generator.model.mlperf import same_release

    name = "cloudqual import mlperf-training"
    try:
        plan = importer.plan_import(args.content, args.path, args.round, args.earlier)
        paths = _write(args, plan)
    except (ImportFailure, OSError) as error:
        return _failed(name, error)
    reading = plan.round
    assert reading is not None
    for score in reading.scores:
        if score.invalid is not None:
            print(f"invalid: {quote(score.folder)}: {quote(score.invalid)}")
        for run in score.dropped if score.invalid is None else ():
            where = f"{run.log}:{run.line}" if run.line is not None else run.log
            print(f"dropped run: {quote(where)}: {quote(run.failure or '')}")
    for problem in reading.left_out:
        print(f"left out: {plain(problem)}")
    for system in reading.without_results:
        print(f"no results: {quote(system.path)}")
    for system in reading.systems:
        logged = sorted(
            {f for score in reading.scores if score.system == system for f in score.frameworks}
        )
        if logged and not all(same_release(system.framework, f) for f in logged):
            print(
                f"framework differs: {quote(system.path)}: the run logs give "
                f"{quote('; '.join(logged))}, the description "
                f"{quote(system.framework or 'none')}"
            )
    for folder, repeat in sorted(plan.repeats.items()):
        where = f" ({quote(repeat.folder)})" if repeat.folder else ""
        print(f"submitted again: {quote(folder)}: round {repeat.round}{where}")
    print(
        f"{name} {args.round}: {plural('cloud system', len(reading.systems))} "
        f"({reading.other_systems} of other statuses not imported), "
        f"{plural('validation', plan.validations)}, "
        f"{plural('measurement', plan.measurements)}, "
        f"{plural('invalid result', plan.invalid)}, "
        f"{plural('result', len(plan.repeats))} submitted again."
    )
    return _written(args, name, paths, plan.files, plan.removed)


def _written(
    args: argparse.Namespace,
    name: str,
    paths: list[str],
    files: dict[str, str],
    removed: list[str],
) -> int:
    """The end of an import's report: what --check found stale, or what was written."""
    if args.check:
        for path in paths:
            print(f"stale: {args.content.name}/{path}", file=sys.stderr)
        print(
            f"{name} --check: {plural('file', len(paths))} "
            f"{'differ' if len(paths) != 1 else 'differs'} from what the import would write."
            if paths
            else f"{name} --check: content/ is what the import writes."
        )
        return 1 if paths else 0
    written = [path for path in paths if path not in removed]
    print(
        f"wrote {plural('file', len(written))}, removed {len(removed)}; "
        f"{len(files) - len(written)} unchanged"
    )
    return 0


def _import_inference(args: argparse.Namespace) -> int:
    from generator.importers.core.mapping import ImportFailure
    from generator.importers.mlperf_inference import command as importer

    name = "cloudqual import mlperf-inference"
    if args.earlier is not None:
        print(
            f"{name}: --earlier is for MLPerf Training rounds; nothing was written.",
            file=sys.stderr,
        )
        return 1
    try:
        plan = importer.plan_import(args.content, args.path, args.round)
        paths = _write(args, plan)
    except (ImportFailure, OSError) as error:
        return _failed(name, error)
    reading = plan.round
    assert reading is not None
    for problem in reading.left_out:
        print(f"left out: {plain(problem)}")
    for folder in reading.not_models:
        print(f"not a model of the round: {quote(folder)}")
    for system in reading.cpu_only:
        print(f"no accelerator (CPUs alone): {quote(system)}")
    for result in plan.without_figure:
        print(f"no valid figure: {quote(result.folder)}: {quote(result.invalid or '')}")
    print(
        f"{name} {args.round}: {plural('datacenter system', len(reading.systems))} "
        f"({reading.edge_systems} edge systems not read), "
        f"{plural('validation', plan.validations)}, "
        f"{plural('measurement', plan.measurements)} "
        f"({plan.references} set against the chip maker's own), "
        f"{plural('result', plan.invalid)} without a valid figure."
    )
    return _written(args, name, paths, plan.files, plan.removed)
