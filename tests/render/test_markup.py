"""Contributor Markdown is rendered, then sanitized; headings are escaped."""

from __future__ import annotations

import pytest

from generator.render import markup


@pytest.mark.parametrize(
    ("text", "forbidden"),
    [
        ("<script>alert(1)</script>", "<script"),
        ("[x](javascript:alert(1))", "javascript:"),
        ('<img src="x" onerror="alert(1)">', "onerror"),
        ('<a href="https://a.test" onclick="x()">a</a>', "onclick"),
        ("<iframe src='https://a.test'></iframe>", "<iframe"),
        ("<style>body{}</style>", "<style"),
        ("[x](data:text/html;base64,PHNjcmlwdD4=)", "data:"),
    ],
)
def test_dangerous_markup_is_removed(text: str, forbidden: str) -> None:
    assert forbidden not in markup.block(text)
    assert forbidden not in markup.inline(text)


def test_safe_markdown_survives() -> None:
    html = markup.block("**bold** and [a link](https://a.test/x) and `code`\n\n- one\n- two")
    assert "<strong>bold</strong>" in html
    assert '<a href="https://a.test/x" rel="noopener noreferrer">a link</a>' in html
    assert "<code>code</code>" in html
    assert "<li>one</li>" in html


def test_relative_and_mailto_links_are_kept() -> None:
    assert 'href="../methodology/"' in markup.inline("[m](../methodology/)")
    assert 'href="mailto:a@b.test"' in markup.inline("[m](mailto:a@b.test)")


def test_template_syntax_is_text() -> None:
    assert markup.inline("{{ 7 * 7 }} {% if x %}") == "{{ 7 * 7 }} {% if x %}"


def test_inline_drops_single_paragraph_only() -> None:
    assert markup.inline("one *two*") == "one <em>two</em>"
    assert markup.inline("a\n\nb").count("<p>") == 2


def test_heading_escapes_markdown_and_html() -> None:
    escaped = markup.heading("A <b>x</b> {#id} *y* [z](u) #1")
    assert "<b>" not in escaped
    assert r"\{\#id\}" in escaped
    assert r"\*y\*" in escaped
    assert r"\[z\]\(u\)" in escaped
