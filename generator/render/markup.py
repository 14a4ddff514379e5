"""Contributor Markdown to safe HTML.

Content is untrusted: it is rendered by Python-Markdown, then cleaned by nh3 against a short
allowlist, so raw HTML, scripts, event handlers and `javascript:` links never reach a page.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache

import markdown
import nh3
from markupsafe import Markup

from generator.checks.budget import Budget
from generator.escape import visible

_TAGS = {"p", "a", "em", "strong", "code", "ul", "ol", "li", "blockquote", "br", "sup", "sub"}
_ATTRIBUTES = {"a": {"href", "title"}}
_SCHEMES = {"http", "https", "mailto"}
_RENDERER = markdown.Markdown(output_format="html")
# Characters Python-Markdown treats as syntax in a heading line; attr_list's braces included.
_MARKDOWN_SYNTAX = re.compile(r"([\\`*_{}\[\]()#+\-.!])")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


@lru_cache(maxsize=4096)
def _clean(text: str) -> str:
    # An invisible or direction-changing character is shown as its code point ([U+202E]):
    # rendered, it would hide, or turn the rest of the line around. That adds only a closed
    # bracket pair, which costs Markdown no more than its length.
    if Budget().spend(text) is None:
        rendered = _RENDERER.reset().convert(visible(text))
    else:
        rendered = _plain(visible(text))
    return nh3.clean(
        rendered,
        tags=_TAGS,
        attributes=_ATTRIBUTES,
        url_schemes=_SCHEMES,
        link_rel="noopener noreferrer",
    )


def _plain(text: str) -> str:
    """Text as escaped paragraphs, in time linear in its length.

    The loader holds every record text to the Markdown budget (`budget.py`), so this is for text
    made from records after loading: a checklist item with its slots filled (`wording.py`) can
    repeat a place or platform name of 4,000 characters hundreds of times, each of its brackets
    escaped, which would cost Markdown hours. Such text is shown as written, not rendered.
    """
    paragraphs = (part.strip() for part in _BLANK_LINE.split(text))
    return "\n".join(f"<p>{html.escape(part, quote=False)}</p>" for part in paragraphs if part)


def block(text: str) -> Markup:
    """Markdown rendered as sanitized block HTML (paragraphs, lists)."""
    return Markup(_clean(text))  # noqa: S704 - nh3 has just sanitized it


def inline(text: str) -> Markup:
    """Markdown rendered as sanitized inline HTML: a single paragraph loses its <p>."""
    cleaned = _clean(text)
    if cleaned.startswith("<p>") and cleaned.endswith("</p>") and cleaned.count("<p>") == 1:
        cleaned = cleaned[3:-4]
    return Markup(cleaned)  # noqa: S704 - nh3 has just sanitized it


def heading(text: str) -> Markup:
    """Plain text made safe for a Markdown heading line: HTML-escaped, then syntax-escaped."""
    escaped = html.escape(visible(" ".join(text.split())), quote=False)
    return Markup(_MARKDOWN_SYNTAX.sub(r"\\\1", escaped))  # noqa: S704 - escaped above
