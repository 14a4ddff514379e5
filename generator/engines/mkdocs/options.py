"""The plugin's options in mkdocs.yml, as MkDocs validates them: one MkDocs option for each of
the one reader's (pipeline/settings.py), checked by its rule, and read by it into a build's
settings."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs.config.base import BaseConfigOption, Config, ValidationError
from mkdocs.exceptions import PluginError

from generator.pipeline import settings
from generator.render.output import Refused

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig


class Checked(BaseConfigOption[object]):
    """One of the reader's options, held to its rule: unset stays None, and the reader gives
    the default, so mkdocs.yml, `cloudqual build` and `cloudqual render` agree on it."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.default = None

    def run_validation(self, value: object) -> object:
        why = settings.value_error(self.name, value)
        if why is not None:
            raise ValidationError(why)
        return value


class CloudqualConfig(Config):
    # MkDocs reads a config's options from `_schema` before its attributes: the reader's list
    # is the only one an option is added to.
    _schema = tuple((name, Checked(name)) for name in settings.OPTIONS)


def settings_of(options: CloudqualConfig, config: MkDocsConfig) -> settings.Settings:
    """The build's settings, as the one reader makes them from the options and MkDocs' own
    config (its address, its links)."""
    try:
        return settings.read(
            Path(config.config_file_path),
            dict(options),
            directory_urls=config.use_directory_urls,
            site_url=config.site_url,
        )
    except (settings.SettingsError, Refused) as error:
        raise PluginError(f"cloudqual: {error}") from None
