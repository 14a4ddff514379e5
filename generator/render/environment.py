"""The Jinja environment pages are rendered in: autoescaped, strict about undefined names, and
given only the filters that format (tests/render/test_templates_show.py holds templates to them)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import jinja2
from markupsafe import Markup

from generator.derive import page_words
from generator.derive.evidence import lowered
from generator.english import listed, number
from generator.escape import visible
from generator.model.grades import GRADE_MEANINGS, SHOWN_MEANINGS
from generator.model.links import checklist_download, slug
from generator.render import markup
from generator.render.glossed import glossed


def _shown(value: object) -> object:
    """Every value a template prints: plain text shows its invisible characters as code points
    (U+202E would turn the rest of a line around); rendered Markdown has already done so."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return visible(value)
    return value


@cache
def environment(templates_dir: Path) -> jinja2.Environment:
    """The Jinja environment of a templates folder, made once a process: it keeps each template
    compiled, and compiles it again only when its file changes, as under `mkdocs serve`."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_shown,
    )
    env.filters.update(
        md=markup.block,
        md_inline=markup.inline,
        heading=markup.heading,
        number=number,
        slug=slug,
        listed=listed,
        spelled=page_words.spelled,
        lowered=lowered,
        glossed=glossed,
    )
    env.globals.update(
        grade_meanings=GRADE_MEANINGS,
        answer_meanings=SHOWN_MEANINGS,
        validity_words=page_words.VALIDITY_WORDS,
        validity_why=page_words.VALIDITY_WHY,
        basis_words=page_words.BASIS_WORDS,
        fit_words=page_words.FIT_WORDS,
        checklist_download=checklist_download,
        near_end=page_words.near_end,
        categories_words=page_words.categories_words,
    )
    return env
