"""How one build writes the site, besides its records: the templates, the policy its dates are
judged by, the shape of its links and the address it is published at.

One value, read once by the settings reader (pipeline/settings.py) for every way in, and handed
to the stages that write: the renderer's pages and the published data files.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.model.policy import Policy


@dataclass(frozen=True)
class Options:
    """How the pages and files of one build are written."""

    templates_dir: Path
    policy: Policy
    # page/ rather than page.html, as MkDocs' use_directory_urls.
    directory_urls: bool = True
    # The published address: the feeds' and the calendar's links are absolute under it.
    site_url: str | None = None
    # Links from one Markdown file to another, as Zensical reads them.
    source_links: bool = False
