"""Where each page lives and how pages link to each other, as MkDocs lays a site out.

Links inside generated HTML are written relative, so the site works under any base path, such as a
GitHub Pages project folder.
"""

from __future__ import annotations

import posixpath

# The section folder of each record kind that has its own pages.
SECTIONS = {
    "validations": "validations",
    "providers": "providers",
    "programs": "programs",
    "platforms": "platforms",
}


def record_uri(kind: str, record_id: str) -> str:
    return f"{SECTIONS[kind]}/{record_id}.md"


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
        "trial-checklists",
        "charts",
        "downloads",
        "api",
        "feeds",
        "workloads",
        "pairs",
        "schemas",
        "assets",
        "search",
        "404",
        "sitemap",
    }
)
