"""A pull request's comment as GitHub shows it, for the tests of `cloudqual diff` and of the
workflow that posts it."""

from __future__ import annotations

import re


def github_html(text: str) -> str:
    """Markdown as GitHub renders a comment (cmark-gfm, its own fork of cmark), raw HTML let
    through so that any that got into the report would show."""
    import cmarkgfm
    from cmarkgfm.cmark import Options

    html: str = cmarkgfm.github_flavored_markdown_to_html(text, options=Options.CMARK_OPT_UNSAFE)
    return html


def outside_code(html: str) -> str:
    """The rendered text that is not in a code span, where GitHub links addresses, mentions
    (@name), references (#1, GH-1, owner/repo#1) and emoji."""
    return re.sub(r"<code>.*?</code>", "", html, flags=re.DOTALL)
