"""The folder `cloudqual render --out DIR` writes: a project that builds without the plugin.

    DIR/mkdocs.yml          the repository's mkdocs.yml, less the cloudqual plugin, its paths
                            pointing into DIR, the plugin's stylesheet and script added
    DIR/docs/               the generated and hand-written pages, the assets, and every data file
                            that MkDocs copies as it is (JSON, CSV, SVG, feeds, calendar)
    DIR/files/              data files that MkDocs would make pages of (the Markdown downloads)
    DIR/overrides/          the theme's custom_dir, copied from the repository
    DIR/hooks/files.py      a MkDocs hook (generator/engines/mkdocs/hook.py) that copies files/
                            into the site

`mkdocs build -f DIR/mkdocs.yml` and `properdocs build -f DIR/mkdocs.yml` (ProperDocs reads
mkdocs.yml when it is named) then write the whole site to DIR/site, data files at the URLs the
plugin gives them. A tool that runs no MkDocs hooks needs files/ copied into the site after it.

For Zensical (`engine="zensical"`, written by `cloudqual build --engine zensical`, runner.py) the
config differs in three ways: there is no hook; the project's Markdown extension (extension.py)
is listed with `engine: zensical`, to sanitize the hand-written pages; and the edit address moves
to `extra.cloudqual_edit_uri`, where the theme override of the edit button reads it. For MkDocs
the extension is left out: the folder builds where cloudqual is not installed.

Files are written only where their bytes changed, and files no render wrote are removed, so a
tool that keeps a cache by file (Zensical does) sees only what changed. That is why the folder
must be the command's own (`write`'s `marker`): absent, empty, or marked by an earlier run
(RENDER for `cloudqual render`, WORK for the Zensical build's work folder); a folder that is or
holds the project's folder, or is, holds or sits in its content or templates, is refused even if
marked. Beside what it writes (mkdocs.yml, docs/, files/, overrides/, hooks/), it touches nothing.

The config is derived from the repository's mkdocs.yml, not written out here, so the two cannot
drift: theme, palette, features, Markdown extensions, nav and validation are the repository's.
Settings that stay `!ENV` are kept as such. Two are fixed at render time instead: site_url, because
the feeds and calendar were rendered with the links `--site-url` gave them, and edit_uri, which is
dropped, because a generated page's edit link names its record, which only the plugin knows.

What the plugin adds while MkDocs runs is not in a build of this folder: the content security
policy and referrer policy of every page (csp.py), the allowlist sanitizer over hand-written pages
(pages.py) with the `rel="noopener noreferrer"` it gives their links, the emptied front matter of
every page, and edit links. Content from records is the same, escaped and sanitized when it was
rendered; a site built this way lacks the second line of defence, so publish the plugin's build.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.constructor import SafeConstructor
from ruamel.yaml.error import YAMLError
from ruamel.yaml.nodes import Node, ScalarNode, SequenceNode
from ruamel.yaml.representer import SafeRepresenter

from generator.engines import assets
from generator.engines.mkdocs import extension
from generator.pipeline.settings import check_apart
from generator.render.output import Marker, check_writable, claim

DOCS = "docs"
# generator/engines/mkdocs/hook.py names it too: the hook is copied out and imports nothing.
FILES = "files"
OVERRIDES = "overrides"
HOOK = "hooks/files.py"
PLUGIN = "cloudqual"
MKDOCS = "mkdocs"
ZENSICAL = "zensical"
EDIT_URI = "cloudqual_edit_uri"  # the setting under `extra` the Zensical edit button reads
# Where MkDocs looks for Markdown, by suffix (mkdocs.utils.markdown_extensions, MkDocs 1.6).
MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdown", ".mkdn", ".mkd"})
RENDER = Marker(
    ".cloudqual-render",
    "Written by `cloudqual render`: each render replaces mkdocs.yml, docs/, files/, overrides/ "
    "and hooks/ here. Without this file, the next render refuses the folder.\n",
)
WORK = Marker(
    ".cloudqual-work",
    "The work folder of `cloudqual build --engine zensical`: each build replaces what it holds. "
    "Delete the folder to start cold; nothing is lost.\n",
)
WRITERS = {RENDER: "`cloudqual render`", WORK: "`cloudqual build`"}


class Env:
    """A value mkdocs.yml gives as `!ENV`, which MkDocs reads from the environment at build time:
    kept as it is written."""

    def __init__(self, value: str | list[Any]) -> None:
        self.value = value


class _Constructor(SafeConstructor):
    def construct_env(self, node: Node) -> Env:
        if isinstance(node, SequenceNode):
            return Env(self.construct_sequence(node))
        assert isinstance(node, ScalarNode)
        return Env(self.construct_scalar(node))


_Constructor.add_constructor("!ENV", _Constructor.construct_env)


class _Representer(SafeRepresenter):
    def represent_env(self, env: Env) -> Node:
        if isinstance(env.value, list):
            return self.represent_sequence("!ENV", env.value, flow_style=True)
        return self.represent_scalar("!ENV", env.value)


_Representer.add_representer(Env, _Representer.represent_env)


def _yaml() -> YAML:
    yaml = YAML(typ="safe", pure=True)
    yaml.Constructor = _Constructor
    yaml.Representer = _Representer
    yaml.default_flow_style = False
    yaml.width = 100
    # Written in mkdocs.yml's order, not sorted: the config reads like the one it comes from.
    yaml.representer.sort_base_mapping_type_on_output = False
    return yaml


def read_config(path: Path) -> dict[str, Any]:
    """mkdocs.yml as plain values, each `!ENV` as an Env."""
    try:
        config = _yaml().load(path.read_text(encoding="utf-8"))
    # A value that reads as a date and is none (`as_of: 2026-13-01`) is ruamel's ValueError.
    except (YAMLError, ValueError) as error:
        raise ValueError(f"{path}: {error}") from None
    if not isinstance(config, dict):
        raise ValueError(f"{path}: expected a mapping of settings, found {type(config).__name__}")
    return config


def _without_plugin(plugins: Any) -> Any:
    """The `plugins` setting, in either of MkDocs' forms, less the cloudqual entry."""
    if isinstance(plugins, dict):
        return {name: options for name, options in plugins.items() if name != PLUGIN}
    return [
        entry
        for entry in plugins
        if entry != PLUGIN and not (isinstance(entry, dict) and PLUGIN in entry)
    ]


def _extensions(extensions: Any, engine: str) -> Any:
    """The `markdown_extensions` setting, in either of its forms, with the project's extension
    left out (MkDocs) or configured for the engine (Zensical)."""
    if isinstance(extensions, dict):
        kept: Any = {
            name: options for name, options in extensions.items() if name != extension.NAME
        }
        if engine == ZENSICAL:
            kept[extension.NAME] = {"engine": engine}
        return kept
    kept = [
        entry
        for entry in extensions
        if entry != extension.NAME and not (isinstance(entry, dict) and extension.NAME in entry)
    ]
    if engine == ZENSICAL:
        kept.append({extension.NAME: {"engine": engine}})
    return kept


def plain_config(
    source: Mapping[str, Any],
    *,
    site_url: str | None,
    directory_urls: bool,
    engine: str = MKDOCS,
) -> dict[str, Any]:
    """The repository's settings for a build of the rendered folder, without the plugin."""
    config = {key: value for key, value in source.items() if key not in ("edit_uri", "site_url")}
    if site_url is not None:
        config["site_url"] = site_url
    config["docs_dir"] = DOCS
    config["site_dir"] = "site"
    config["use_directory_urls"] = directory_urls
    theme = config.get("theme")
    if isinstance(theme, dict) and "custom_dir" in theme:
        config["theme"] = {**theme, "custom_dir": OVERRIDES}
    config["plugins"] = _without_plugin(config.get("plugins", ["search"]))
    if "markdown_extensions" in config:
        config["markdown_extensions"] = _extensions(config["markdown_extensions"], engine)
    # What the plugin's on_config appends.
    config["extra_css"] = [*config.get("extra_css", []), assets.STYLESHEET]
    config["extra_javascript"] = [*config.get("extra_javascript", []), assets.SCRIPT]
    if engine == MKDOCS:
        config["hooks"] = [*config.get("hooks", []), HOOK]
    elif source.get("edit_uri") is not None:
        # Zensical would join it to the page's path in docs/, which is not the file it was built
        # from; the edit button joins it to the file each page names (runner.EDIT_KEY).
        config["extra"] = {**config.get("extra", {}), EDIT_URI: source["edit_uri"]}
    return config


def copied_as_is(uri: str) -> bool:
    """Whether MkDocs copies a file of its docs folder to the site unchanged: it makes a page of
    Markdown, and its default exclude_docs leaves out dot files and a top-level templates/."""
    path = PurePosixPath(uri)
    return not (
        path.suffix.lower() in MARKDOWN_SUFFIXES
        or any(part.startswith(".") for part in path.parts)
        or path.parts[0] == "templates"
    )


def _sync(folder: Path, files: Mapping[str, bytes]) -> None:
    """Make `folder` hold exactly `files`: each written where its bytes differ, every other file
    removed. The folder is this command's own, so a page or file that an earlier render wrote and
    this one does not is never built as a stale page."""
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        folder.unlink()
    for root, directories, names in os.walk(folder):
        here = Path(root)
        for name in names + [d for d in directories if (here / d).is_symlink()]:
            path = here / name
            if path.relative_to(folder).as_posix() not in files or path.is_symlink():
                path.unlink()
    for uri, content in files.items():
        target = folder / uri
        try:
            if target.read_bytes() == content:
                continue
        except OSError:
            target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)


def check_out(out: Path, marker: Marker, *, project: Path, inputs: Iterable[Path]) -> None:
    """Refuse `out` unless the command `marker` names may write it (output.check_writable), and
    if it is or holds the `project` folder, or is, holds or sits in one of `inputs` (content,
    templates): `--out .` in the repository would replace its mkdocs.yml with one without the
    plugin, and later builds would lose the security policy and the sanitizer. A marker there
    proves nothing (a pull request can add any file), so these are refused first."""
    # The project's folder as settings.check_apart reads it: that of its mkdocs.yml.
    config_file = project / "mkdocs.yml"
    check_apart(out, "write into", config_file=config_file, inputs=inputs, reader="the command")
    check_writable(out, marker, writing="write into", writer=WRITERS[marker])


def claim_out(out: Path, marker: Marker, *, project: Path, inputs: Iterable[Path]) -> None:
    """Make `out` the command's own, as `check_out` allows: created, and marked."""
    check_out(out, marker, project=project, inputs=inputs)
    claim(out, marker, writing="write into", writer=WRITERS[marker])


def read_folder(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` by its path there, with its bytes."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def write(
    out: Path,
    *,
    pages: Mapping[str, bytes],
    data: Mapping[str, bytes],
    hand_written: Mapping[str, bytes],
    config_file: Path,
    site_url: str | None,
    directory_urls: bool,
    engine: str = MKDOCS,
    overrides: Mapping[str, bytes] | None = None,
    marker: Marker | None = None,
    inputs: Iterable[Path] = (),
) -> None:
    """Write the project to `out`: `pages` (pages and the assets they use), the `hand_written`
    pages and the data files MkDocs copies go to docs/, the others to files/; the config from
    `config_file`; the theme's custom_dir, with `overrides` laid over it. With a `marker`, `out`
    is first checked (`check_out`, against `inputs` and the config's folder) and claimed; without
    one, the caller owns `out`."""
    source = read_config(config_file)
    if marker is not None:
        claim_out(out, marker, project=config_file.parent, inputs=inputs)
    config = plain_config(source, site_url=site_url, directory_urls=directory_urls, engine=engine)
    docs = {
        **pages,
        **{uri: content for uri, content in data.items() if copied_as_is(uri)},
        **hand_written,
    }
    _sync(out / DOCS, docs)
    _sync(out / FILES, {uri: content for uri, content in data.items() if not copied_as_is(uri)})
    theme = source.get("theme")
    custom_dir = theme.get("custom_dir") if isinstance(theme, dict) else None
    theme_files = {}
    if isinstance(custom_dir, str):
        theme_files = read_folder(config_file.parent / custom_dir)
    _sync(out / OVERRIDES, theme_files | dict(overrides or {}))
    hooks = {}
    if engine == MKDOCS:
        hooks = {Path(HOOK).name: (Path(__file__).parent / "mkdocs" / "hook.py").read_bytes()}
    _sync(out / Path(HOOK).parent, hooks)
    if (out / "mkdocs.yml").is_symlink():  # written in the folder, never through a link
        (out / "mkdocs.yml").unlink()
    with (out / "mkdocs.yml").open("w", encoding="utf-8") as file:
        file.write(f"# Written by `cloudqual` from {config_file.name}: edit that instead.\n")
        _yaml().dump(config, file)
