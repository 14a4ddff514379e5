"""The MkDocs adapter: it only wires MkDocs events to the core. The site is built in memory in
`on_pre_build` (engines/session.py), before MkDocs writes anything, so a content error stops the
build at once; MkDocs can still fail later, so it writes beside `site/` (site_folder.py)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority

from generator.checks import pages
from generator.engines import assets, csp
from generator.engines.mkdocs import extension, options
from generator.engines.mkdocs.generated_files import add_generated, written_by_mkdocs
from generator.engines.mkdocs.options import CloudqualConfig
from generator.engines.mkdocs.site_folder import SiteFolder
from generator.engines.session import Session
from generator.pipeline.run import Inputs
from generator.problems import ContentError
from generator.render.output import Refused

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.livereload import LiveReloadServer
    from mkdocs.structure.files import Files
    from mkdocs.structure.nav import Navigation
    from mkdocs.structure.pages import Page as MkDocsPage

log = logging.getLogger(f"mkdocs.plugins.{__name__}")


class CloudqualPlugin(BasePlugin[CloudqualConfig]):
    def __init__(self) -> None:
        self.session: Session | None = None  # kept across `mkdocs serve` rebuilds
        self.serving = self.dirty = False
        self.folder: SiteFolder | None = None
        # The build's inputs, read once a build in on_pre_build: the later events use them.
        self.inputs: Inputs | None = None

    # Defining it makes MkDocs keep this instance, and its session, across `mkdocs serve` rebuilds.
    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        self.serving, self.dirty = command == "serve", dirty

    @event_priority(100)  # first, so the count sees every plugin's warnings
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        extension.plugin_started()  # before any page: the extension stops every other tool
        config.extra_css.append(assets.STYLESHEET)
        config.extra_javascript.append(assets.SCRIPT)
        try:  # a refused folder leaves the last build's, finished, for on_build_error
            self.folder = SiteFolder(Path(config.site_dir), dirty=self.dirty)
        except Refused as error:
            raise PluginError(f"cloudqual: {error}") from None
        config.site_dir = str(self.folder.written)
        return config

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        found = options.settings_of(self.config, config)
        self.inputs = found.inputs
        if self.session is None:
            self.session = Session(found.cache_dir, serving=self.serving, say=log.info)
        try:
            warnings = self.session.build(found.inputs)
        except (ContentError, Refused) as error:  # refused: a cache folder it did not write
            why = "content has errors\n" if isinstance(error, ContentError) else ""
            raise PluginError(f"cloudqual: {why}{error}") from None
        for warning in warnings:
            log.warning(warning)

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        assert self.session is not None and self.inputs is not None
        templates = self.inputs.options.templates_dir
        return add_generated(files, config, self.session.pages, assets.load(templates))

    @event_priority(-100)  # last: every plugin has added its files, and MkDocs knows them all
    def on_nav(self, nav: Navigation, /, *, config: MkDocsConfig, files: Files) -> Navigation:
        assert self.session is not None and self.folder is not None
        if not self.dirty:  # a dirty build writes the live site: its end is made at its end
            self.session.begin(self.folder.written, written_by_mkdocs(files, config))
        return nav

    def on_page_markdown(self, markdown: str, /, *, page: MkDocsPage, **_: object) -> str:
        # The theme writes front matter unescaped: a generated page's is the template's own.
        if page.file.generated_by is None:
            page.meta = {}
        return markdown

    def on_page_content(self, html_text: str, /, *, page: MkDocsPage, **_: object) -> str:
        if page.file.generated_by is None:  # hand-written, so held to the allowlist
            html_text = pages.sanitize(html_text)
        return (self.session.banner() if self.session else "") + html_text

    def on_post_page(self, output: str, /, *, page: MkDocsPage, config: MkDocsConfig) -> str:
        return csp.protect(output)

    def on_post_template(self, output_content: str, /, *, template_name: str, **_: object) -> str:
        return csp.protect(output_content) if template_name.endswith(".html") else output_content

    @event_priority(-100)  # last, so every other plugin has written its files
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        assert self.session is not None and self.folder is not None and self.inputs is not None
        # Made while MkDocs wrote.
        self.session.finish(self.inputs.content_dir, self.inputs.options.templates_dir)
        try:
            self.folder.finish(self.session.data, strict=config.strict)
        except Refused as error:
            raise PluginError(f"cloudqual: {error}") from None
        config.site_dir = str(self.folder.site_dir)

    def on_build_error(self, *, error: Exception) -> None:
        for stage in (self.session, self.folder):  # what each left running or half written
            if stage is not None:
                stage.discard()

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: object
    ) -> LiveReloadServer:
        inputs = self.inputs or options.settings_of(self.config, config).inputs
        for folder in (inputs.content_dir, inputs.options.templates_dir):
            server.watch(str(folder))
        return server
