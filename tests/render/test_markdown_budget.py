"""Markdown whose rendering time grows with the square of its size, at the size limits: a
hand-written page of 256 KiB, and record texts of 4,000 characters (the schema's limit) in a
record file. Each is refused, with the limit, what was found and where, by the loader that
`cloudqual check` and the build share; or it passes, and renders.

Nothing here is timed. Before the budget (generator/checks/budget.py), the check rendered each
refused page for minutes or hours (30,000 '[' took 123 s, and the time grows with the square of the
count), and it never rendered record text, which the build then did, a text at a time.
`benchmarks/markdown.py` times these patterns from 4K to 256K characters.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from generator.checks.loader import load_site
from generator.checks.pages import MAX_PAGE_BYTES
from generator.problems import ContentError, Position, Problem

HEAD = "# Title\n\n"  # the page's first two lines; every pattern starts on line 3
FILLER = "lorem ipsum "

MARKS = (
    "expected at most 1,000 Markdown marks (` * _ [ < & \\ and line breaks) in one paragraph, "
    "found more: mark 1,001 is here; Markdown copies the paragraph for each element it finds, "
    "so split it with blank lines"
)
SPLITS = (
    "expected at most 32 headings, rules and admonitions in one paragraph, found more: number 33 "
    "is here; Markdown reads the rest of the paragraph again after each, so put a blank line "
    "after each"
)
TAGS = "expected at most 1,000 HTML tags in one text, found more: tag 1,001 is here"
# What each kind of reading ahead is for, and the advice that comes with it.
BRACKET = ("a ']' to close it", "write '\\[' for a bracket that opens no link")
PAREN = ("a ')' to close it", "close each link's '(' with ')'")
BACKTICKS = (
    "as many backticks to close them",
    "close each code span with as many backticks as open it",
)
ANGLE = ("a '>' to close it", "close each '<' with '>', or write '&lt;'")


def depth(found: int) -> str:
    return (
        "expected Markdown nested at most 16 levels deep (quotes, list items, indented blocks), "
        f"found a line nested {found:,} levels deep"
    )


def read_ahead(character: str, distance: int, kind: tuple[str, str]) -> str:
    looking_for, advice = kind
    return (
        "expected Markdown to read ahead at most 1,000,000 characters in all for what closes "
        f"each '[', '(', '`' and '<', found more: this '{character}' makes it read "
        f"{distance:,} characters looking for {looking_for}; {advice}"
    )


def page(body: str, size: int = MAX_PAGE_BYTES, filler: str = FILLER) -> str:
    """A page of exactly `size` bytes: the heading, `body`, then `filler` repeated."""
    text = HEAD + body
    text += (filler * ((size - len(text)) // len(filler) + 1))[: max(0, size - len(text))]
    assert len(text.encode("utf-8")) == size
    return text


def repeated(unit: str, size: int = MAX_PAGE_BYTES) -> str:
    """A page of exactly `size` bytes: the heading, then `unit` over and over."""
    return page("", size, unit)


def problems(content: Path) -> list[Problem]:
    try:
        load_site(content)
    except ContentError as error:
        return error.problems
    return []


def page_problems(content: Path, text: str) -> list[Problem]:
    path = content / "pages" / "hostile.md"
    path.write_text(text, encoding="utf-8")
    return [p for p in problems(content) if p.path == "content/pages/hostile.md"]


# (pattern, page text, line, column, message): one paragraph of one mark over and over, as in the
# review's 30,000 '['; patterns the marks never exhaust, which read far ahead instead; nesting;
# headings and rules that split a paragraph; tags.
REFUSED_PAGES = [
    ("'['", repeated("["), 3, 1_001, MARKS),
    ("nested '[' and ']'", page("[" * 100_000 + "]" * 100_000), 3, 1_001, MARKS),
    ("'[a]('", repeated("[a]("), 3, 4_001, MARKS),
    ("'[](' links", repeated("[]("), 3, 3_001, MARKS),
    ("'![' images", repeated("!["), 3, 2_002, MARKS),
    ("'*' runs", repeated("*"), 3, 1_001, MARKS),
    ("'*a' emphasis", repeated("*a"), 3, 2_001, MARKS),
    ("'**a ' strong emphasis", repeated("**a "), 3, 2_001, MARKS),
    ("'_' runs", repeated("_"), 3, 1_001, MARKS),
    ("'_a_ ' emphasis", repeated("_a_ "), 3, 2_001, MARKS),
    ("backtick runs", repeated("``a"), 3, 1_501, MARKS),
    ("code spans", repeated("`a` "), 3, 2_001, MARKS),
    ("'<' runs", repeated("<"), 3, 1_001, MARKS),
    ("'<a ' tags left open", repeated("<a "), 3, 3_001, MARKS),
    ("autolinks left open", repeated("<http://"), 3, 8_001, MARKS),
    ("'<!--' comments left open", repeated("<!--"), 3, 4_001, MARKS),
    ("'<![CDATA[' left open", repeated("<![CDATA["), 3, 3_000, MARKS),
    ("'&' entities", repeated("&amp;"), 3, 5_001, MARKS),
    ("backslash escapes", repeated("\\*"), 3, 2_001, MARKS),
    ("hard line breaks", repeated("a  \n"), 1_003, 2, MARKS),
    ("link reference definitions", repeated("[r]: /u\n"), 1_003, 1, MARKS),
    ("a table of links", page("a|b\n-|-\n", filler="[x](u)|y\n"), 5 + 1_000, 1, MARKS),
    (
        "'[' left open in a long paragraph",
        page("[" * 4),
        3,
        4,
        read_ahead("[", 262_132, BRACKET),
    ),
    (
        "'[' left open in paragraph after paragraph",
        repeated("[" * 10 + "a" * 990 + "\n\n"),
        3 + 2 * 100,
        5,
        read_ahead("[", 996, BRACKET),
    ),
    (
        "a link's '(' left open",
        page("[a](" * 4),
        3,
        16,
        read_ahead("(", 262_120, PAREN),
    ),
    (
        "a link title left open",
        page('[a](u "' * 4),
        3,
        25,
        read_ahead("(", 262_111, PAREN),
    ),
    (
        "backtick runs of growing length",
        page("".join("`" * length + "a" for length in range(1, 5))),
        3,
        10,
        read_ahead("`", 262_126, BACKTICKS),
    ),
    (
        "'<a ' tags left open in a long paragraph",
        page("<a " * 4),
        3,
        10,
        read_ahead("<", 262_126, ANGLE),
    ),
    ("'>' quotes nested", repeated(">"), 3, 1, depth(262_135)),
    (
        "lists nested by indentation",
        HEAD + "".join(" " * 4 * level + "- a\n" for level in range(300))[: MAX_PAGE_BYTES - 9],
        3 + 16,
        1,
        depth(17),
    ),
    ("quotes and lists nested", repeated("> - " * 9 + "a\n"), 3, 1, depth(18)),
    (
        "admonitions nested",
        HEAD
        + "".join(" " * 4 * level + "!!! note\n\n" for level in range(200))[: MAX_PAGE_BYTES - 9],
        3 + 2 * 17,
        1,
        depth(17),
    ),
    ("'# ' headings in one paragraph", repeated("# a\n"), 3 + 32, 1, SPLITS),
    ("setext headings in one paragraph", repeated("a\n-\n"), 4 + 2 * 32, 1, SPLITS),
    ("rules in one paragraph", repeated("***\n"), 3 + 32, 1, SPLITS),
    ("admonitions in one paragraph", repeated("!!! note\n"), 3 + 32, 1, SPLITS),
    ("HTML tags, one a paragraph", repeated("<div>\n\n"), 3 + 2 * 1_000, 1, TAGS),
]


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [case[1:] for case in REFUSED_PAGES],
    ids=[case[0] for case in REFUSED_PAGES],
)
def test_a_hostile_page_at_the_size_limit_is_refused_where_it_passes_a_limit(
    minimal_content: Path, text: str, line: int, column: int, message: str
) -> None:
    found = page_problems(minimal_content, text)
    assert found == [Problem("content/pages/hostile.md", Position(line, column), "", message)]


# Pages of the same size that Markdown renders in linear time: the check renders them, and they
# pass. Real pages' headings, paragraphs, links and tables are these, smaller.
RENDERED_PAGES = [
    ("a table of many rows", page("a|b\n-|-\n", filler="a|b\n")),
    ("a table of many columns", page("|".join(["a"] * 60_000) + "\n" + "|".join(["-"] * 60_000))),
    ("one flat list", repeated("- a\n")),
    ("link reference definitions, one a paragraph", repeated("[r]: /u\n\n")),
    ("HTML comments, one a paragraph", repeated("<!-- a -->\n\n")),
    ("headings, one a paragraph", repeated("# a\n\n")),
    ("links, emphasis and code in short paragraphs", repeated("A [b](c) *d* `e` &amp; f.\n\n")),
    ("'_' inside words", repeated("snake_case ")),
    ("quotes nested 16 deep", repeated("> " * 16 + "a\n")),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    "text", [case[1] for case in RENDERED_PAGES], ids=[case[0] for case in RENDERED_PAGES]
)
def test_a_page_at_the_size_limit_that_renders_in_linear_time_passes(
    minimal_content: Path, text: str
) -> None:
    assert page_problems(minimal_content, text) == []


def test_check_refuses_the_review_page_and_says_where(minimal_content: Path) -> None:
    """The command a contributor runs, on the review's page: 30,000 '[' on one line."""
    (minimal_content / "pages" / "hostile.md").write_text("[" * 30_000, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "generator.cli", "check", "--content", str(minimal_content)],
        cwd=minimal_content.parent,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert result.returncode == 1
    assert f"content/pages/hostile.md:1:1001: {MARKS}\n" in result.stderr


# --- record text -------------------------------------------------------------------------------
# The schema holds a record's text to 4,000 characters, and the review's 4,000 '[' took 1.6 s in
# one; a record file of 256 KiB holds 60 such texts, each rendered on its own.

PROVIDER = """\
# yaml-language-server: $schema=../../schemas/providers.schema.json
id: test-provider
name: Test Provider
url: null
summary: |-
"""


def provider(content: Path, text: str) -> list[Problem]:
    """The problems reported in the provider record with `text` as its summary."""
    lines = "".join(f"  {line}\n" for line in text.split("\n"))
    (content / "providers" / "test-provider.yaml").write_text(PROVIDER + lines, encoding="utf-8")
    return [p for p in problems(content) if p.path == "content/providers/test-provider.yaml"]


def summary(message: str, line: int, column: int) -> Problem:
    return Problem(
        "content/providers/test-provider.yaml",
        Position(5, 10),  # the summary's '|-'
        "summary",
        f"{message} (line {line}, column {column} of the text)",
    )


def test_the_review_text_of_4000_brackets_is_refused_at_its_own_position(
    minimal_content: Path,
) -> None:
    assert provider(minimal_content, "[" * 4_000) == [summary(MARKS, 1, 1_001)]


@pytest.mark.parametrize(
    ("text", "line", "column", "message"),
    [
        ("*a" * 2_000, 1, 2_001, MARKS),
        ("`a` " * 1_000, 1, 2_001, MARKS),
        ("&a;" * 1_333 + "a", 1, 3_001, MARKS),
        ("<b>" * 1_333 + "a", 1, 3_001, MARKS),
        ("\\*" * 2_000, 1, 2_001, MARKS),
        (">" * 4_000, 1, 1, depth(4_000)),
        ("#a\n" * 1_333, 33, 1, SPLITS),
        # The 259th '[' reads 3,742 characters, and 4,000 x 259 - 259 x 258 / 2 > 1,000,000.
        ("[" * 999 + "a" * 3_001, 1, 259, read_ahead("[", 3_742, BRACKET)),
        (  # 1,000 '[' read 3 characters each, then the 292nd '(' passes the budget
            "[a](" * 1_000,
            1,
            1_168,
            read_ahead("(", 2_833, PAREN),
        ),
    ],
    ids=[
        "emphasis",
        "code spans",
        "entities",
        "tags",
        "escapes",
        "quotes",
        "headings",
        "'['",
        "'('",
    ],
)
def test_a_record_text_at_the_size_limit_is_refused_at_its_own_position(
    minimal_content: Path, text: str, line: int, column: int, message: str
) -> None:
    assert len(text) <= 4_000
    assert provider(minimal_content, text) == [summary(message, line, column)]


def validation(content: Path, claims: list[str]) -> tuple[list[Problem], list[int]]:
    """The problems reported in the validation record with `claims` as its claims' text, and
    the line of each claim's text."""
    path = content / "validations" / "test-validation.yaml"
    head, rest = path.read_text(encoding="utf-8").split("claims:\n", 1)
    text, lines = head + "claims:\n", []
    for claim in claims:
        text += "  - source: test-source\n    grade: provider-reported\n"
        lines.append(text.count("\n") + 1)
        text += "    text: |-\n" + "".join(f"      {line}\n" for line in claim.split("\n"))
    path.write_text(text + "evidence:" + rest.split("evidence:", 1)[1], encoding="utf-8")
    return [p for p in problems(content) if p.path.endswith("/test-validation.yaml")], lines


def test_reading_ahead_is_counted_over_every_text_of_a_record(minimal_content: Path) -> None:
    """Each text is rendered on its own, so a record's reading ahead adds up over its texts:
    texts within the budget one by one are refused once together they pass it."""
    # Three texts alike but for their last letter: a claim stated twice is refused on its own.
    claims = ["[" * 125 + "a" * 3_874 + letter for letter in "xyz"]
    found, lines = validation(minimal_content, claims)
    # Each text reads 492,250 characters; the fourth '[' of the third passes 1,000,000.
    message = read_ahead("[", 3_997, BRACKET)
    assert found == [
        Problem(
            "content/validations/test-validation.yaml",
            Position(lines[2], 11),
            "claims.2.text",
            f"{message} (line 1, column 4 of the text)",
        )
    ]


@pytest.mark.slow
def test_every_page_and_record_of_the_content_is_within_the_budget() -> None:
    # Imported here, so that without the budget only this test fails to import it.
    from generator.checks.budget import Budget, check_record
    from generator.load.reader import load_text

    for path in sorted((ROOT / "content").rglob("*")):
        if path.suffix == ".md":
            assert Budget().spend(path.read_text(encoding="utf-8")) is None, path
        elif path.suffix == ".yaml":
            document, _ = load_text(path.name, path.read_bytes())
            assert document is not None, path
            assert check_record(document) == [], path


def test_text_made_from_records_over_the_budget_is_shown_as_written() -> None:
    """Text made from records after loading is not held to the budget by the loader: a
    checklist item can repeat a slot 300 times, filled with a place name of 100 ']' that
    `markdown_literal` escapes, which is 30,000 escapes in one paragraph. `markup` shows such
    text as escaped plain paragraphs rather than giving it to Markdown."""
    from generator.render import markup

    wording = " ".join(["Check " + "\\]" * 100] * 300)
    assert markup.inline(wording) == wording
    assert markup.block(f"{wording}\n\n<b>") == f"<p>{wording}</p>\n<p>&lt;b&gt;</p>"
