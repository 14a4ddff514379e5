"""The page templates only show what derive decided: Jinja's own parser reads each one, and a
comparison, arithmetic or a filter that computes (counting, selecting, sorting, zipping) is
refused. What stays: presence tests (`if x`, `is none`, `and`, `or`, `not`), loops over lists
derive prepared, calls of the macros and of the formatting helpers, and the filters that only
format a value for the page (`DISPLAY`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from jinja2 import Environment, nodes

from generator.render.environment import environment

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
PAGE_TEMPLATES = sorted(TEMPLATES.glob("*.j2"))

# Filters that turn one value into its words or markup, and decide nothing.
DISPLAY = {
    "md", "md_inline", "heading", "number", "slug", "listed", "spelled", "lowered", "join",
    "glossed",
}  # fmt: skip


def computing(source: str, env: Environment) -> list[str]:
    """Every node of `source` that computes, as "line: what"."""
    found = []
    for node in env.parse(source).find_all(
        (nodes.Compare, nodes.BinExpr, nodes.UnaryExpr, nodes.Filter)
    ):
        if isinstance(node, (nodes.And, nodes.Or, nodes.Not)):
            continue
        if isinstance(node, nodes.Filter):
            if node.name in DISPLAY:
                continue
            what = f"filter {node.name}"
        else:
            what = type(node).__name__
        found.append(f"{node.lineno}: {what}")
    return found


def test_the_page_templates_are_all_read() -> None:
    # Guards the glob: a moved folder would leave the next test with nothing to refuse.
    assert len(PAGE_TEMPLATES) >= 20


@pytest.mark.parametrize("template", PAGE_TEMPLATES, ids=lambda p: p.name)
def test_a_template_computes_nothing(template: Path) -> None:
    env = environment(TEMPLATES)
    assert computing(template.read_text(encoding="utf-8"), env) == []


def test_the_counter_finds_what_it_refuses() -> None:
    """The measure itself can fail: each kind of computing node is found, and what only shows
    is not."""
    env = environment(TEMPLATES)
    refused = (
        "{{ xs|length }}{{ xs|selectattr('a')|list }}{% if a == b %}{% endif %}"
        "{{ a + 1 }}{{ -a }}{{ 'x' if n > 1 }}{{ xs|zip(ys) }}"
    )
    assert computing(refused, env) == [
        "1: filter length",
        "1: filter list",
        "1: filter selectattr",
        "1: Compare",
        "1: Add",
        "1: Neg",
        "1: Compare",
        "1: filter zip",
    ]
    shown = "{% if a and not b or c is none %}{{ x|md_inline }}{{ xs|join(', ') }}{% endif %}"
    assert computing(shown, env) == []


def test_a_page_that_hides_the_navigation_keeps_the_sites_sections_in_reach() -> None:
    """A desktop screen shows no menu button: a page without the theme's navigation lists the
    sections itself, under its heading."""
    hiding = [t for t in PAGE_TEMPLATES if "\n  - navigation\n" in t.read_text(encoding="utf-8")]
    assert len(hiding) >= 4
    for template in hiding:
        text = template.read_text(encoding="utf-8")
        heading = text.index("\n# ", text.index("\n---\n", 4))
        assert "{{ m.sections() }}" in text[heading : heading + 120], template.name
