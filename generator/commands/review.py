"""`cloudqual diff`: what a change to the content changes of the built site, for review."""

from __future__ import annotations

import argparse
import os
import sys
import tarfile
from datetime import date
from pathlib import Path

from generator.model.options import Options
from generator.model.policy import Policy
from generator.problems import quote


def diff(args: argparse.Namespace) -> int:
    # Imported here: the other commands need none of it.
    import json
    import tempfile

    from generator.changes import report
    from generator.changes.diff import Refused, diff
    from generator.changes.trees import TreeError, content_at
    from generator.pipeline.run import page_texts

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
                pages=lambda content, site: page_texts(content, site, Options(templates, policy)),
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
    from generator.pipeline import settings

    try:
        return settings.as_of(args.as_of, os.environ)
    except settings.SettingsError as error:
        raise SystemExit(f"cloudqual: {error}") from None
