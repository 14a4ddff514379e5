"""The plugin's options in mkdocs.yml, as MkDocs validates them."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs.config import config_options as c
from mkdocs.config.base import BaseConfigOption, Config, ValidationError
from mkdocs.exceptions import PluginError

from generator.build.memo import default_cache_dir
from generator.build.pipeline import Inputs
from generator.engines.runner import CACHE_DOING, check_apart
from generator.model.policy import (
    AS_OF_VARIABLE,
    EXPIRY_WARNING_DAYS,
    REVIEW_MAX_AGE_DAYS,
    Policy,
    parse_as_of,
)
from generator.render.output import Refused

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig


class AsOf(BaseConfigOption[date | None]):
    def run_validation(self, value: object) -> date | None:
        try:
            return parse_as_of(value)
        except ValueError as error:
            raise ValidationError(str(error)) from None


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


def project_path(config: MkDocsConfig, folder: str) -> Path:
    """A folder the options name, relative to mkdocs.yml."""
    return Path(config.config_file_path).parent / folder


def folders(options: CloudqualConfig, config: MkDocsConfig) -> tuple[Path, Path]:
    """The content and templates folders."""
    return project_path(config, options.content_dir), project_path(config, options.templates_dir)


def inputs(options: CloudqualConfig, config: MkDocsConfig) -> Inputs:
    """What the build is made from, as the options and MkDocs' own config say."""
    try:
        as_of = options.as_of or parse_as_of(os.environ.get(AS_OF_VARIABLE)) or date.today()
    except ValueError as error:
        raise PluginError(f"cloudqual: {AS_OF_VARIABLE}: {error}") from None
    return Inputs(
        project_path(config, options.content_dir),
        project_path(config, options.templates_dir),
        Policy(as_of, options.expiry_warning_days, options.review_max_age_days),
        directory_urls=config.use_directory_urls,
        site_url=config.site_url,
        history=True,
    )


def cache_dir(options: CloudqualConfig, config: MkDocsConfig) -> Path:
    """The cache folder: `cache_dir`, else the project's (CLOUDQUAL_CACHE_DIR, else the user's).
    One among the content, the templates or the project's folder is refused, as `cloudqual
    build` refuses it (runner.check_apart)."""
    if options.cache_dir is not None:
        folder = project_path(config, options.cache_dir)
    else:
        folder = default_cache_dir(Path(config.config_file_path).resolve().parent)
    config_file = Path(config.config_file_path)
    try:
        check_apart(folder, CACHE_DOING, config_file=config_file, inputs=folders(options, config))
    except Refused as error:
        raise PluginError(f"cloudqual: {error}") from None
    return folder
