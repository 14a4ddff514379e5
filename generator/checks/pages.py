"""Hand-written pages (`content/pages/`): what the folder may hold, and their HTML made safe.

These pages come from pull requests like every record, so they are held to the same rules as
record text. `check` refuses, with a position, what a sanitizer would otherwise have to remove:
raw HTML, links with a scheme other than http, https or mailto, and front matter (the theme
writes `title` and `description` from it into the page's head unescaped, and `template` picks a
theme template such as one that redirects). The folder holds Markdown pages and nothing else, so
no stranger's file can be served beside or instead of the theme's own. After MkDocs renders a
page, `sanitize` cleans it against an allowlist all the same, in case a check is ever bypassed.
"""

from __future__ import annotations

import hashlib
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import markdown
import nh3

from generator.checks.budget import Budget
from generator.escape import character_name, first_invisible
from generator.model.links import GENERATED_NAMES
from generator.problems import Position, Problem

if TYPE_CHECKING:
    from generator.load.snapshot import Store

# The Markdown extensions the site renders hand-written pages with: mkdocs.yml must list exactly
# these (a test holds it to that). attr_list is left out on purpose: it lets `{: onclick=...}`
# write any attribute, event handlers included.
EXTENSIONS = ("admonition", "tables", "toc")
PAGE_NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*\.md$")
# Real pages are a few kilobytes; a quarter of a megabyte is a book, and far from the loader's
# cost limits, so a larger page is a mistake or an attack.
MAX_PAGE_BYTES = 256 * 1024
LINK_SCHEMES = frozenset({"http", "https", "mailto"})
CLEAN = "checked: no problem"  # what a store keeps of a page checked clean
# MkDocs reads front matter as a YAML block opened by `---`, or as `key: value` lines at the top.
_FRONT_MATTER = re.compile(r"^(-{3}[ \t]*$|[ ]{0,3}[A-Za-z0-9_-]+:)", re.MULTILINE)
# A fence: the extensions above have none, so MkDocs shows one as inline code, while Zensical
# always adds its own fences and shows a code block. An indented block reads the same in both.
# A fence in a quote (`> ```) counts too.
_FENCE = re.compile(r"^[ \t>]*(`{3,}|~{3,})", re.MULTILINE)
# A comment as a browser reads it: `<!-->` and `<!--->` end where they start, so what follows
# them is markup, not comment.
_COMMENT = re.compile(r"^<!--(?!-?>)")
_ENTITY = re.compile(r"^&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);$")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufdd0-\ufdef\ufffe\uffff]")

_TAGS = {
    "h1", "h2", "h3", "h4", "h5", "h6", "p", "a", "em", "strong", "code", "pre", "ul", "ol", "li",
    "blockquote", "br", "hr", "table", "thead", "tbody", "tr", "th", "td", "div", "sup", "sub",
}  # fmt: skip
_ATTRIBUTES = {
    **{f"h{level}": {"id"} for level in range(1, 7)},
    "a": {"href", "title"},
    "th": {"style"},
    "td": {"style"},
}
# Classes the extensions write: toc's permalink, admonition's box and title.
_CLASSES = {
    "a": {"headerlink"},
    "div": {"admonition", "note", "tip", "info", "warning", "danger", "example", "quote"},
    "p": {"admonition-title"},
}
# A heading id may not shadow the theme's own elements, which all start with "__" (`__config`
# holds its settings), so an id is a plain slug.
_SLUG = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


def _attribute(element: str, attribute: str, value: str) -> str | None:
    if attribute == "id":
        return value if _SLUG.match(value) else None
    return value


def sanitize(page_html: str) -> str:
    """A hand-written page's rendered HTML, held to the allowlist."""
    return nh3.clean(
        page_html,
        tags=_TAGS,
        attributes=_ATTRIBUTES,
        allowed_classes=_CLASSES,
        attribute_filter=_attribute,
        filter_style_properties={"text-align"},
        url_schemes=set(LINK_SCHEMES),
        link_rel="noopener noreferrer",
    )


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.targets: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.targets += [value for name, value in attrs if name in ("href", "src") and value]


def _position(text: str, needle: str) -> Position:
    at = text.find(needle)
    if at < 0:
        return Position(1, 1)
    return Position.at(text, at)


def _shown(fragment: str) -> str:
    fragment = " ".join(fragment.split())
    return fragment if len(fragment) <= 60 else fragment[:57] + "..."


def check_page(shown: str, raw: bytes) -> list[Problem]:
    """Every problem in one hand-written page: text, front matter, raw HTML, link schemes."""
    if len(raw) > MAX_PAGE_BYTES:
        return [_too_large(shown, raw)]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return [_not_utf8(shown, raw, error)]
    problems = [
        *_control_character(shown, text),
        *_invisible_character(shown, text),
        *_front_matter(shown, text),
        *_fence(shown, text),
    ]
    # Rendering is how the rest is checked, and some Markdown costs time that grows with the
    # square of its size: a page over the budget is refused unread, as MkDocs would take hours.
    if over := _over_budget(shown, text):
        return [*problems, *over]
    renderer = markdown.Markdown(extensions=list(EXTENSIONS))
    rendered = renderer.convert(text)
    return [*problems, *_raw_html(shown, text, renderer), *_link_schemes(shown, text, rendered)]


def _too_large(shown: str, raw: bytes) -> Problem:
    return Problem(
        shown,
        Position(1, 1),
        "",
        f"expected a page of at most {MAX_PAGE_BYTES} bytes, found {len(raw)}",
    )


def _not_utf8(shown: str, raw: bytes, error: UnicodeDecodeError) -> Problem:
    before = raw[: error.start]
    line, column = before.count(b"\n") + 1, error.start - (before.rfind(b"\n") + 1) + 1
    found = f"the byte 0x{raw[error.start]:02x}"
    return Problem(shown, Position(line, column), "", f"expected UTF-8 text, found {found}")


def _control_character(shown: str, text: str) -> list[Problem]:
    if not (control := _CONTROL.search(text)):
        return []
    return [
        Problem(
            shown,
            _position(text, control[0]),
            "",
            f"expected printable text, found the control character U+{ord(control[0]):04X}",
        )
    ]


def _invisible_character(shown: str, text: str) -> list[Problem]:
    # A character that shows nothing, or turns the text around it (U+202E), has no place in a
    # page a reader must be able to read as written. A leading byte order mark is MkDocs' to drop.
    if (hidden := first_invisible(text.removeprefix("\ufeff"))) is None:
        return []
    place, character = hidden
    at = place if not text.startswith("\ufeff") else place + 1
    return [
        Problem(
            shown,
            Position.at(text, at - 1),
            "",
            f"expected visible text, found {character_name(character)}, which shows "
            "nothing or changes the direction of the text around it",
        )
    ]


def _front_matter(shown: str, text: str) -> list[Problem]:
    # MkDocs drops a byte order mark and reads a lone carriage return as a line end before it
    # looks for front matter; so does the check.
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if not _FRONT_MATTER.match(lines):
        return []
    return [
        Problem(
            shown,
            Position(1, 1),
            "",
            "expected the page to start with its Markdown, found front matter; "
            "hand-written pages take no metadata (start with '# Title')",
        )
    ]


def _fence(shown: str, text: str) -> list[Problem]:
    if not (fence := _FENCE.search(text)):
        return []
    return [
        Problem(
            shown,
            Position.at(text, fence.start(1)),
            "",
            f"expected a code block indented by four spaces (eight in a list item), found a "
            f"fence {fence[1]!r}, which the site's Markdown does not read",
        )
    ]


def _over_budget(shown: str, text: str) -> list[Problem]:
    overrun = Budget().spend(text)
    if overrun is None:
        return []
    return [Problem(shown, Position.at(text, overrun.at), "", overrun.message)]


def _raw_html(shown: str, text: str, renderer: markdown.Markdown) -> list[Problem]:
    """The raw HTML blocks the render set aside, but for entities and comments."""
    problems = []
    for fragment in renderer.htmlStash.rawHtmlBlocks:
        fragment = str(fragment)
        if _ENTITY.match(fragment) or _COMMENT.match(fragment.lstrip()):
            continue
        problems.append(
            Problem(
                shown,
                _position(text, fragment.strip()),
                "",
                f"expected Markdown, found raw HTML {_shown(fragment)!r}; "
                "write it in Markdown, or in a code span if it is an example",
            )
        )
    return problems


def _link_schemes(shown: str, text: str, rendered: str) -> list[Problem]:
    links = _Links()
    links.feed(rendered)
    problems = []
    for target in links.targets:
        scheme = urlsplit(target).scheme.lower()
        if scheme and scheme not in LINK_SCHEMES:
            problems.append(
                Problem(
                    shown,
                    _position(text, target),
                    "",
                    f"expected a link to an http, https or mailto address, or a relative one, "
                    f"found the scheme {scheme}:",
                )
            )
    return problems


def check_pages(
    files: list[Path], folder: Path, shown_root: Path, stored: Store | None = None
) -> list[Problem]:
    """Every problem in the hand-written page folder: unexpected files, then each page's own.
    `stored` keeps, across processes, which pages' bytes were checked and found clean: a page
    is checked again only when it changes (or the code does: the store's keys hold its
    version)."""
    problems = []
    for path in files:
        shown = path.relative_to(shown_root).as_posix()
        relative = path.relative_to(folder)
        if len(relative.parts) != 1 or not PAGE_NAME.match(path.name):
            problems.append(
                Problem(
                    shown,
                    Position(1, 1),
                    "",
                    "expected a Markdown page named in kebab-case, such as "
                    f"content/pages/methodology.md, directly in the folder, found {relative}",
                )
            )
        elif path.name.removesuffix(".md") in GENERATED_NAMES:
            problems.append(
                Problem(
                    shown,
                    Position(1, 1),
                    "",
                    f"expected a name the site does not generate, found {path.name}, "
                    "which would hide a generated page or folder",
                )
            )
        else:
            problems += _checked(shown, path.read_bytes(), stored)
    return problems


def _checked(shown: str, raw: bytes, stored: Store | None) -> list[Problem]:
    key = "page " + hashlib.sha256(raw).hexdigest()
    if stored is not None and stored.get(key) == CLEAN:
        return []
    found = check_page(shown, raw)
    if stored is not None and not found:
        stored.put(key, CLEAN)
    return found
