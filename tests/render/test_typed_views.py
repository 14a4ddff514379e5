"""Each page template is given one typed view (render/views.py), and reads nothing else but what
every page is given: the renderer's `context` and `PAGE_NAMES`. Jinja's own parser reads
each template for the names it reads; the view's fields are held to a description each, and to
being read."""

from __future__ import annotations

from dataclasses import fields
from datetime import date
from pathlib import Path

import pytest
from conftest import MINIMAL
from jinja2 import Environment, nodes

from generator.checks.loader import load_site
from generator.model.options import Options
from generator.model.policy import Policy
from generator.render.environment import environment
from generator.render.renderer import PAGE_NAMES, Renderer
from generator.render.views import VIEWS, View

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
PAGE_TEMPLATES = sorted(p.name for p in TEMPLATES.glob("*.md.j2"))
# What Jinja itself gives a loop and a macro.
JINJA_OWN = {"loop", "caller", "varargs", "kwargs"}


def names_read(source: str, env: Environment) -> set[str]:
    """The names `source` reads that it does not set itself (a `set`, a loop, a macro or its
    parameters, an import) and neither Jinja (`loop`) nor the environment (its globals) holds."""
    parsed = env.parse(source)
    loaded, stored = set(), set()
    for name in parsed.find_all(nodes.Name):
        (loaded if name.ctx == "load" else stored).add(name.name)
    stored |= {i.target for i in parsed.find_all(nodes.Import)}
    stored |= {macro.name for macro in parsed.find_all(nodes.Macro)}
    for imported in parsed.find_all(nodes.FromImport):
        stored |= {n if isinstance(n, str) else n[1] for n in imported.names}
    return loaded - stored - JINJA_OWN - set(env.globals)


@pytest.fixture(scope="module")
def shared() -> set[str]:
    """What every page is given besides its view."""
    renderer = Renderer(load_site(MINIMAL), Options(TEMPLATES, Policy(date(2026, 12, 2))))
    return set(renderer.context) | set(PAGE_NAMES)


def test_each_page_template_has_one_view() -> None:
    assert len(PAGE_TEMPLATES) >= 20  # the glob found the templates
    assert sorted(view.TEMPLATE for view in VIEWS) == PAGE_TEMPLATES


@pytest.mark.parametrize("view", VIEWS, ids=lambda v: v.__name__)
def test_each_field_says_what_it_shows(view: type[View]) -> None:
    unsaid = [f.name for f in fields(view) if not f.metadata.get("shows", "").strip()]
    assert unsaid == []


@pytest.mark.parametrize("view", VIEWS, ids=lambda v: v.__name__)
def test_a_template_reads_its_view_and_what_every_page_is_given(
    view: type[View], shared: set[str]
) -> None:
    env = environment(TEMPLATES)
    read = names_read((TEMPLATES / view.TEMPLATE).read_text(encoding="utf-8"), env)
    own = {f.name for f in fields(view)}
    assert read - own - shared == set(), "read, but neither in the view nor given every page"
    assert own - read == set(), "in the view, but the template never reads it"
    assert own & shared == set(), "a field would hide what every page is given"


def test_the_macros_read_only_what_every_page_is_given(shared: set[str]) -> None:
    """Every template imports the macros with its context: a macro that read a view's own name
    would hold to one page and fail on the next."""
    env = environment(TEMPLATES)
    read = names_read((TEMPLATES / "_macros.j2").read_text(encoding="utf-8"), env)
    assert read  # the file was read: the macros read the site's names
    assert read - shared == set()


def test_the_names_a_template_reads_are_found() -> None:
    """The measure itself can fail: a name read is found; what the template sets, loops over,
    takes as a parameter, imports, or the environment holds is not."""
    env = environment(TEMPLATES)
    source = (
        '{% import "_macros.j2" as m %}{% from "_macros.j2" import cite as c %}'
        "{% set a = 1 %}{{ a }}{{ b.c }}{% for x in xs %}{{ x }}{% endfor %}"
        "{% macro k(y) %}{{ y }}{{ z }}{% endmacro %}{{ m.value(1) }}{{ c(2) }}"
        "{% for i in xs %}{{ loop.index }}{% endfor %}"
        f"{{{{ {next(iter(env.globals))} }}}}"
    )
    assert names_read(source, env) == {"b", "xs", "z"}
