"""Where `mkdocs.yml` and the Zensical config find the Markdown extension (`generator.extension`):
the extension itself lives with the other engines, in `generator/engines/mkdocs/extension.py`."""

from generator.engines.mkdocs.extension import CloudqualExtension, makeExtension

__all__ = ["CloudqualExtension", "makeExtension"]
