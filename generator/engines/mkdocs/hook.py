"""The MkDocs hook that `cloudqual render --out DIR` writes into its project (see project.py).

It is copied there as it is, so it imports nothing of cloudqual: the folder builds where cloudqual
is not installed. After the build it copies the `files/` folder beside mkdocs.yml into the site,
byte for byte. Those are the data files that MkDocs would otherwise make pages of (the Markdown
downloads); so they keep their URLs, as under the plugin, which writes its data files after MkDocs.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig


def on_post_build(*, config: MkDocsConfig) -> None:
    files = Path(config.config_file_path).parent / "files"
    if files.is_dir():
        shutil.copytree(files, config.site_dir, dirs_exist_ok=True)
