"""The generated pages and the theme's assets, added to MkDocs' files."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files

    from generator.render.output import Page


def add_generated(
    files: Files, config: MkDocsConfig, pages: dict[str, Page], assets: dict[str, bytes]
) -> Files:
    # Both resolved: `mkdocs build -f mkdocs.yml` gives a relative config path.
    root = Path(config.config_file_path).resolve().parent
    docs_prefix = Path(config.docs_dir).resolve().relative_to(root)
    for file in files:  # hand-written pages: edit links name their repository path
        file.edit_uri = (docs_prefix / file.src_uri).as_posix()
    for uri, page in pages.items():
        if files.get_file_from_path(uri) is not None:
            raise PluginError(f"cloudqual: {docs_prefix / uri} would hide a generated page")
        generated = File.generated(config, uri, content=page.markdown)
        generated.edit_uri = page.edit_path
        files.append(generated)
    for uri, content in assets.items():
        files.append(File.generated(config, uri, content=content))
    return files


def written_by_mkdocs(files: Files, config: MkDocsConfig) -> set[str]:
    """Every path MkDocs will write in the site folder: its files', its theme's templates' and
    the compressed sitemap. (The search plugin's index, written at the build's end, is under
    `search/`, where the build writes nothing.)"""
    templates = set(config.theme.static_templates)
    return {file.dest_uri for file in files} | templates | {"sitemap.xml.gz"}
