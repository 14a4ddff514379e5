"""Where each page lives and how pages link to each other, as MkDocs lays a site out.

Links inside generated HTML are written relative, so the site works under any base path, such as a
GitHub Pages project folder.
"""

from __future__ import annotations

import hashlib
import posixpath
import re

# The section folder of each record kind that has its own pages.
SECTIONS = {
    "validations": "validations",
    "providers": "providers",
    "programs": "programs",
    "platforms": "platforms",
}


# The name a record's page may not take in its section: the section's own index.
RESERVED_IDS = frozenset({"index"})
# A chip's page name is cut to this many characters, and then told apart by a hash of the whole
# name: chip names are free text, and a file name past 255 bytes cannot be written.
CHIP_SLUG_LENGTH = 40


def chip_name(chip: str) -> str:
    """A chip's name as the site groups results by it: " B300" is the B300, spaces and all."""
    return " ".join(chip.split())


def slug(text: str) -> str:
    """Text as a page name or an HTML id: lower-case letters, digits and single hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def chip_slug(chip: str) -> str:
    """The page name of a chip under workloads/; "" for a name with no letter or digit."""
    name = slug(chip_name(chip))
    if len(name) <= CHIP_SLUG_LENGTH:
        return name
    digest = hashlib.sha256(chip_name(chip).encode("utf-8")).hexdigest()[:8]
    return f"{name[:CHIP_SLUG_LENGTH].strip('-')}-{digest}"


def record_uri(kind: str, record_id: str) -> str:
    return f"{SECTIONS[kind]}/{record_id}.md"


def checklist_download(validation_id: str, checklist_id: str, suffix: str) -> str:
    """Where a validation's open checklist items are downloaded: a folder per validation. Joined
    with a hyphen, which ids may hold, validation `a-b` with checklist `c` and validation `a`
    with checklist `b-c` would write the same file; a slash no id can hold."""
    return f"downloads/{validation_id}/{checklist_id}.{suffix}"


def page_url(uri: str, directory_urls: bool) -> str:
    """The URL path a Markdown page is served at, as MkDocs lays it out."""
    stem = uri.removesuffix(".md")
    if not directory_urls:
        return stem + ".html"
    if stem == "index" or stem.endswith("/index"):
        return stem.removesuffix("index")
    return stem + "/"


def relative_url(here: str, target: str, directory_urls: bool) -> str:
    """A link from page `here` to page `target`, relative so the site works under any base path."""
    here_url, target_url = page_url(here, directory_urls), page_url(target, directory_urls)
    base = here_url if here_url.endswith("/") or not here_url else posixpath.dirname(here_url)
    relative = posixpath.relpath(target_url or ".", base.rstrip("/") or ".")
    if target_url.endswith("/") or not target_url:
        relative = "./" if relative == "." else relative + "/"
    return relative


def relative_file(here: str, path: str, directory_urls: bool) -> str:
    """A link from page `here` to a file (not a page) at `path` from the site's root."""
    return "../" * page_url(here, directory_urls).count("/") + path


def source_link(here: str, target: str) -> str:
    """A link from page `here` to page `target`, written from one Markdown file to another.

    Zensical resolves every relative link in a page, raw HTML included, from the folder of the
    page's Markdown file, and turns a link to a `.md` file into that page's URL; MkDocs leaves
    raw HTML as it is. Pages rendered for Zensical link this way, and the engine lays them out."""
    return posixpath.relpath(target, posixpath.dirname(here) or ".")


# Zensical takes every link whose path ends in `.md` for a link to a page, whatever its scheme or
# encoding: it warns that the page does not exist and rewrites the link to a page URL. So a link
# to a Markdown download is written behind this made-up scheme and without its `.md`, which
# Zensical leaves alone, already relative to the page's URL; the build gives it back its form once
# Zensical has run (runner.finish). Record and page text never carries the scheme: a source's URL
# is http or https, and a hand-written page's links may take no other.
FILE_SCHEME = "cloudqual-file:"


def source_file(here: str, path: str) -> str:
    """A link from page `here` to a file (not a page) at `path`, written from the Markdown file's
    folder, as `source_link` writes links to pages."""
    if path.endswith(".md"):
        return FILE_SCHEME + relative_file(here, path.removesuffix(".md"), directory_urls=True)
    return posixpath.relpath(path, posixpath.dirname(here) or ".")


def safe_path(uri: str, suffix: str | None = None) -> str:
    """Refuse any output path that could land outside the output folder."""
    normal = posixpath.normpath(uri)
    unsafe = normal != uri or uri.startswith(("/", "../")) or "\\" in uri or ":" in uri
    if unsafe or (suffix is not None and not uri.endswith(suffix)):
        raise ValueError(f"unsafe output path {uri!r}")
    return uri


# The top-level names the site generates (pages, and folders of pages and files), and the theme's
# own; a hand-written page under one of them would hide or mix with generated output. A test
# holds this to what `render` writes.
GENERATED_NAMES = frozenset(
    {
        *SECTIONS.values(),
        "index",
        "compare",
        "case-studies",
        "checklist",
        "data",
        "changelog",
        "glossary",
        "trial-checklists",
        "charts",
        "downloads",
        "api",
        "feeds",
        "workloads",
        "figures",
        "concerns",
        "pairs",
        "schemas",
        "assets",
        "search",
        "404",
        "sitemap",
    }
)
