"""The MkDocs adapter: it only wires MkDocs events to the core.

The whole site is built in memory in `on_pre_build`, before MkDocs writes anything, so a content
error stops the build at once. MkDocs itself can still fail later (a page that hides a generated
one, a broken link, any warning under `strict`), after it has cleaned its output folder; so the
build goes to a folder beside `site/`, which replaces `site/` only once the build has succeeded.
A failed build leaves the previous site as it was.

The site folder must be one a build wrote, or absent or empty (output.check_site): MkDocs would
empty any folder it is given, a home folder included. A rebuild keeps what MkDocs keeps of the old
site (its dot files, a deployment's `.git`), and CNAME.
"""

from __future__ import annotations

import contextlib
import html
import logging
import os
import shutil
import sys
import threading
import time
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from mkdocs.config import config_options as c
from mkdocs.config.base import BaseConfigOption, Config, ValidationError
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File

from generator.checks import pages
from generator.engines import assets, csp
from generator.engines.memo import Memo, Remembered, default_cache_dir, fingerprint
from generator.engines.mkdocs import extension
from generator.model.policy import (
    AS_OF_VARIABLE,
    EXPIRY_WARNING_DAYS,
    REVIEW_MAX_AGE_DAYS,
    Policy,
    parse_as_of,
)
from generator.problems import ContentError, Problem
from generator.render import output
from generator.render.output import Output, Page
from generator.render.svg import SvgStore

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.livereload import LiveReloadServer
    from mkdocs.structure.files import Files
    from mkdocs.structure.pages import Page as MkDocsPage

    from generator.checks.loader import Read

log = logging.getLogger(f"mkdocs.plugins.{__name__}")


class AsOf(BaseConfigOption[date | None]):
    def run_validation(self, value: object) -> date | None:
        try:
            return parse_as_of(value)
        except ValueError as error:
            raise ValidationError(str(error)) from None


class _Warnings(logging.Handler):
    """Counts what MkDocs' strict mode counts: every warning or error its loggers write."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


class CloudqualConfig(Config):
    content_dir = c.Type(str, default="content")
    """Folder of YAML records, relative to mkdocs.yml."""
    templates_dir = c.Type(str, default="templates")
    """Folder of Jinja templates, relative to mkdocs.yml."""
    as_of = AsOf()
    """The date expiry and staleness are judged on, as YYYY-MM-DD. When unset, the environment's
    CLOUDQUAL_AS_OF, read here as text: mkdocs.yml's `!ENV` would parse it as YAML, and a bad
    date there ends in the YAML library's traceback. Today when neither is set."""
    expiry_warning_days = c.Type(int, default=EXPIRY_WARNING_DAYS)
    """Flag a result this many days before its validity ends."""
    review_max_age_days = c.Type(int, default=REVIEW_MAX_AGE_DAYS)
    """Flag a record whose last review is older than this."""
    cache_dir = c.Optional(c.Type(str))
    """Folder for converted chart SVGs and the last build, relative to mkdocs.yml. Unset, a
    folder of the user's cache (`~/.cache/cloudqual/...`): outside the project, where a pull
    request cannot place a file."""


class CloudqualPlugin(BasePlugin[CloudqualConfig]):
    def __init__(self) -> None:
        self.pages: dict[str, Page] = {}
        self.data: dict[str, bytes] = {}
        self.assets: dict[str, bytes] = {}
        self.svg_store: SvgStore | None = None
        self.memo: Memo | None = None
        # The key of the build on show, so an unchanged rebuild under serve reads nothing.
        self.built: str | None = None
        self.serving = False
        self.dirty = False
        # While serving: the problems that keep the last good site on show, or none.
        self.stale: list[Problem] = []
        self.warned: list[str] = []
        self.core_seconds = 0.0  # how long the last build's core took: load, derive, render
        # Kept across `mkdocs serve` rebuilds, so an edit reads again only the files it changed
        # and renders again only the pages that depend on them.
        self.known: dict[tuple[str, str, str, bytes], Read] = {}
        self.signed: dict[str, tuple[str, Page]] = {}
        self.warming: threading.Thread | None = None
        self.saving: threading.Thread | None = None  # the remembered build, being written
        self.site_dir: Path | None = None
        self.building: Path | None = None
        self.warnings = _Warnings()

    def _path(self, config: MkDocsConfig, folder: str) -> Path:
        return Path(config.config_file_path).parent / folder

    # Defining on_startup also makes MkDocs keep this one instance across `mkdocs serve`
    # rebuilds, so the last good output and the chart cache survive them.
    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        self.serving = command == "serve"
        self.dirty = dirty

    @event_priority(100)  # first, so the count sees every plugin's warnings
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        # Before any page is converted: the Markdown extension stops every tool but this one.
        extension.plugin_started()
        config.extra_css.append(assets.STYLESHEET)
        config.extra_javascript.append(assets.SCRIPT)
        self.warnings.count = 0
        logging.getLogger("mkdocs").addHandler(self.warnings)
        self.site_dir = Path(config.site_dir)
        self.building = None  # until it is made, so a refused build removes nothing
        try:
            # A dirty build updates the folder in place by design, so it is left to MkDocs,
            # once the folder is known to be a build's.
            if self.dirty:
                output.check_site(self.site_dir)
            else:
                self.building = output.fresh_staging(self.site_dir)
                config.site_dir = str(self.building)
        except output.Refused as error:
            raise PluginError(f"cloudqual: {error}") from None
        return config

    def _cache_dir(self, config: MkDocsConfig) -> Path:
        if self.config.cache_dir is not None:
            return self._path(config, self.config.cache_dir)
        return default_cache_dir(Path(config.config_file_path).resolve().parent)

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        started = time.perf_counter()
        content_dir = self._path(config, self.config.content_dir)
        templates_dir = self._path(config, self.config.templates_dir)
        try:
            as_of = self.config.as_of or parse_as_of(os.environ.get(AS_OF_VARIABLE)) or date.today()
        except ValueError as error:
            raise PluginError(f"cloudqual: {AS_OF_VARIABLE}: {error}") from None
        options = {
            "as_of": as_of.isoformat(),
            "expiry_warning_days": self.config.expiry_warning_days,
            "review_max_age_days": self.config.review_max_age_days,
            "directory_urls": config.use_directory_urls,
            "site_url": config.site_url,
        }
        if self.memo is None:
            self.memo = Memo(self._cache_dir(config))
        key = fingerprint(content_dir, templates_dir, options)
        remembered: Remembered | None
        if key is not None and key == self.built and not self.stale:
            remembered = Remembered(Output(self.pages, self.data, self.signed), self.warned)
        else:
            if self.saving is not None:
                self.saving.join()
            remembered = self.memo.get(key) if key is not None else None
            if remembered is not None:
                log.info("cloudqual: no input changed since the last build: its pages are reused")
            else:
                if self.memo.refused is not None:  # a notice: strict mode fails on a warning
                    log.info(
                        f"cloudqual: the remembered build was not used: {self.memo.refused}; "
                        "the site is built in full"
                    )
                remembered = self._render(config, content_dir, templates_dir, as_of)
                if remembered is None:  # content errors while serving: the last good site stays
                    return
                if key is not None:
                    self._remember(key, remembered)
        self.stale = []
        for warning in remembered.warnings:
            log.warning(warning)
        self.pages, self.data = remembered.output.pages, remembered.output.data
        self.signed = remembered.output.signed
        self.warned, self.built = remembered.warnings, key
        self.assets = assets.load(templates_dir)
        self.core_seconds = time.perf_counter() - started
        log.info(f"cloudqual: the core took {self.core_seconds:.2f} s")

    def _remember(self, key: str, remembered: Remembered) -> None:
        """Stores the build for the next one. Under `mkdocs serve` it is written in the
        background, off the rebuild the contributor waits for; a build that ends after it
        writes it before ending."""
        assert self.memo is not None
        if self.saving is not None:
            self.saving.join()
        args = (key, remembered.output, remembered.warnings)
        if not self.serving:
            self.memo.put(*args)
            return
        self.saving = threading.Thread(target=self.memo.put, args=args, daemon=True)
        self.saving.start()

    def _render(
        self, config: MkDocsConfig, content_dir: Path, templates_dir: Path, as_of: date
    ) -> Remembered | None:
        if self.warming is not None:  # it fills `known`: let it finish before reading it
            self.warming.join()
        # Imported here: a build that reuses the last one needs none of the rendering code.
        from generator.checks.loader import load_site
        from generator.render.renderer import render

        try:
            site = load_site(content_dir, known=self.known)
        except ContentError as error:
            if self.serving and self.pages:
                # A failed rebuild would leave every request waiting for a good one; keep
                # serving the last good site instead, with the problems shown on each page.
                # Written past MkDocs' log, whose strict mode would fail this build too.
                print(f"cloudqual: content has errors; serving the last good site\n{error}",
                      file=sys.stderr)  # fmt: skip
                self.stale = error.problems
                return None
            raise PluginError(f"cloudqual: content has errors\n{error}") from None
        policy = Policy(as_of, self.config.expiry_warning_days, self.config.review_max_age_days)
        if self.svg_store is None:  # kept across `mkdocs serve` rebuilds
            self.svg_store = SvgStore(self._cache_dir(config))
        before = self.svg_store.conversions
        try:
            rendered = render(
                site,
                templates_dir,
                policy=policy,
                directory_urls=config.use_directory_urls,
                svg_store=self.svg_store,
                site_url=config.site_url,
                previous=self.signed,
            )
        except output.Refused as error:  # the chart cache, in a folder it did not write
            raise PluginError(f"cloudqual: {error}") from None
        log.info(f"cloudqual: charts: {self.svg_store.conversions - before} SVGs converted")
        again = sum(1 for uri, page in rendered.pages.items() if self.pages.get(uri) is not page)
        log.info(f"cloudqual: {again} of {len(rendered.pages)} pages rendered")
        return Remembered(rendered, [str(warning) for warning in site.warnings])

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        # Both resolved: `mkdocs build -f mkdocs.yml` gives a relative config path.
        root = Path(config.config_file_path).resolve().parent
        docs_prefix = Path(config.docs_dir).resolve().relative_to(root)
        for file in files:
            # Hand-written pages: edit links name their repository path, as generated ones do.
            file.edit_uri = (docs_prefix / file.src_uri).as_posix()
        for uri, page in self.pages.items():
            if files.get_file_from_path(uri) is not None:
                raise PluginError(f"cloudqual: {docs_prefix / uri} would hide a generated page")
            generated = File.generated(config, uri, content=page.markdown)
            generated.edit_uri = page.edit_path
            files.append(generated)
        for uri, content in self.assets.items():
            files.append(File.generated(config, uri, content=content))
        return files

    def on_page_markdown(
        self, markdown: str, /, *, page: MkDocsPage, config: MkDocsConfig, files: Files
    ) -> str:
        # The theme writes front matter (title, description, template) into the page unescaped;
        # check refuses it in hand-written pages. A generated page's front matter is the
        # template's own text (which pages search leaves out), never a record's.
        if page.file.generated_by is None:
            page.meta = {}
        return markdown

    def on_page_content(
        self, html_text: str, /, *, page: MkDocsPage, config: MkDocsConfig, files: Files
    ) -> str:
        if page.file.generated_by is None:  # hand-written, so held to the allowlist
            html_text = pages.sanitize(html_text)
        if self.stale:
            problems = "".join(f"<li><code>{html.escape(str(p))}</code></li>" for p in self.stale)
            banner = (
                '<div class="admonition failure"><p class="admonition-title">Content has '
                "errors: this is the last good site</p><ul>" + problems + "</ul></div>"
            )
            html_text = banner + html_text
        return html_text

    def on_post_page(self, output: str, /, *, page: MkDocsPage, config: MkDocsConfig) -> str:
        return csp.protect(output)

    def on_post_template(
        self, output_content: str, /, *, template_name: str, config: MkDocsConfig
    ) -> str:
        return csp.protect(output_content) if template_name.endswith(".html") else output_content

    def _warm(self, content_dir: Path, templates_dir: Path) -> None:
        """What the first rebuild of `mkdocs serve` would otherwise pay for, done while the
        contributor reads the first build: the rendering code imported, every file read, the
        templates compiled, the API's schemas made."""
        from generator.checks.loader import load_site
        from generator.publish import api
        from generator.render import renderer as render

        with contextlib.suppress(ContentError):  # the rebuild reports it
            load_site(content_dir, known=self.known)
        environment = render.environment(templates_dir)
        for name in environment.list_templates(extensions=["j2"]):
            environment.get_template(name)
        api.schema_files()

    @event_priority(-100)  # last, so every other plugin has written its files
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if self.serving and self.warming is None and not self.known:
            self.warming = threading.Thread(
                target=self._warm,
                args=(
                    self._path(config, self.config.content_dir),
                    self._path(config, self.config.templates_dir),
                ),
                daemon=True,
            )
            self.warming.start()
        # Data files are written as they are, after MkDocs: a Markdown download must not become
        # a page, and none of them needs MkDocs' processing.
        site_dir = Path(config.site_dir)
        for uri, content in self.data.items():
            target = site_dir / uri
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        logging.getLogger("mkdocs").removeHandler(self.warnings)
        if self.building is None or self.site_dir is None:
            output.SITE.put(site_dir)  # a dirty build's folder: the next build may replace it
            return
        if config.strict and self.warnings.count:
            # MkDocs is about to abort this build: keep the previous site.
            self._discard()
            return
        try:
            output.replace_site(self.site_dir, self.building)
        except output.Refused as error:  # changed while the site was built
            self._discard()
            raise PluginError(f"cloudqual: {error}") from None
        config.site_dir = str(self.site_dir)
        self.building = None

    def on_build_error(self, *, error: Exception) -> None:
        logging.getLogger("mkdocs").removeHandler(self.warnings)
        self._discard()

    def _discard(self) -> None:
        if self.building is not None:
            shutil.rmtree(self.building, ignore_errors=True)
            self.building = None

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: object
    ) -> LiveReloadServer:
        server.watch(str(self._path(config, self.config.content_dir)))
        server.watch(str(self._path(config, self.config.templates_dir)))
        return server
