"""The `cloudqual` command: check content, write the JSON Schemas, render pages without MkDocs."""

from __future__ import annotations

import argparse
from datetime import date
from pathlib import Path
from typing import Any

from generator.commands import content, imports, review, site, watch
from generator.model.kinds import KINDS
from generator.model.policy import AS_OF_VARIABLE


def _check_command(parsers: Any) -> None:
    check = parsers.add_parser(
        "check",
        help="validate every record, or the given files; exit 1 on any error or warning",
    )
    check.add_argument("paths", nargs="*", type=Path, help="record files to report on")
    check.add_argument("--content", type=Path, default=Path("content"))
    check.add_argument(
        "--format",
        choices=["text", "github"],
        default="text",
        help="github: also print GitHub Actions annotations and a step summary",
    )
    check.set_defaults(run=content.check)


def _new_command(parsers: Any) -> None:
    new = parsers.add_parser("new", help="write a new record to fill in, from the schema")
    new.add_argument("kind", help=f"one of: {', '.join(KINDS)}")
    new.add_argument("id", help="kebab-case id; the file name")
    new.add_argument("--content", type=Path, default=Path("content"))
    new.set_defaults(run=content.new)


def _schema_command(parsers: Any) -> None:
    schema = parsers.add_parser("schema", help="write the JSON Schema of each record kind")
    schema.add_argument("--out", type=Path, default=Path("schemas"))
    schema.set_defaults(run=content.schema)


def _render_command(parsers: Any) -> None:
    rendering = parsers.add_parser(
        "render",
        help="write the site to a folder that MkDocs or ProperDocs builds without the plugin",
    )
    rendering.add_argument("--out", type=Path, required=True)
    rendering.add_argument(
        "--config",
        type=Path,
        default=Path("mkdocs.yml"),
        help="the mkdocs.yml the folder's config is derived from (theme, nav, extensions)",
    )
    rendering.add_argument(
        "--content",
        type=Path,
        default=None,
        help="the folder of YAML records (default: the plugin's content_dir in --config, "
        "else content)",
    )
    rendering.add_argument(
        "--templates",
        type=Path,
        default=None,
        help="the folder of Jinja templates (default: the plugin's templates_dir in --config, "
        "else templates)",
    )
    rendering.add_argument(
        "--file-urls",
        action="store_true",
        help="link to page.html rather than page/ (use_directory_urls: false)",
    )
    rendering.add_argument(
        "--as-of",
        type=date.fromisoformat,
        default=None,
        help="judge expiry and staleness on this date (YYYY-MM-DD; default: the plugin's as_of "
        f"in --config, else {AS_OF_VARIABLE}, as for mkdocs build, else today)",
    )
    # Unset, the plugin's option in --config, else its default, as for mkdocs build.
    rendering.add_argument("--expiry-warning-days", type=int, default=None)
    rendering.add_argument("--review-max-age-days", type=int, default=None)
    rendering.add_argument(
        "--site-url",
        default=None,
        help="the published address, which makes the feeds' and calendar's links absolute",
    )
    rendering.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="folder for converted chart SVGs, kept by each chart's data (default: the "
        "plugin's cache_dir in --config, else under the user's cache folder)",
    )
    rendering.set_defaults(run=site.render)


def _build_command(parsers: Any) -> None:
    building = parsers.add_parser(
        "build",
        help="build the whole site into site/, with MkDocs (the default) or with Zensical",
    )
    building.add_argument(
        "--engine",
        choices=["mkdocs", "zensical"],
        default="mkdocs",
        help="mkdocs: `mkdocs build --strict`, the plugin doing the work; zensical: the pages "
        "rendered by cloudqual, then built by Zensical, which runs no MkDocs plugin",
    )
    building.add_argument("--config", type=Path, default=Path("mkdocs.yml"))
    building.add_argument(
        "--site-dir", type=Path, default=None, help="where the site goes (default: site/)"
    )
    building.set_defaults(run=site.build)


def _watch_command(parsers: Any) -> None:
    watching = parsers.add_parser(
        "watch",
        help="whether MLCommons has published a new round, or moved one the mappings pin",
    )
    from generator.watch.command import add_arguments as watch_arguments

    watch_arguments(watching)
    watching.set_defaults(run=watch.run)


def _diff_command(parsers: Any) -> None:
    differing = parsers.add_parser(
        "diff",
        help="what changed for a buyer between two content trees (folders or git revisions)",
    )
    differing.add_argument("base", nargs="?", help="a content folder, or a git revision")
    differing.add_argument("head", nargs="?", help="a content folder, or a git revision")
    differing.add_argument(
        "--format",
        choices=["markdown", "json", "schema"],
        default="markdown",
        help="markdown: for people; json: the Diff document; schema: its JSON Schema",
    )
    differing.add_argument(
        "--repository", type=Path, default=Path(), help="the git repository revisions are of"
    )
    differing.add_argument(
        "--as-of",
        type=date.fromisoformat,
        default=None,
        help=f"judge validity and staleness on this date, in both trees (YYYY-MM-DD; default: "
        f"{AS_OF_VARIABLE}, else today)",
    )
    differing.add_argument(
        "--base-name", default=None, help="how the report names BASE (default: as given)"
    )
    differing.add_argument(
        "--head-name", default=None, help="how the report names HEAD (default: as given)"
    )
    differing.add_argument(
        "--limit",
        type=int,
        default=10**9,
        help="at most this many characters of Markdown (a pull request's comment: 60000)",
    )
    differing.add_argument(
        "--templates",
        type=Path,
        default=None,
        help="the templates both trees' pages are rendered with, to compare every page "
        "(default: the repository's templates folder)",
    )
    differing.set_defaults(run=review.diff)


def _import_command(parsers: Any) -> None:
    importing = parsers.add_parser(
        "import", help="write the records of a program's published results into content/"
    )
    importing.add_argument("program", choices=["mlperf-training", "mlperf-inference"])
    importing.add_argument(
        "path",
        type=Path,
        help="a checkout of mlcommons/training_results_vX.Y or inference_results_vX.Y, or a "
        "folder like it",
    )
    importing.add_argument("--round", required=True, help="the round, e.g. v5.1")
    importing.add_argument("--content", type=Path, default=Path("content"))
    importing.add_argument(
        "--earlier",
        type=Path,
        default=None,
        metavar="FOLDER",
        help="the earlier round the mapping compares this one with (rounds.vX.Y.earlier), as a "
        "folder like PATH: its run logs find results submitted again",
    )
    importing.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if content/ differs from what the import would write",
    )
    importing.set_defaults(run=imports.import_results)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cloudqual", description=__doc__)
    subparsers = parser.add_subparsers(dest="command", required=True)
    _check_command(subparsers)
    _new_command(subparsers)
    _schema_command(subparsers)
    _render_command(subparsers)
    _build_command(subparsers)
    _watch_command(subparsers)
    _diff_command(subparsers)
    _import_command(subparsers)
    args = parser.parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    raise SystemExit(main())
