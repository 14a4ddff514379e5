"""Every output escapes for itself: plain text inside Markdown reads as itself, a Markdown
download carries no live HTML, and a CSV cell never starts a spreadsheet formula."""

from __future__ import annotations

import csv
import html
import io
import re
import unicodedata
from datetime import date
from pathlib import Path

import markdown
import pytest
from conftest import CHARTS, ROOT, copy_content

from generator import escape
from generator.checks.loader import load_site
from generator.checks.pages import check_page
from generator.escape import csv_cell, markdown_download, markdown_literal
from generator.model.links import checklist_download
from generator.model.options import Options
from generator.model.policy import Policy
from generator.pipeline.run import site_output
from generator.problems import ContentError
from generator.render.markup import inline
from generator.render.reuse import Reuse

LITERALS = [
    "[call us](https://evil.example)",
    "![x](https://evil.example/p.png)",
    "<img src=x onerror=alert(1)>",
    "&lt;script&gt;",
    "`code` and **bold** and _em_ and *em*",
    "# heading",
    "- item",
    "1. first",
    "> quote",
    "{: .class }",
    "back\\slash [x]",
    "nebius_h200_n64",
    "IBM+CoreWeave+NVIDIA",
    "NVIDIA H200-SXM5-141GB",
]


@pytest.mark.parametrize("text", LITERALS)
def test_a_literal_renders_as_the_same_text(text: str) -> None:
    """Rendered as the site renders Markdown, and with plain Python-Markdown, an escaped value is
    its own text: no link, image, tag, emphasis, code or block."""
    rendered = str(inline(markdown_literal(text)))
    plain = re.sub(r"<[^>]+>", "", rendered)
    assert "<a" not in rendered and "<img" not in rendered and "<em" not in rendered
    assert "<code" not in rendered and "<strong" not in rendered and "<h1" not in rendered
    assert html.unescape(plain) == text
    outside = markdown.markdown(markdown_literal(text))
    assert "<a" not in outside and "<img" not in outside and "<script" not in outside


def test_plain_names_stay_as_they_are() -> None:
    # The names real records hold are unchanged: no escape where none is needed.
    for name in ("nebius_h200_n64", "IBM+CoreWeave+NVIDIA", "NVIDIA H200-SXM5-141GB", "Iceland"):
        assert markdown_literal(name) == name


def test_a_markdown_download_keeps_markdown_and_loses_html() -> None:
    assert markdown_download("Use **a trial** <img src=x onerror=alert(1)>") == (
        "Use **a trial** &lt;img src=x onerror=alert(1)&gt;"
    )
    assert markdown_download("A &lt;b&gt; value") == "A &lt;b&gt; value"


CELLS = [
    ('=HYPERLINK("http://evil")', True),
    (' =HYPERLINK("http://evil")', True),
    ("\u00a0=1+1", True),
    ("\u3000=1+1", True),
    ('\uff1dHYPERLINK("http://evil")', True),
    ("\uff0bcmd", True),
    ("@SUM(A1)", True),
    ("+cmd|' /C calc'!A0", True),
    ("-cmd", True),
    ("\n=cmd|' /C calc'!A0", True),
    ("\t=1", True),
    ("\r=1", True),
    ("-85.26", False),
    ("85.26", False),
    ("-1e-05", False),
    ("1.1333333333333333", False),
    ("Iceland", False),
    ("", False),
    ("a=b", False),
]


@pytest.mark.parametrize(("cell", "guarded"), CELLS)
def test_a_csv_cell_never_starts_a_formula(cell: str, guarded: bool) -> None:
    assert csv_cell(cell) == ("'" + cell if guarded else cell)


# --- in the built output --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, bytes], dict[str, str]]:
    """The real content, with Crusoe's B300 location and provider name written as Markdown and
    HTML, and its framework as a formula."""
    content = copy_content(ROOT / "content", tmp_path_factory.mktemp("hostile") / "content")
    path = content / "validations" / "crusoe-hgx-b300-exemplar.yaml"
    text = path.read_text(encoding="utf-8")
    text = re.sub(
        r"^(  location: ).*$",
        r"\1'Iceland [call us](https://evil.example)'",
        text,
        count=1,
        flags=re.M,
    )
    path.write_text(text, encoding="utf-8")
    provider = content / "providers" / "crusoe.yaml"
    name = provider.read_text(encoding="utf-8")
    name = re.sub(
        r"^name: .*$", "name: 'Crusoe <img src=x onerror=alert(1)>'", name, count=1, flags=re.M
    )
    provider.write_text(name, encoding="utf-8")
    site = load_site(content)
    output = site_output(
        site, Options(ROOT / "templates", Policy(date(2026, 12, 4))), reuse=Reuse(svg=CHARTS)
    )
    return output.data, {uri: page.markdown for uri, page in output.pages.items()}


@pytest.mark.slow
def test_a_location_is_never_a_link_in_a_checklist(
    hostile: tuple[dict[str, bytes], dict[str, str]],
) -> None:
    _, pages = hostile
    for uri in (
        "trial-checklists/crusoe-hgx-b300-exemplar.md",
        "validations/crusoe-hgx-b300-exemplar.md",
    ):
        assert "call us" in pages[uri]
        assert "evil.example" not in re.findall(r'href="([^"]*)"', pages[uri]), uri
        assert 'href="https://evil.example"' not in pages[uri], uri


def test_a_markdown_download_carries_no_live_html(
    hostile: tuple[dict[str, bytes], dict[str, str]],
) -> None:
    data, _ = hostile
    download = data[checklist_download("crusoe-hgx-b300-exemplar", "trial-checklist", "md")]
    text = download.decode("utf-8")
    assert "<img" not in text and "&lt;img" in text
    # Read as a Markdown tool reads it: neither the name nor the location is a tag or a link.
    html_of_download = markdown.markdown(text)
    assert "<img" not in html_of_download
    assert 'href="https://evil.example"' not in html_of_download


def test_the_csv_downloads_are_guarded_and_numbers_stay_numbers(
    hostile: tuple[dict[str, bytes], dict[str, str]],
) -> None:
    data, _ = hostile
    rows = list(csv.DictReader(io.StringIO(data["downloads/measurements.csv"].decode("utf-8"))))
    values = [row["value"] for row in rows if row["value"]]
    assert values and all(float(value) for value in values)
    assert not any(value.startswith("'") for value in values)


# --- characters that show nothing, or turn the text around them -----------------------------------

INVISIBLE = ["\u200b", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u200e", "\u2066", "\u3164",
             "\U000e0041", "\u202e"]  # fmt: skip


def test_the_invisible_class_is_every_invisible_code_point_and_no_other() -> None:
    # The class is built from three planes for speed; every plane is checked here, against
    # the definition one character at a time.
    pattern = escape._invisible()
    invisible = escape._is_invisible
    wrong = [c for c in range(0x110000) if (pattern.fullmatch(chr(c)) is None) == invisible(chr(c))]
    assert wrong == [], [f"U+{code:04X}" for code in wrong[:5]]
    # Text that is all ASCII is passed over: no ASCII character may be invisible.
    assert not any(invisible(chr(c)) for c in range(128))
    assert all(escape.first_invisible(f"ab{c}d") == (3, c) for c in INVISIBLE)
    assert escape.visible("a\u200bb\u202e") == "a[U+200B]b[U+202E]"
    assert escape.visible("plain – text") == "plain – text"
    assert escape.first_invisible("plain – text") is None


@pytest.mark.slow
@pytest.mark.parametrize("character", INVISIBLE, ids=[f"U+{ord(c):04X}" for c in INVISIBLE])
def test_a_name_may_not_hold_an_invisible_character(tmp_path: Path, character: str) -> None:
    content = copy_content(ROOT / "content", tmp_path / "content")
    provider = content / "providers" / "crusoe.yaml"
    text = provider.read_text(encoding="utf-8")
    text = re.sub(r"^name: .*$", f'name: "Cru{character}soe"', text, count=1, flags=re.M)
    provider.write_text(text, encoding="utf-8")
    with pytest.raises(ContentError) as raised:
        load_site(content)
    (problem,) = raised.value.problems
    line = text.split("\n").index(f'name: "Cru{character}soe"') + 1
    assert str(problem).startswith(
        f"content/providers/crusoe.yaml:{line}:7: name: expected a name with no invisible or "
        f"direction-changing character, as U+{ord(character):04X} "
    ), str(problem)
    assert "at character 4 is, found" in str(problem)


@pytest.mark.slow
def test_elsewhere_an_invisible_character_is_shown_as_its_code_point(tmp_path: Path) -> None:
    content = copy_content(ROOT / "content", tmp_path / "content")
    path = content / "validations" / "crusoe-hgx-b300-exemplar.yaml"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"^(  location: ).*$", r'\1"Ice\\u202eland"', text, count=1, flags=re.M)
    path.write_text(text, encoding="utf-8")
    output = site_output(load_site(content), Options(ROOT / "templates", Policy(date(2026, 12, 4))))
    for uri in (
        "validations/crusoe-hgx-b300-exemplar.md",
        "trial-checklists/crusoe-hgx-b300-exemplar.md",
    ):
        page = output.pages[uri].markdown
        assert "\u202e" not in page, uri
        assert "Ice[U+202E]land" in page or "Ice\\[U+202E\\]land" in page, uri
    download = output.data[checklist_download("crusoe-hgx-b300-exemplar", "trial-checklist", "md")]
    assert "\u202e" not in download.decode("utf-8")


@pytest.mark.parametrize(
    "text",
    [
        "[x](javascript:alert(55))",
        "[x]( JaVaScript:alert(1))",
        "[x](jav&#x61;script:alert(2))",
        "[x](vbscript:msgbox(1))",
        "![x](data:text/html,<script>alert(3)</script>)",
        "[z]: javascript:alert(4)\n\nSee [z].",
        "<javascript:alert(5)>",
    ],
)
def test_a_markdown_download_keeps_no_link_of_another_scheme(text: str) -> None:
    rendered = markdown.markdown(markdown_download(text))
    assert "href=" not in rendered and "src=" not in rendered, rendered


def test_a_markdown_download_keeps_its_safe_links() -> None:
    rendered = markdown.markdown(markdown_download("[a](https://a.example/) [b](../b.md)"))
    assert 'href="https://a.example/"' in rendered and 'href="../b.md"' in rendered


@pytest.mark.parametrize("character", INVISIBLE, ids=[f"U+{ord(c):04X}" for c in INVISIBLE])
def test_a_hand_written_page_may_not_hold_an_invisible_character(character: str) -> None:
    text = f"# A page\n\nSome text{character} here.\n"
    problems = [str(p) for p in check_page("content/pages/a.md", text.encode("utf-8"))]
    assert problems == [
        f"content/pages/a.md:3:10: expected visible text, found U+{ord(character):04X} "
        f"{unicodedata.name(character)}, which shows nothing or changes the direction of the "
        "text around it"
    ]


def test_a_markdown_download_shows_no_image() -> None:
    rendered = markdown.markdown(markdown_download("![pixel](https://evil.test/pixel.png)"))
    assert "<img" not in rendered and "pixel" in rendered
