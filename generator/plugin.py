"""Where `pyproject.toml`'s `mkdocs.plugins` entry point finds the plugin: the plugin itself lives
with the other engines, in `generator/engines/mkdocs/plugin.py`."""

from generator.engines.mkdocs.options import CloudqualConfig
from generator.engines.mkdocs.plugin import CloudqualPlugin

__all__ = ["CloudqualConfig", "CloudqualPlugin"]
