"""What each `cloudqual` command does, once its arguments are read (cli.py reads them)."""

from __future__ import annotations

import argparse
import difflib
import os
import re
import secrets
import sys
import tarfile
from datetime import date
from pathlib import Path
from typing import Any

from generator import report
from generator.checks.loader import hand_written_pages, load_site
from generator.engines import assets
from generator.english import plural
from generator.model.fields import ID_PATTERN
from generator.model.kinds import KINDS
from generator.model.policy import (
    Policy,
)
from generator.model.schemas import json_schemas
from generator.problems import ContentError, plain, quote
from generator.render.output import Refused, check_site
from generator.render.svg import SvgStore
from generator.scaffold import scaffold


def _shown(path: Path, root: Path) -> str | None:
    """`path` as problems name it (relative to the project), or None if it is not in it."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return None


def check(args: argparse.Namespace) -> int:
    root: Path = args.content.parent
    wanted = set()
    for path in args.paths:
        shown = _shown(path, root)
        if not path.is_file() or shown is None or not shown.startswith(f"{args.content.name}/"):
            print(
                f"cloudqual check: {quote(str(path))}: expected a record file under "
                f"{quote(str(args.content))}/, found none",
                file=sys.stderr,
            )
            return 2
        wanted.add(shown)
    try:
        site = load_site(args.content)
        problems, records = site.warnings, len(site.files)
    except ContentError as error:
        problems, records = error.problems, 0
    # Every file is loaded, so references resolve; only the asked-for files are reported.
    if wanted:
        problems = [p for p in problems if p.path in wanted]
    errors = [p for p in problems if p.severity == "error"]
    if args.format == "github":
        summary_file = os.environ.get("GITHUB_STEP_SUMMARY")
        if summary_file:
            with Path(summary_file).open("a", encoding="utf-8") as summary:
                summary.write(report.summary(problems))
        # The runner handles each batch of stderr lines before stdout's, so the log goes to
        # stdout too, after the annotations: then the region that stops commands around it
        # cannot swallow them. The token is fresh per run, so content cannot guess it.
        for line in [*report.github(problems), *report.log(problems, secrets.token_hex(16))]:
            print(line)
    else:
        for line in report.log(problems):
            print(line, file=sys.stderr)
    checked = len(wanted) if wanted else records
    files = plural("file", checked) if checked else "all files"
    # A warning fails too: the plugin logs each one, and `mkdocs build --strict` (as mkdocs.yml
    # sets) stops on a logged warning, so content that passed here would still fail the build.
    failed = bool(problems)
    print(
        f"cloudqual check: {files} checked: {len(errors)} errors, "
        f"{len(problems) - len(errors)} warnings.",
        file=sys.stderr if failed else sys.stdout,
    )
    return 1 if failed else 0


def new(args: argparse.Namespace) -> int:
    kind: str = args.kind
    if kind not in KINDS:
        close = difflib.get_close_matches(kind, list(KINDS), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        print(
            f"cloudqual new: expected a kind of record ({', '.join(KINDS)}), found {kind!r}{hint}",
            file=sys.stderr,
        )
        return 2
    if not re.match(ID_PATTERN, args.id):
        print(
            f"cloudqual new: expected a kebab-case id (lowercase letters and digits, single "
            f"hyphens between), found {args.id!r}",
            file=sys.stderr,
        )
        return 2
    target: Path = args.content / kind / f"{args.id}.yaml"
    if target.exists():
        print(f"cloudqual new: {target} already exists; it was left as it is", file=sys.stderr)
        return 1
    questions = sorted(path.stem for path in (args.content / "questions").glob("*.yaml"))
    target.parent.mkdir(parents=True, exist_ok=True)
    with target.open("x", encoding="utf-8") as record:
        record.write(scaffold(kind, args.id, questions))
    print(f"wrote {target}: fill in every field from a source, then run `cloudqual check {target}`")
    return 0


def schema(args: argparse.Namespace) -> int:
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in json_schemas().items():
        (args.out / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(json_schemas())} schemas to {args.out}")
    return 0


# The folder of the cache `cloudqual render` remembers its last render in.
RENDER_MEMO = "render"


def _flags(args: argparse.Namespace) -> dict[str, Any]:
    """`cloudqual render`'s flags as the plugin's options they stand for, laid over mkdocs.yml's:
    a folder given relative to here is made relative to mkdocs.yml, as the options are."""
    root = args.config.parent

    def folder(path: Path | None) -> str | None:
        return None if path is None else os.path.relpath(path, root)

    return {
        "content_dir": folder(args.content),
        "templates_dir": folder(args.templates),
        "cache_dir": folder(args.cache),
        "as_of": args.as_of,
        "expiry_warning_days": args.expiry_warning_days,
        "review_max_age_days": args.review_max_age_days,
    }


def render(args: argparse.Namespace) -> int:
    # Imported here, as in `import_results`: the project's config writer is this command's alone.
    from generator.build import settings
    from generator.build.memo import Memo
    from generator.build.pipeline import build
    from generator.engines import project

    out: Path = args.out
    try:
        # The one reader of `mkdocs build` and `cloudqual build`: the plugin's options in
        # --config, the environment, then the flags given here.
        options = settings.plugin_entry(project.read_config(args.config)) or {}
        laid = options | {name: value for name, value in _flags(args).items() if value is not None}
        found = settings.read(
            args.config, laid, directory_urls=not args.file_urls, site_url=args.site_url
        )
        inputs, cache = found.inputs, found.cache_dir
        folders = (inputs.content_dir, inputs.templates_dir)
        store = SvgStore(cache)
        # Before any work: a folder the command may not write is refused at once, as it is;
        # the cache's folders are refused before anything is written to either.
        project.check_out(out, project.RENDER, project=args.config.parent, inputs=folders)
        store.check()
        # The same way in as `mkdocs build` and `cloudqual build`: this command's own last
        # render is reused while no input has changed.
        memo = Memo(cache / RENDER_MEMO)
        key = inputs.key("render")
        remembered, reused = build(
            inputs, memo, key, svg_store=store, say=lambda said: print(said, file=sys.stderr)
        )
        if key is not None and not reused:
            memo.put(key, remembered.output, remembered.warnings)
        output = remembered.output
        pages = {page.uri: page.markdown.encode("utf-8") for page in output.pages.values()}
        hand_written = {
            path.name: path.read_bytes() for path in hand_written_pages(inputs.content_dir)
        }
        project.write(
            out,
            pages=pages | assets.load(inputs.templates_dir),
            data=output.data,
            hand_written=hand_written,
            config_file=args.config,
            site_url=inputs.site_url,
            directory_urls=not args.file_urls,
            marker=project.RENDER,
            inputs=folders,
        )
    except (Refused, OSError, ValueError) as error:
        print(f"cloudqual render: {quote(str(error))}", file=sys.stderr)
        return 1
    except ContentError as error:
        print(error, file=sys.stderr)
        return 1
    for warning in remembered.warnings:
        print(warning, file=sys.stderr)
    print(f"wrote {len(output.pages)} pages and {len(output.data)} data files to {out}")
    print(
        f"build it with `mkdocs build -f {out / 'mkdocs.yml'}` or "
        f"`properdocs build -f {out / 'mkdocs.yml'}`; the site is then in {out / 'site'}"
    )
    return 0


def build(args: argparse.Namespace) -> int:
    # Imported here: the engines and what they import are this command's alone.
    from generator.engines import runner as engine

    config: Path = args.config
    if not config.is_file():
        print(f"cloudqual build: {config}: no such config file", file=sys.stderr)
        return 1
    if args.engine == "zensical" and not engine.zensical_installed():
        print(
            "cloudqual build: Zensical is not installed; `make site-zensical` installs it at the "
            "project's pin and builds, or: pip install -c constraints.txt -e '.[zensical]'",
            file=sys.stderr,
        )
        return 1
    try:
        # Where mkdocs.yml puts the site, unless the command says otherwise.
        site_dir: Path = args.site_dir or engine.site_dir(config)
        # Refused here, in a line, before a build: a folder no build wrote, or a link (the
        # plugin and the Zensical build refuse them too).
        checked = site_dir
        if args.engine == "mkdocs" and args.site_dir is not None:
            checked = config.parent / args.site_dir  # as MkDocs reads it: from the config's folder
        check_site(checked)
        if args.engine == "zensical":
            built = engine.build_zensical(config, site_dir)
        else:
            built = engine.build_mkdocs(config, args.site_dir)
    except Refused as error:
        print(f"cloudqual build: {quote(str(error))}", file=sys.stderr)
        return 1
    except (engine.BuildError, OSError, ValueError) as error:
        for line in str(error).splitlines():
            print(quote(line), file=sys.stderr)
        return 1
    print(f"cloudqual build: {built}, in {site_dir}")
    return 0


def import_results(args: argparse.Namespace) -> int:
    if args.program == "mlperf-inference":
        return _import_inference(args)
    # Imported here: the import and its reader stay off the path of every other command.
    from generator.importers.core import writing
    from generator.importers.core.mapping import ImportFailure
    from generator.importers.mlperf import command as importer
    from generator.model.mlperf import same_release

    name = "cloudqual import mlperf-training"
    try:
        plan = importer.plan_import(args.content, args.path, args.round, args.earlier)
        paths = writing.changed(args.content, plan) if args.check else None
        if paths is None:
            paths = writing.apply(args.content, plan)
    except ImportFailure as error:
        for line in report.log(error.problems):
            print(line, file=sys.stderr)
        problems = plural("problem", len(error.problems))
        print(f"{name}: {problems}; nothing was written.", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"{name}: {quote(str(error))}; nothing was written.", file=sys.stderr)
        return 1
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
    from generator.importers.core import writing as writer
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
        paths = writer.changed(args.content, plan) if args.check else None
        if paths is None:
            paths = writer.apply(args.content, plan)
    except ImportFailure as error:
        for line in report.log(error.problems):
            print(line, file=sys.stderr)
        print(
            f"{name}: {plural('problem', len(error.problems))}; nothing was written.",
            file=sys.stderr,
        )
        return 1
    except OSError as error:
        print(f"{name}: {quote(str(error))}; nothing was written.", file=sys.stderr)
        return 1
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


def diff(args: argparse.Namespace) -> int:
    # Imported here: the other commands need none of it.
    import json
    import tempfile

    from generator.build.pipeline import page_texts
    from generator.changes import report
    from generator.changes.diff import Refused, diff
    from generator.changes.trees import TreeError, content_at

    if args.format == "schema":
        print(json.dumps(report.schema(), indent=2, sort_keys=True))
        return 0
    if args.base is None or args.head is None:
        print("cloudqual diff: BASE and HEAD are both needed", file=sys.stderr)
        return 2
    policy = Policy(_as_of(args))
    templates: Path = args.templates or args.repository / "templates"
    with tempfile.TemporaryDirectory(prefix="cloudqual-diff-") as scratch:
        try:
            base, base_label = content_at(args.base, args.repository, Path(scratch))
            head, head_label = content_at(args.head, args.repository, Path(scratch))
        except (TreeError, OSError, tarfile.TarError) as error:
            print(f"cloudqual diff: {quote(str(error))}", file=sys.stderr)
            return 2
        if not templates.is_dir():
            # Without them no page is compared, and "nothing changed" could not be said.
            shown = quote(str(templates))
            print(
                f"cloudqual diff: {shown} is not a templates folder: give --templates",
                file=sys.stderr,
            )
            return 2
        try:
            found = diff(
                base,
                head,
                policy=policy,
                base_label=args.base_name or base_label,
                head_label=args.head_name or head_label,
                pages=lambda content, site: page_texts(content, site, templates, policy),
            )
        except Refused as error:
            print(f"cloudqual diff: {error}", file=sys.stderr)
            if args.format == "markdown":  # a pull request's comment says why there is no diff
                print(report.refused(error.name, error.problems, limit=args.limit), end="")
            return 1
    if args.format == "json":
        print(found.model_dump_json(indent=2))
    else:
        print(report.markdown(found, limit=args.limit), end="")
    return 0


def _as_of(args: argparse.Namespace) -> date:
    """--as-of, else CLOUDQUAL_AS_OF as `mkdocs build` and `cloudqual build` read it, else today:
    every way in judges on the same date. A bad value stops with the variable's name."""
    from generator.build import settings

    try:
        return settings.as_of(args.as_of, os.environ)
    except settings.SettingsError as error:
        raise SystemExit(f"cloudqual: {error}") from None


def watch(args: argparse.Namespace) -> int:
    # Imported here: git and the watch stay off the path of every other command.
    from generator.watch import command

    return command.run(args)
