"""`cloudqual check`, `new` and `schema`: the content's records checked, started and described."""

from __future__ import annotations

import argparse
import difflib
import os
import re
import secrets
import sys
from pathlib import Path

from generator import report
from generator.checks.loader import load_site
from generator.english import plural
from generator.model.fields import ID_PATTERN
from generator.model.kinds import KINDS
from generator.model.schemas import json_schemas
from generator.problems import ContentError, quote
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
