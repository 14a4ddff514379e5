"""The Python-Markdown extension mkdocs.yml lists: it stops a tool that runs no MkDocs plugin from
building a partial site, and under Zensical it sanitizes the hand-written pages.

Every tool that reads mkdocs.yml converts pages with the Markdown extensions it lists, whether it
runs plugins or not. Zensical runs none, and ignores those it does not know without a word: given
the repository's mkdocs.yml, it would build the two hand-written pages and nothing the plugin
generates. So the extension stops such a build at its first page, with a message that names the
command that builds the whole site. Under MkDocs, the cloudqual plugin marks itself started in
`on_config`, before any page is converted, and the extension then lets every page through.

The folder `cloudqual build --engine zensical` writes lists the extension with `engine: zensical`.
There it holds each page that begins with the line UNTRUSTED, which the build puts at the top of
every hand-written page, to the same allowlist as the plugin's `on_page_content` (pages.sanitize):
a hand-written page cannot remove a line written before its first one. Generated pages carry no
such line; their record text was escaped and sanitized when it was rendered.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from markdown import Extension, Markdown
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor

# How mkdocs.yml names this extension: Python-Markdown imports it by this module path.
NAME = "generator.extension"
UNTRUSTED = "<!-- cloudqual: a hand-written page, sanitized after conversion -->"
WRONG_TOOL = (
    "cloudqual: this mkdocs.yml builds the site through the cloudqual MkDocs plugin, which this "
    "tool does not run; it would build the hand-written pages alone.\n"
    "  With MkDocs:   mkdocs build\n"
    "  With Zensical: cloudqual build --engine zensical\n"
)

_plugin_started = False


def plugin_started() -> None:
    """Called by the plugin's on_config: MkDocs runs the plugin, so the site is whole."""
    global _plugin_started
    _plugin_started = True


class _Guard(Preprocessor):
    """Stops the tool at its first page unless the plugin has started. At the first page, not
    when the extension is loaded: MkDocs loads every extension to check its config, before it
    starts any plugin."""

    def run(self, lines: list[str]) -> list[str]:
        if not _plugin_started:
            # Not an exception: the tool would print it under a traceback of its own, or carry
            # on with the next page. The message is the whole answer, so the process ends here.
            sys.stdout.flush()
            sys.stderr.write(WRONG_TOOL)
            sys.stderr.flush()
            os._exit(2)
        return lines


class _Mark(Preprocessor):
    """Notes whether the page begins with UNTRUSTED, and takes that line away."""

    def run(self, lines: list[str]) -> list[str]:
        untrusted = bool(lines) and lines[0] == UNTRUSTED
        self.md.cloudqual_untrusted = untrusted
        return lines[1:] if untrusted else lines


class _Sanitize(Postprocessor):
    def run(self, text: str) -> str:
        if not getattr(self.md, "cloudqual_untrusted", False):
            return text
        from generator.checks import pages  # nh3 is needed only where a page is sanitized

        return pages.sanitize(text)


class CloudqualExtension(Extension):
    def __init__(self, **kwargs: Any) -> None:
        self.config = {"engine": ["", "the engine of a rendered folder: 'zensical', or none"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:
        if self.getConfig("engine") == "zensical":
            # First of the preprocessors, last of the postprocessors: the mark is read before
            # any other extension sees the text, and the page is cleaned after the raw HTML
            # that Markdown set aside has been put back.
            md.preprocessors.register(_Mark(md), "cloudqual-mark", 1000)
            md.postprocessors.register(_Sanitize(md), "cloudqual-sanitize", 0)
            return
        md.preprocessors.register(_Guard(md), "cloudqual-guard", 1000)


def makeExtension(**kwargs: Any) -> CloudqualExtension:
    return CloudqualExtension(**kwargs)
