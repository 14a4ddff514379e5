"""The `cloudqual` command: check content, write the JSON Schemas, render pages without MkDocs."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from datetime import date
from pathlib import Path

from . import assets
from .derive import Policy
from .model import KINDS
from .problem import ContentError
from .render import render
from .site import PAGES_FOLDER, load_site


def schemas() -> dict[str, str]:
    """The JSON Schema of each record kind, as committed under `schemas/`."""
    return {
        f"{kind}.schema.json": json.dumps(model.model_json_schema(), indent=2, sort_keys=True)
        + "\n"
        for kind, model in KINDS.items()
    }


def _check(args: argparse.Namespace) -> int:
    try:
        site = load_site(args.content)
    except ContentError as error:
        print(error, file=sys.stderr)
        return 1
    for warning in site.warnings:
        print(warning, file=sys.stderr)
    print(f"{len(site.files)} records checked: no errors, {len(site.warnings)} warnings.")
    return 0


def _schema(args: argparse.Namespace) -> int:
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in schemas().items():
        (args.out / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(KINDS)} schemas to {args.out}")
    return 0


def _render(args: argparse.Namespace) -> int:
    try:
        site = load_site(args.content)
    except ContentError as error:
        print(error, file=sys.stderr)
        return 1
    policy = Policy(args.as_of, args.expiry_warning_days, args.review_max_age_days)
    output = render(site, args.templates, policy=policy, directory_urls=not args.file_urls)
    out: Path = args.out
    files = {page.uri: page.markdown.encode("utf-8") for page in output.pages.values()}
    files |= output.data | assets.load(args.templates)
    for uri, content in files.items():
        (out / uri).parent.mkdir(parents=True, exist_ok=True)
        (out / uri).write_bytes(content)
    for hand_written in sorted((args.content / PAGES_FOLDER).glob("*.md")):
        shutil.copyfile(hand_written, out / hand_written.name)
    print(f"wrote {len(output.pages)} pages and {len(output.data)} data files to {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cloudqual", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("check", help="validate every record; exit 1 on any error")
    check.add_argument("--content", type=Path, default=Path("content"))
    check.set_defaults(run=_check)
    schema = commands.add_parser("schema", help="write the JSON Schema of each record kind")
    schema.add_argument("--out", type=Path, default=Path("schemas"))
    schema.set_defaults(run=_schema)
    rendering = commands.add_parser("render", help="write the generated Markdown pages to a folder")
    rendering.add_argument("--out", type=Path, required=True)
    rendering.add_argument("--content", type=Path, default=Path("content"))
    rendering.add_argument("--templates", type=Path, default=Path("templates"))
    rendering.add_argument(
        "--file-urls",
        action="store_true",
        help="link to page.html rather than page/ (use_directory_urls: false)",
    )
    rendering.add_argument(
        "--as-of",
        type=date.fromisoformat,
        default=date.today(),
        help="judge expiry and staleness on this date (YYYY-MM-DD)",
    )
    rendering.add_argument("--expiry-warning-days", type=int, default=90)
    rendering.add_argument("--review-max-age-days", type=int, default=365)
    rendering.set_defaults(run=_render)
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    raise SystemExit(main())
