"""Plain text placed into another format, escaped for that format: every output escapes for
itself, whatever the page around it escapes.

- `markdown_literal`: a name or value inside Markdown, such as a submitter's folder name in a
  claim, a location in a checklist item, or a title in a Markdown download, reads as the same
  text and never as a link, an image, emphasis, code or HTML;
- `markdown_download`: a Markdown field (a checklist's own wording) put into a download, which
  a reader's tool renders without the site's sanitizer: its HTML is shown, never run;
- `csv_cell`: a CSV cell a spreadsheet shows as text, never runs as a formula;
- `visible`: characters that show nothing, or turn the text around them (U+200B, U+202E), shown
  as their code point; `first_invisible` finds one, for the check that refuses them in names.
"""

from __future__ import annotations

import functools
import html
import re
import unicodedata
from itertools import compress

# The characters that start an inline construct: code, emphasis, links and images, attr_list
# braces, and the backslash itself. Parentheses alone make nothing without brackets.
_INLINE = re.compile(r"([\\`*\[\]!{}])")
# An underscore at a word's edge starts emphasis; inside a word (nebius_h200_n64) it does not.
_EDGE_UNDERSCORE = re.compile(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
# What makes a line a block when it starts one: a heading, a list item, a quote, a rule or
# table row, a numbered item ("1." or "1)").
_BLOCK_START = re.compile(r"^([#>+=|-]|\d+[.)])")


def markdown_literal(text: str) -> str:
    """Plain text as Markdown that renders as the same text: on one line, HTML escaped, and each
    character that could start a Markdown construct escaped."""
    text = html.escape(visible(" ".join(text.split())), quote=False)
    text = _INLINE.sub(r"\\\1", text)
    text = _EDGE_UNDERSCORE.sub(r"\\_", text)
    # A numbered item is escaped at its dot, which Markdown escapes; a digit it does not.
    return _BLOCK_START.sub(_escape_start, text, count=1)


def _escape_start(match: re.Match[str]) -> str:
    start = match[1]
    return f"{start[:-1]}\\{start[-1]}" if start[0].isdigit() else f"\\{start}"


def markdown_download(text: str) -> str:
    """A Markdown field as a download carries it: its Markdown kept, its HTML and images made
    text, and a link whose address is not http, https, mailto or relative made text too, since
    a tool that renders the download does not sanitize it as the site does. Only the angle
    brackets are escaped: an entity already in the text (a value `markdown_literal` escaped)
    stays one, and renders as text."""
    text = visible(text).replace("<", "&lt;").replace(">", "&gt;")
    # No image at all: a checklist needs none, and one would load from its host when opened.
    text = text.replace("![", "!\\[")
    text = _INLINE_LINK.sub(_unlinked, text)
    return _REFERENCE.sub(_unreferenced, text)


_SAFE_SCHEMES = frozenset({"http", "https", "mailto"})
# `](address` of an inline link or image, and `[label]: address` of a reference definition.
_INLINE_LINK = re.compile(r"\]\((?P<address>[^)\n]*)")
_REFERENCE = re.compile(r"^(?P<label>[ ]{0,3}\[[^\]\n]+\]):(?P<address>.*)$", re.MULTILINE)
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
# What a renderer skips or decodes before it reads an address's scheme: entities (CommonMark
# decodes them in addresses), spaces, control characters and angle brackets.
_UNREAD = re.compile(r"[\x00-\x20<>]|&lt;|&gt;")


def _unsafe(address: str) -> bool:
    read = _UNREAD.sub("", html.unescape(html.unescape(address)))
    scheme = _SCHEME.match(read)
    return scheme is not None and scheme[1].lower() not in _SAFE_SCHEMES


def _unlinked(match: re.Match[str]) -> str:
    return "]\\(" + match["address"] if _unsafe(match["address"]) else match[0]


def _unreferenced(match: re.Match[str]) -> str:
    if not _unsafe(match["address"]):
        return match[0]
    # An entity, not a backslash: Markdown does not escape a colon, and `&#58;` reads as one.
    return f"{match['label']}&#58;{match['address']}"


# What a spreadsheet takes for the start of a formula (OWASP, "CSV Injection"), in the ASCII
# forms and the full-width forms some spreadsheets read as the same.
_FORMULA = frozenset("=+-@\uff1d\uff0b\uff0d\uff20")
# What a spreadsheet skips before it looks: spaces of every kind and line breaks.
_LEADING = re.compile(r"^[\s\u00a0\u3000\u2000-\u200b\ufeff]*")
_NUMBER = re.compile(r"^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def csv_cell(text: str) -> str:
    """A CSV cell a spreadsheet shows as text: a cell whose first character after any blanks
    starts a formula, or that starts with a tab, carriage return or line break, is prefixed with
    an apostrophe. A number (-85.26) is left a number."""
    if _NUMBER.match(text):
        return text
    rest = _LEADING.sub("", text, count=1)
    starts_formula = bool(rest) and rest[0] in _FORMULA
    starts_control = bool(text) and text[0] in "\t\r\n"
    return "'" + text if starts_formula or starts_control else text


# Characters that show nothing but are not spaces: format characters (zero-width spaces and
# joiners, soft hyphens, byte-order marks, direction marks, overrides and isolates, tag
# characters), and the fillers and variation selectors that render as nothing. In a name they
# make two names look alike, or reorder what a reader sees.
_FILLERS = frozenset({0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0})


def _is_invisible(character: str) -> bool:
    code = ord(character)
    return (
        unicodedata.category(character) == "Cf"
        or code in _FILLERS
        or 0xFE00 <= code <= 0xFE0F
        or 0xE0100 <= code <= 0xE01EF
    )


@functools.cache
def _invisible() -> re.Pattern[str]:
    """One character class of every invisible character: a page holds tens of thousands of
    strings, and a regular expression looks at each character in C where a loop in Python
    asked `unicodedata` of each. Built on first use from this Python's Unicode tables, in the
    planes that hold format characters and selectors (0, 1 and 14; the others hold ideographs,
    private use or nothing), which a test checks against every code point."""
    # The categories are read in C (map, compress), not a Python call a code point: a build
    # pays for this once a process, and the loop cost it 0.08 s where this costs 0.05.
    codes = (*range(0x20000), *range(0xE0000, 0xF0000))
    formats = compress(codes, map("Cf".__eq__, map(unicodedata.category, map(chr, codes))))
    selectors = (*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0))
    spans: list[list[int]] = []
    for code in sorted({*formats, *_FILLERS, *selectors}):
        if spans and spans[-1][1] == code - 1:
            spans[-1][1] = code
        else:
            spans.append([code, code])
    ranges = "".join(f"\\U{first:08x}-\\U{last:08x}" for first, last in spans)
    return re.compile(f"[{ranges}]")


def first_invisible(text: str) -> tuple[int, str] | None:
    """The first invisible character of `text` and its 1-based place, or None."""
    if text.isascii():  # no ASCII character is invisible; most text is ASCII
        return None
    found = _invisible().search(text)
    return None if found is None else (found.start() + 1, found[0])


def visible(text: str) -> str:
    """`text` with each invisible character shown as its code point, [U+200B]: a reader sees
    that it is there, and it turns nothing around."""
    if text.isascii():
        return text
    return _invisible().sub(lambda found: f"[U+{ord(found[0]):04X}]", text)


def character_name(character: str) -> str:
    return f"U+{ord(character):04X} {unicodedata.name(character, 'unnamed')}"


def code_span(text: str, limit: int) -> str:
    """Untrusted text as a Markdown code span, for a comment or an issue on GitHub: shown as it
    is, on one line, at most `limit` characters, with every invisible character named, and
    pinging or linking nothing."""
    text = visible(" ".join(text.split()))
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    if not text:
        return "(empty)"
    # A fence longer than any run of backticks inside; padded when the text starts or ends
    # with one, which CommonMark then strips.
    fence = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text[0] == "`" or text[-1] == "`" else ""
    return f"{fence}{pad}{text}{pad}{fence}"
