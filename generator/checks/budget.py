"""What Markdown may cost: contributor text is measured before Python-Markdown reads it.

Python-Markdown renders every hand-written page (in MkDocs, and in `pages.check_page`) and every
record text (`markup`), and several of its steps take time that grows with the square of their
input. Measured on the project's 2-core machine (`benchmarks/markdown.py` times each pattern):

- for each '[' it reads ahead, in a Python loop, to the ']' that closes it, or to the end of the
  paragraph; for a link's '(' to its ')'; for a run of backticks to the next run as long; and its
  HTML reader, for each '<', to the '>' or the end of the text. 30,000 '[' took 123 s;
- each link, emphasis, code span, entity, escape, tag or line break it finds is put back into
  its paragraph by copying the paragraph: 64,000 `*a*` in one paragraph took 13 s;
- each heading or rule in a paragraph splits it, and every block reader tests the rest again:
  16,000 setext headings in one paragraph took 16 s;
- nesting is recursion: a quote nested deeper than the interpreter's stack allows is rendered
  flat, so the page would depend on the caller's stack, and strong emphasis nested 1,000 deep
  stops the toc extension with RecursionError; nh3 checks every open element at each tag, so
  50,000 nested tags took it 11 s.

The text is held to a budget rather than rendered by a second, linear renderer: MkDocs renders
the hand-written pages with Python-Markdown whatever the core does, and no other renderer gives
record text the same bytes. Each limit is far above what a real text needs (the most that any
text in `content/` holds is given beside it), measuring is linear, and a 256 KiB text within
every limit renders in a few seconds at most. `cloudqual check` refuses what passes a limit, with
its position, in the loader the build runs too, so both refuse the same input.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from generator.load.document import Document, Path_
from generator.problems import Position, Problem

# Quotes, list items and indented blocks nested in each other, on one line. Content nests 2.
MAX_DEPTH = 16
# Marks that may start an inline element, in one paragraph: each element costs a copy of the
# paragraph, and elements nest at most half as deep as their marks, far from the stack's limit.
# Content has at most 25 in a paragraph (this repository's README, 65).
MAX_MARKS = 1_000
# Headings, rules and admonitions in one paragraph. Content has 1.
MAX_SPLITS = 32
# Characters read ahead for what closes each '[', link '(', run of backticks and '<', in all, in
# one page or one record file. Content reads at most 3,941 (this repository's README, 25,569).
MAX_READ_AHEAD = 1_000_000
# HTML tags in one text, which nh3 cleans on its own. Content has 1 (an example, in code).
MAX_TAGS = 1_000

_BREAK = re.compile(r"\r\n|\r|\n")
_BLANK = re.compile(r"[ \t]*")
# What opens a line before its text: indentation, quote marks and list markers. Python-Markdown
# nests a block for each marker and for every four columns of indentation.
_PREFIX = re.compile(r"(?:[ \t]|>|[-*+](?=[ \t])|[0-9]{1,9}[.)](?=[ \t]))*")
_PREFIX_PART = re.compile(r"[ \t]+|>|[-*+]|[0-9]{1,9}[.)]")
# A line that splits its paragraph: an ATX heading, a rule or setext underline, an admonition.
_SPLIT = re.compile(r"#|!!!|[-=*_][-=*_ \t]*$")
# The characters Python-Markdown escapes with a backslash (its own, and `|` for tables).
_ESCAPABLE = r"\\`*_{}\[\]()>#+\-.!|"
_MARK = re.compile(
    rf"\\[{_ESCAPABLE}]"  # an escape
    r"|[`*\[<&]"  # a code span, emphasis, a link or image, a tag or autolink, an entity
    r"|_(?<![^\W_]_)|_(?![^\W_])"  # emphasis; an underscore inside a word is text
    r"| {2,}(?=\r\n|\r|\n)"  # a line break
)
_BRACKET = re.compile(rf"\\[{_ESCAPABLE}]|[\[\]`<]")
_LINK_OPEN = re.compile(r"\]\(")
_LINK_TOKEN = re.compile(rf"\\[{_ESCAPABLE}]|[()'\"`<]")
_TITLE_END = {quote: re.compile(rf"(?<!\\){quote} *\)") for quote in "'\""}
_BACKTICKS = re.compile(r"`+")
_TAG = re.compile(r"<(?:!--|!\[|[?]|[A-Za-z/!])")
_TAG_END = {"<!--": "-->", "<![": "]]>", "<?": "?>"}
_TAG_NAME = re.compile(r"</?[A-Za-z]")
_ATTRIBUTE_VALUE = re.compile(r"=\s*(['\"])")


@dataclass(frozen=True)
class Overrun:
    """Where a text passes a limit (an index into it), and what was expected and found."""

    at: int
    message: str


def _paragraphs(text: str) -> Iterator[tuple[int, int]]:
    """Start and end of each run of lines that are not blank: Python-Markdown's blocks, or a
    run holding several of them, which costs no less."""
    start = end = position = 0
    in_paragraph = False
    for line_break in [*_BREAK.finditer(text), None]:
        line_end = line_break.start() if line_break else len(text)
        blank = _BLANK.fullmatch(text, position, line_end) is not None
        if not blank and not in_paragraph:
            start, in_paragraph = position, True
        if not blank:
            end = line_end
        if blank and in_paragraph:
            in_paragraph = False
            yield start, end
        position = line_break.end() if line_break else len(text)
    if in_paragraph:
        yield start, end


def _lines(text: str, start: int, end: int) -> Iterator[int]:
    """The start of each line from `start` to `end`."""
    yield start
    for line_break in _BREAK.finditer(text, start, end):
        yield line_break.end()


def _depth(text: str, line: int) -> int:
    """How deep a line nests: a level for each quote mark or list marker, and one for every four
    columns of indentation besides the space that may follow a marker."""
    prefix = _PREFIX.match(text, line)
    assert prefix is not None  # the pattern matches the empty string
    markers = columns = 0
    for part in _PREFIX_PART.finditer(prefix[0]):
        if part[0][0] in " \t":
            width = sum(4 if character == "\t" else 1 for character in part[0])
            columns += width - 1 if markers else width
        else:
            markers += 1
    return markers + columns // 4


def _too_deep(text: str, start: int, end: int) -> Overrun | None:
    for line in _lines(text, start, end):
        depth = _depth(text, line)
        if depth > MAX_DEPTH:
            return Overrun(
                line,
                f"expected Markdown nested at most {MAX_DEPTH} levels deep (quotes, list items, "
                f"indented blocks), found a line nested {depth:,} levels deep",
            )
    return None


def _too_many_splits(text: str, start: int, end: int) -> Overrun | None:
    count = 0
    for line in _lines(text, start, end):
        prefix = _PREFIX.match(text, line)
        assert prefix is not None
        if _SPLIT.match(text, prefix.end(), _line_end(text, line, end)):
            count += 1
            if count > MAX_SPLITS:
                return Overrun(
                    line,
                    f"expected at most {MAX_SPLITS} headings, rules and admonitions in one "
                    f"paragraph, found more: number {count} is here; Markdown reads the rest of "
                    "the paragraph again after each, so put a blank line after each",
                )
    return None


def _line_end(text: str, line: int, end: int) -> int:
    line_break = _BREAK.search(text, line, end)
    return line_break.start() if line_break else end


def _too_many_marks(text: str, start: int, end: int) -> Overrun | None:
    for count, mark in enumerate(_MARK.finditer(text, start, end), 1):
        if count > MAX_MARKS:
            return Overrun(
                mark.start(),
                f"expected at most {MAX_MARKS:,} Markdown marks (` * _ [ < & \\ and line "
                f"breaks) in one paragraph, found more: mark {count:,} is here; Markdown "
                "copies the paragraph for each element it finds, so split it with blank lines",
            )
    return None


# What Markdown reads ahead for, and how a contributor spares it that, by what starts it.
_LOOKING_FOR = {
    "[": ("a ']' to close it", "write '\\[' for a bracket that opens no link"),
    "(": ("a ')' to close it", "close each link's '(' with ')'"),
    "`": (
        "as many backticks to close them",
        "close each code span with as many backticks as open it",
    ),
    "<": ("a '>' to close it", "close each '<' with '>', or write '&lt;'"),
}


def _bracket_reads(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Each '[' and how far Python-Markdown reads for its ']': to the ']' that closes it, or to
    the paragraph's end. A code span or tag between them may hide that ']', so one that holds
    either counts to the paragraph's end too."""
    opened: list[tuple[int, int]] = []
    hiding = 0
    for token in _BRACKET.finditer(text, start, end):
        character = token[0]
        if character in "`<":
            hiding += 1
        elif character == "[":
            opened.append((token.start(), hiding))
        elif character == "]" and opened:
            at, hiding_then = opened.pop()
            yield at, (token.end() if hiding == hiding_then else end) - at
    for at, _ in opened:
        yield at, end - at


def _link_reads(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Each '(' after a ']' and how far Python-Markdown reads for its ')': to the ')' that
    closes it; past a quote, to the quote and ')' that end a title; else to the paragraph's
    end, as for a '(' whose ')' a code span or a tag may hide."""
    for found in _LINK_OPEN.finditer(text, start, end):
        at = found.end() - 1
        yield at, _link_end(text, at, end) - at


def _link_end(text: str, at: int, end: int) -> int:
    depth = 0
    for token in _LINK_TOKEN.finditer(text, at, end):
        character = token[0]
        if character in "`<":
            return end
        if character == "(":
            depth += 1
        elif character == ")":
            depth -= 1
            if depth == 0:
                return token.end()
        elif character in "'\"":
            title_end = _TITLE_END[character].search(text, token.end(), end)
            if title_end is None or _hides(text, token.end(), title_end.end()):
                return end
            return title_end.end()
    return end


def _hides(text: str, start: int, end: int) -> bool:
    return text.find("`", start, end) >= 0 or text.find("<", start, end) >= 0


def _backtick_reads(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    """Each run of backticks and how far Python-Markdown reads for the next run as long, or to
    the paragraph's end."""
    runs = [(run.start(), run.end()) for run in _BACKTICKS.finditer(text, start, end)]
    following: dict[int, int] = {}
    reads = []
    for run_start, run_end in reversed(runs):
        length = run_end - run_start
        reads.append((run_start, following.get(length, end) - run_start))
        following[length] = run_end
    yield from reversed(reads)


def _tag_reads(text: str) -> Iterator[tuple[int, int]]:
    """Each '<' that may start a tag, comment or instruction, and how far the HTML readers read
    for its end, or to the end of the text when nothing ends it."""
    for tag in _TAG.finditer(text):
        at = tag.start()
        opening = tag[0]
        if opening in _TAG_END:
            close = text.find(_TAG_END[opening], tag.end())
            end = close + len(_TAG_END[opening]) if close >= 0 else len(text)
        elif opening[1] == "/":  # an end tag ends at its first '>'
            close = text.find(">", tag.end())
            end = close + 1 if close >= 0 else len(text)
        elif opening[1] == "!":  # a declaration's quoted strings may hold a '>'
            close = text.find(">", tag.end())
            quoted = text.find("'", at, close) >= 0 or text.find('"', at, close) >= 0
            end = close + 1 if close >= 0 and not quoted else len(text)
        else:
            end = _start_tag_end(text, tag.end())
        yield at, end - at


def _start_tag_end(text: str, start: int) -> int:
    """Where a start tag's reading ends: after the first '>' that no quoted attribute value may
    hold, or at the end of the text. A value is quoted after '=', but where a quote opens a value
    depends on what came before it, so every '=' and quote may open one: each such value reaches
    to the next quote of its kind. Every opening quote is itself the closing quote of any value
    opened before it with the same quote, so finding the values' ends reads the tag once."""
    reach, position = start, start
    close = text.find(">", start)
    while close >= 0:
        for value in _ATTRIBUTE_VALUE.finditer(text, position, close):
            value_end = text.find(value[1], value.end())
            if value_end < 0:
                return len(text)
            reach = max(reach, value_end + 1)
        if reach <= close:
            return close + 1
        position, close = close, text.find(">", reach)
    return len(text)


def _too_many_tags(text: str) -> Overrun | None:
    for count, tag in enumerate(_TAG_NAME.finditer(text), 1):
        if count > MAX_TAGS:
            return Overrun(
                tag.start(),
                f"expected at most {MAX_TAGS:,} HTML tags in one text, found more: "
                f"tag {count:,} is here",
            )
    return None


class Budget:
    """What one page, or the texts of one record file, may cost Markdown; `spend` charges each
    text in turn. The reading ahead is counted over the whole file, as a record's texts are
    rendered one by one; the other limits hold for each paragraph or text."""

    def __init__(self) -> None:
        self.read_ahead = 0

    def spend(self, text: str) -> Overrun | None:
        """The first limit `text` passes, or None. The measuring stops there, so it costs at
        most the length of the text and the reading-ahead budget."""
        for start, end in _paragraphs(text):
            overrun = (
                _too_deep(text, start, end)
                or _too_many_splits(text, start, end)
                or _too_many_marks(text, start, end)
                or self._read_ahead(
                    text,
                    _bracket_reads(text, start, end),
                    _link_reads(text, start, end),
                    _backtick_reads(text, start, end),
                )
            )
            if overrun:
                return overrun
        return self._read_ahead(text, _tag_reads(text)) or _too_many_tags(text)

    def _read_ahead(self, text: str, *reads: Iterator[tuple[int, int]]) -> Overrun | None:
        for found in reads:
            for at, distance in found:
                if self.read_ahead > MAX_READ_AHEAD:
                    return None  # already reported
                self.read_ahead += distance
                if self.read_ahead > MAX_READ_AHEAD:
                    character = text[at]
                    looking_for, advice = _LOOKING_FOR[character]
                    return Overrun(
                        at,
                        f"expected Markdown to read ahead at most {MAX_READ_AHEAD:,} characters "
                        f"in all for what closes each '[', '(', '`' and '<', found more: this "
                        f"{character!r} makes it read {distance:,} characters looking for "
                        f"{looking_for}; {advice}",
                    )
        return None


def _texts(value: Any, loc: Path_ = ()) -> Iterator[tuple[Path_, str]]:
    """Every text in a record, with where it sits, in the file's order."""
    if isinstance(value, str):
        yield loc, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(item, (*loc, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _texts(item, (*loc, index))


def _within(text: str, at: int) -> str:
    """Where `at` is in a record's text, which may start anywhere in its file."""
    where = Position.at(text, at)
    return f"line {where.line}, column {where.column} of the text"


def check_record(document: Document) -> list[Problem]:
    """Every text of a record held to one budget: each problem at its value's position. Every
    text is measured, whether a template renders it as Markdown or not, so a field that starts
    being rendered later is already held to it."""
    budget = Budget()
    problems = []
    for loc, text in _texts(document.value):
        overrun = budget.spend(text)
        if overrun:
            problems.append(
                Problem(
                    document.path,
                    document.position(loc),
                    ".".join(str(part) for part in loc),
                    f"{overrun.message} ({_within(text, overrun.at)})",
                )
            )
    return problems
