"""`cloudqual build`: the whole site into site/, with MkDocs (the default) or with Zensical.

MkDocs builds it as it always has: `mkdocs build --strict`, the plugin doing the cloudqual work.

Zensical, Material for MkDocs' successor, runs no MkDocs plugin, so the core does around it what
the plugin does inside MkDocs:

1. render every page and data file into a work folder (project.write), each page's links written
   from its Markdown file, the way Zensical resolves them (links.source_link);
2. run `zensical build --strict` on that folder, in a process of its own;
3. finish the site as the plugin's hooks do: copy in the Markdown downloads, which Zensical would
   make pages of, and give their links back the form Zensical would have rewritten
   (links.FILE_SCHEME); give every page the content security policy (csp.py);
4. put it in place of site/, keeping what MkDocs keeps of the old one (output.replace_site).

The work folder is in the project's cache folder (memo.default_cache_dir, or the plugin's
`cache_dir`), outside the project: a pull request cannot place a file in it, nor in the cache
Zensical keeps beside its config. Files are written there only where their bytes changed, so that
cache serves the next build; it is dropped when the code changes (`_keep_cache`). Both the work
folder and the site folder must be a build's own, or absent or empty (project.WORK, output.SITE):
a `cache_dir` or `--site-dir` that names someone's folder is refused, never emptied.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from generator.checks.loader import hand_written_pages
from generator.engines import assets, csp, project
from generator.engines.mkdocs import extension
from generator.model.links import FILE_SCHEME
from generator.pipeline import settings
from generator.pipeline.memo import Memo, code_version
from generator.pipeline.run import Caches, Inputs, build
from generator.pipeline.settings import Settings, check_apart
from generator.problems import ContentError
from generator.render import output
from generator.render.output import Output
from generator.render.svg import SvgStore

WORK_FOLDER = "zensical"
# Templates laid over Zensical's theme alone, after the repository's custom_dir, from this folder
# of the templates.
OVERLAY = "zensical"
EDIT_KEY = "cloudqual_edit"
ZENSICAL_CACHE = ".cache"  # where Zensical keeps its cache, beside its config
CODE_STAMP = ".cloudqual-code"  # the code version Zensical's cache was made under
MEMO_FOLDER = ".cloudqual-memo"  # the last render, reused while no input changes
# What the build writes before a hand-written page's first line: its front matter (three lines)
# and the extension's mark.
HAND_WRITTEN_LINES = 4


class BuildError(Exception):
    """A build that cannot go on: the message says why, and what to do."""


def plugin_options(config_file: Path, config: dict[str, Any]) -> Settings:
    """The build's settings from the cloudqual plugin's options in mkdocs.yml, read as the
    plugin reads them (pipeline/settings.py), for Zensical: links from one Markdown file to
    another, as it resolves them. A cache folder among the inputs is refused (output.Refused),
    as the plugin refuses it."""
    options = settings.plugin_entry(config)
    if options is None:
        raise BuildError(f"{config_file}: lists no cloudqual plugin, so it builds no site")
    try:
        return settings.read(
            config_file, options, directory_urls=True, source_links=True, engine=project.ZENSICAL
        )
    except settings.SettingsError as error:
        raise BuildError(f"cloudqual: {error}") from None


def _edited_from(markdown: str, edit_path: str | None) -> str:
    """A page with the file it was built from in its front matter, where the edit button of
    Zensical's theme override reads it (templates/zensical/partials/actions.html)."""
    if edit_path is None:
        return markdown
    # JSON's string is YAML's too: the path is written as a quoted scalar, whatever it holds.
    setting = f"{EDIT_KEY}: {json.dumps(edit_path)}\n"
    if markdown.startswith("---\n"):
        return "---\n" + setting + markdown.removeprefix("---\n")
    return "---\n" + setting + "---\n" + markdown


def _hand_written(path: Path, edit_path: str) -> bytes:
    """A hand-written page as Zensical is given it: the file it is edited in, then the line that
    has the project's Markdown extension sanitize it, then the page. `check` refuses front matter
    in the page itself, so this is the page's only front matter."""
    marked = extension.UNTRUSTED + "\n" + path.read_text(encoding="utf-8")
    return _edited_from(marked, edit_path).encode("utf-8")


# Only inside a link's tag: in text, even in a code block, a "<" is escaped, so no text matches.
_FILE_LINK = re.compile(r'(<a\s[^<>]*?href=")' + re.escape(FILE_SCHEME) + r'([^"<>]*)"')


def finish(site: Path, files: Path) -> int:
    """Do to Zensical's `site` what the plugin's hooks do to MkDocs': copy in `files`, take the
    made-up scheme off the links to the Markdown downloads among them, and protect every page.
    Returns the number of pages protected."""
    if files.is_dir():
        shutil.copytree(files, site, dirs_exist_ok=True)
    pages = 0
    for page in sorted(site.rglob("*.html")):
        text = _FILE_LINK.sub(r'\1\2.md"', page.read_text(encoding="utf-8"))
        page.write_text(csp.protect(text), encoding="utf-8")
        pages += 1
    return pages


def _check_site_dir(site_dir: Path, config_file: Path, inputs: Inputs) -> None:
    """Refuse a site folder whose emptying would lose work (`check_apart`), then one that no
    build wrote, or a link (output.check_site)."""
    if not site_dir.is_symlink():  # which output.check_site names as such
        folders = (inputs.content_dir, inputs.options.templates_dir)
        check_apart(site_dir, "write the site into", config_file=config_file, inputs=folders)
    output.check_site(site_dir)


def _replace(site_dir: Path, built: Path) -> None:
    """Put the `built` site in place of `site_dir`, as output.replace_site does: what MkDocs
    keeps of the old site stays."""
    staging = output.staging(site_dir)
    output.remove_own(staging)  # left by a build stopped midway
    output.SITE.put(built)  # before the move, so the staged site is never without it
    # Moved, not copied, where both are on one file system: Zensical writes its whole site again
    # on every build, its cache or not, so nothing needs it left in the work folder.
    shutil.move(built, staging)
    output.replace_site(site_dir, staging)


def _keep_cache(work: Path) -> None:
    """Zensical's cache, kept beside the config, stays only while the code is the same. It keeps
    each page's HTML by the page's text, and knows nothing of the Markdown extension that
    sanitizes it (extension.py, pages.py, nh3): a fix there would not reach an unchanged page."""
    stamp = work / CODE_STAMP
    version = code_version()
    try:
        if stamp.read_text(encoding="utf-8") == version:
            return
    except OSError:
        pass
    shutil.rmtree(work / ZENSICAL_CACHE, ignore_errors=True)
    stamp.write_text(version, encoding="utf-8")


def _rendered(found: Settings, memo_folder: Path) -> tuple[Output, bool]:
    """Every page and data file, linked for Zensical: the last build's, as the plugin reuses
    its own (pipeline/memo.py), when no content, template, code or option has changed since. Says
    whether it was."""
    inputs, key = found.inputs, found.inputs.key
    # The charts in the cache folder, as the plugin keeps them; the build in the work folder.
    caches = Caches(Memo(memo_folder), SvgStore(found.cache_dir))
    try:
        remembered, reused = build(
            inputs, caches, say=lambda notice: print(notice, file=sys.stderr)
        )
    except ContentError as error:
        raise BuildError(str(error)) from None
    if remembered.warnings:  # as `mkdocs build --strict` fails on the plugin's warnings
        shown = "\n".join(remembered.warnings)
        count = len(remembered.warnings)
        raise BuildError(f"{shown}\ncloudqual: aborted on {count} content warnings")
    if key is not None and not reused:  # only a build without warnings gets here
        caches.memo.put(key, remembered.output, [])
    return remembered.output, reused


def build_zensical(config_file: Path, site_dir: Path) -> str:
    """Build the site with Zensical into `site_dir`. Returns what was built, in words."""
    config = project.read_config(config_file)
    found = plugin_options(config_file, config)
    built = found.inputs
    _check_site_dir(site_dir, config_file, built)
    root = config_file.parent
    work = found.cache_dir / WORK_FOLDER
    inputs = (built.content_dir, built.options.templates_dir)
    # Claimed before anything is written there: the memo, Zensical's cache, its code stamp.
    project.claim_out(work, project.WORK, project=root, inputs=inputs)
    rendered, reused = _rendered(found, work / MEMO_FOLDER)
    pages = {
        page.uri: _edited_from(page.markdown, page.edit_path).encode("utf-8")
        for page in rendered.pages.values()
    }
    # The hand-written pages the load checked, by the same walk: never a dot file, a folder or
    # a link out of the repository that a glob would find.
    hand_written = {
        path.name: _hand_written(path, path.relative_to(root).as_posix())
        for path in hand_written_pages(built.content_dir)
    }
    _keep_cache(work)
    project.write(
        work,
        pages=pages | assets.load(built.options.templates_dir),
        data=rendered.data,
        hand_written=hand_written,
        config_file=config_file,
        site_url=built.options.site_url,
        directory_urls=True,
        engine=project.ZENSICAL,
        overrides=project.read_folder(built.options.templates_dir / OVERLAY),
        marker=project.WORK,
        inputs=inputs,
    )
    command = [sys.executable, "-m", "zensical", "build", "--strict", "-f", "mkdocs.yml"]
    try:
        done = subprocess.run(command, cwd=work, check=False)
    except OSError as error:
        raise BuildError(f"cloudqual: could not run Zensical: {error}") from None
    if done.returncode != 0:
        raise BuildError(
            f"cloudqual: `zensical build` failed (exit status {done.returncode}). Its positions "
            f"are in the pages as rendered, in {work / project.DOCS}; a hand-written page there "
            f"has {HAND_WRITTEN_LINES} lines before its own first line."
        )
    protected = finish(work / "site", work / project.FILES)
    _replace(site_dir, work / "site")
    said = f"{protected} pages and {len(rendered.data)} data files, built with Zensical"
    return said + (" (no input changed since the last build: its pages reused)" if reused else "")


def site_dir(config_file: Path) -> Path:
    """Where mkdocs.yml puts the site: its `site_dir`, relative to it."""
    return config_file.parent / str(project.read_config(config_file).get("site_dir", "site"))


def build_mkdocs(config_file: Path, site_dir: Path | None) -> str:
    """`mkdocs build --strict`, into `site_dir` if given, else where mkdocs.yml says."""
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config_file)]
    if site_dir is not None:
        command += ["--site-dir", str(site_dir)]
    if subprocess.run(command, check=False).returncode != 0:
        raise BuildError("cloudqual: `mkdocs build` failed")
    return "the site, built with MkDocs"


def zensical_installed() -> bool:
    return importlib.util.find_spec("zensical") is not None
