"""The MkDocs adapter: it only wires MkDocs events to the core.

The whole site is built in memory in `on_pre_build`, which MkDocs runs before it cleans `site/`,
so a content error stops the build while the last good site is still in place.
"""

from __future__ import annotations

import logging
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File

from . import assets
from .derive import Policy
from .problem import ContentError
from .render import Page, render
from .site import load_site
from .svg import SvgStore

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.livereload import LiveReloadServer
    from mkdocs.structure.files import Files

log = logging.getLogger(f"mkdocs.plugins.{__name__}")


class CloudqualConfig(Config):
    content_dir = c.Type(str, default="content")
    """Folder of YAML records, relative to mkdocs.yml."""
    templates_dir = c.Type(str, default="templates")
    """Folder of Jinja templates, relative to mkdocs.yml."""
    as_of = c.Optional(c.Type(str))
    """The date expiry and staleness are judged on, as YYYY-MM-DD; today when unset."""
    expiry_warning_days = c.Type(int, default=90)
    """Flag a result this many days before its validity ends."""
    review_max_age_days = c.Type(int, default=365)
    """Flag a record whose last review is older than this."""
    cache_dir = c.Type(str, default=".cache/cloudqual")
    """Folder for converted chart SVGs, keyed by spec hash, relative to mkdocs.yml."""


class CloudqualPlugin(BasePlugin[CloudqualConfig]):
    def __init__(self) -> None:
        self.pages: dict[str, Page] = {}
        self.data: dict[str, bytes] = {}
        self.assets: dict[str, bytes] = {}
        self.svg_store: SvgStore | None = None

    def _path(self, config: MkDocsConfig, folder: str) -> Path:
        return Path(config.config_file_path).parent / folder

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        config.extra_css.append(assets.STYLESHEET)
        return config

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        content_dir = self._path(config, self.config.content_dir)
        try:
            site = load_site(content_dir)
        except ContentError as error:
            raise PluginError(f"cloudqual: content has errors\n{error}") from None
        for warning in site.warnings:
            log.warning(str(warning))
        try:
            as_of = date.fromisoformat(self.config.as_of) if self.config.as_of else date.today()
        except ValueError:
            found = self.config.as_of
            raise PluginError(f"cloudqual: as_of: expected YYYY-MM-DD, found {found!r}") from None
        policy = Policy(as_of, self.config.expiry_warning_days, self.config.review_max_age_days)
        templates_dir = self._path(config, self.config.templates_dir)
        if self.svg_store is None:  # kept across `mkdocs serve` rebuilds
            self.svg_store = SvgStore(self._path(config, self.config.cache_dir))
        before = self.svg_store.conversions
        output = render(
            site,
            templates_dir,
            policy=policy,
            directory_urls=config.use_directory_urls,
            svg_store=self.svg_store,
        )
        log.info(f"cloudqual: charts: {self.svg_store.conversions - before} SVGs converted")
        self.pages, self.data = output.pages, output.data
        self.assets = assets.load(templates_dir)

    def on_files(self, files: Files, *, config: MkDocsConfig) -> Files:
        docs_prefix = Path(config.docs_dir).relative_to(Path(config.config_file_path).parent)
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

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        # Data files are written as they are, after MkDocs: a Markdown download must not become
        # a page, and none of them needs MkDocs' processing.
        site_dir = Path(config.site_dir)
        for uri, content in self.data.items():
            target = site_dir / uri
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)

    def on_serve(
        self, server: LiveReloadServer, /, *, config: MkDocsConfig, builder: object
    ) -> LiveReloadServer:
        server.watch(str(self._path(config, self.config.content_dir)))
        server.watch(str(self._path(config, self.config.templates_dir)))
        return server
