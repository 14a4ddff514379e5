"""Every built page through the W3C Nu HTML checker (vnu.jar, run with the machine's Java)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT

VNU = ROOT / "tests" / "lint" / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
# Markup of the themes, not of cloudqual. Material (9.8) and Zensical (0.0.73): the drawer and
# search toggles carry autocomplete on checkboxes. Material: its table-of-contents label points
# at a hidden toggle. Zensical: the overlay that closes the drawer is a label hidden from
# assistive technology.
THEME = [
    ("Attribute “autocomplete” is only allowed when the input type is", 'class="md-toggle"'),
    (
        "The value of the “for” attribute of the “label” element must be the ID of a non-hidden",
        "md-nav__title",
    ),
    # Zensical, with the table of contents integrated into the navigation (toc.integrate, so a
    # wide table has the room of the empty right sidebar): the current page's link still
    # labels the table of contents' toggle, which Zensical then leaves out.
    (
        "The value of the “for” attribute of the “label” element must be the ID of a non-hidden",
        'md-nav__link md-nav__link--active" for="__toc"',
    ),
    (
        "The “aria-hidden” attribute must not be used on any “label” element",
        '<label class="md-overlay" for="__drawer" aria-hidden="true">',
    ),
]


def theme_message(message: dict[str, str]) -> bool:
    return any(
        message["message"].startswith(text) and marker in message.get("extract", "")
        for text, marker in THEME
    )


def checked(*paths: Path) -> tuple[list[dict[str, str]], set[Path]]:
    """The checker's messages, and every file it read: `--verbose` names on standard output each
    file it checks, so a page it never read cannot pass unseen."""
    java = shutil.which("java")
    if java is None or not VNU.is_file():
        pytest.fail("Java and vnu.jar are required: run `make test`, which installs them")
    command = [java, "-jar", str(VNU), "--verbose", "--format", "json", "--skip-non-html"]
    result = subprocess.run(
        [*command, *map(str, paths)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    messages: list[dict[str, str]] = json.loads(result.stderr)["messages"]
    return messages, {Path(line).resolve() for line in result.stdout.splitlines() if line}


def vnu(*paths: Path) -> list[dict[str, str]]:
    return checked(*paths)[0]


def test_every_page_is_valid_html(engine_built: Path) -> None:
    """Every page of the site, as MkDocs builds it and as Zensical builds it."""
    messages, read = checked(engine_built)
    problems = [
        f"{m['url'].split('/site/')[-1]}:{m.get('lastLine')}: {m['message']}"
        for m in messages
        if m["type"] in ("error", "non-document-error") and not theme_message(m)
    ]
    assert problems == []
    pages = {path.resolve() for path in engine_built.rglob("*.html")}
    assert len(pages) > 100 and read == pages  # every page was read, none skipped


@pytest.mark.slow
def test_the_checker_finds_a_broken_page(tmp_path: Path) -> None:
    broken = tmp_path / "broken.html"
    broken.write_text(
        "<!doctype html><html lang=en><title>x</title>"
        "<figure><img src=a.svg alt=a><figcaption>c</figcaption><details><summary>s</summary>"
        "</details></figure>"
    )
    errors = [m for m in vnu(broken) if m["type"] == "error"]
    assert any("not allowed as child of element “figure”" in m["message"] for m in errors)
