"""What a render makes: Markdown pages and data files. A module of its own, free of the rendering
code, so the plugin can hold a remembered build without importing what makes one."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Page:
    """One generated page: where it goes, its Markdown, and the content file it comes from."""

    uri: str
    markdown: str
    edit_path: str | None


@dataclass(frozen=True)
class Output:
    """Everything the site is made of: Markdown pages, and data files served as they are."""

    pages: dict[str, Page]
    data: dict[str, bytes]
    # Each page with the signature of its inputs, for the next render to reuse it by.
    signed: dict[str, tuple[str, Page]] = field(default_factory=dict, compare=False)
