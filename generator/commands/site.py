"""`cloudqual render` and `cloudqual build`: the site, through the one reader of its settings
(pipeline/settings.py) and the one pipeline."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from generator.checks.loader import hand_written_pages
from generator.engines import assets
from generator.problems import ContentError, quote
from generator.render.output import Refused, check_site

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
    from generator.engines import project
    from generator.pipeline import settings
    from generator.pipeline.run import Caches, build

    out: Path = args.out
    try:
        # The one reader of `mkdocs build` and `cloudqual build`: the plugin's options in
        # --config, the environment, then the flags given here.
        options = settings.plugin_entry(project.read_config(args.config)) or {}
        laid = options | {name: value for name, value in _flags(args).items() if value is not None}
        found = settings.read(
            args.config,
            laid,
            directory_urls=not args.file_urls,
            site_url=args.site_url,
            engine=RENDER_MEMO,
        )
        inputs = found.inputs
        folders = (inputs.content_dir, inputs.options.templates_dir)
        caches = Caches.at(found.cache_dir, memo=RENDER_MEMO)
        # Before any work: a folder the command may not write is refused at once, as it is;
        # the cache's folders are refused before anything is written to either.
        project.check_out(out, project.RENDER, project=args.config.parent, inputs=folders)
        caches.svg.check()
        # The same way in as `mkdocs build` and `cloudqual build`: this command's own last
        # render is reused while no input has changed.
        remembered, reused = build(inputs, caches, say=lambda said: print(said, file=sys.stderr))
        if inputs.key is not None and not reused:
            caches.memo.put(inputs.key, remembered.output, remembered.warnings)
        output = remembered.output
        pages = {page.uri: page.markdown.encode("utf-8") for page in output.pages.values()}
        hand_written = {
            path.name: path.read_bytes() for path in hand_written_pages(inputs.content_dir)
        }
        project.write(
            out,
            pages=pages | assets.load(inputs.options.templates_dir),
            data=output.data,
            hand_written=hand_written,
            config_file=args.config,
            site_url=inputs.options.site_url,
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
