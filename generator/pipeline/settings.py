"""The one reader of a build's settings, for all three ways in (`mkdocs build`, `cloudqual build`,
`cloudqual render`): the cloudqual plugin's options in mkdocs.yml, then the environment
(CLOUDQUAL_AS_OF, CLOUDQUAL_SITE_URL, CLOUDQUAL_CACHE_DIR), then a command's flags, turned into
the `Inputs` of a build and the folder its caches live in.

An option is added in OPTIONS alone: MkDocs validates the plugin's options with it
(engines/mkdocs/options.py), `cloudqual build` checks mkdocs.yml with it, and `cloudqual render`'s
flags are laid over it by name.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from generator.model.options import Options
from generator.model.policy import (
    AS_OF_VARIABLE,
    EXPIRY_WARNING_DAYS,
    REVIEW_MAX_AGE_DAYS,
    Policy,
    parse_as_of,
)
from generator.pipeline.memo import default_cache_dir
from generator.pipeline.run import Inputs
from generator.render.output import Refused

# The published address, as mkdocs.yml reads it with `!ENV`.
SITE_URL_VARIABLE = "CLOUDQUAL_SITE_URL"
# The plugin's name in mkdocs.yml's `plugins:` (its entry point in pyproject.toml).
PLUGIN = "cloudqual"
# What a cache folder among the build's inputs is refused for (`check_apart`).
CACHE_DOING = "keep the cache in"


@dataclass(frozen=True)
class Option:
    """One of the plugin's options: the types mkdocs.yml may give it, its default, and what it
    does (the plugin's documentation)."""

    types: tuple[type, ...]
    default: object
    doc: str


OPTIONS: dict[str, Option] = {
    "content_dir": Option((str,), "content", "Folder of YAML records, relative to mkdocs.yml."),
    "templates_dir": Option(
        (str,), "templates", "Folder of Jinja templates, relative to mkdocs.yml."
    ),
    # Read as text, not with mkdocs.yml's `!ENV`: that would parse the variable as YAML, and a
    # bad date there ends in the YAML library's traceback.
    "as_of": Option(
        (str, date),
        None,
        "The date expiry and staleness are judged on, as YYYY-MM-DD. When unset, the "
        "environment's CLOUDQUAL_AS_OF; today when neither is set.",
    ),
    "expiry_warning_days": Option(
        (int,), EXPIRY_WARNING_DAYS, "Flag a result this many days before its validity ends."
    ),
    "review_max_age_days": Option(
        (int,), REVIEW_MAX_AGE_DAYS, "Flag a record whose last review is older than this."
    ),
    # Outside the project by default, where a pull request cannot place a file.
    "cache_dir": Option(
        (str,),
        None,
        "Folder for converted chart SVGs and the last build, relative to mkdocs.yml. Unset, a "
        "folder of the user's cache (`~/.cache/cloudqual/...`).",
    ),
}


class SettingsError(ValueError):
    """Settings a build cannot run with: the message names each bad one."""


@dataclass(frozen=True)
class Settings:
    """What a build is made from, and where its caches are kept."""

    inputs: Inputs
    cache_dir: Path


def _type_words(types: tuple[type, ...]) -> str:
    names = {str: "text", int: "a whole number", date: "a date"}
    return " or ".join(names.get(kind, kind.__name__) for kind in types)


def value_error(name: str, value: object) -> str | None:
    """Why `value` cannot be option `name`, or None. A bool is no whole number, though Python
    counts it as one."""
    option = OPTIONS[name]
    if value is None:
        return None
    if not isinstance(value, option.types) or isinstance(value, bool):
        return f"expected {_type_words(option.types)}, found {value!r}"
    if name == "as_of":
        try:
            parse_as_of(value)
        except ValueError as error:
            return str(error)
    return None


def option_errors(where: str, options: object) -> list[str]:
    """Every problem of the plugin's options as mkdocs.yml gives them, each naming `where`."""
    if not isinstance(options, dict):
        return [f"{where}: expected a mapping of options, found {type(options).__name__}"]
    errors = []
    for name, value in options.items():
        if name not in OPTIONS:
            known = ", ".join(OPTIONS)
            errors.append(f"{where}: unknown option {name!r}; expected one of {known}")
        elif (why := value_error(name, value)) is not None:
            errors.append(f"{where}.{name}: {why}")
    return errors


def plugin_entry(config: Mapping[str, Any]) -> dict[str, Any] | None:
    """The cloudqual plugin's options in a parsed mkdocs.yml, or None when it lists no cloudqual
    plugin. `plugins:` is a list of names and one-key mappings, or a mapping."""
    plugins = config.get("plugins", [])
    entries = (
        plugins.items()
        if isinstance(plugins, dict)
        else [
            next(iter(entry.items())) if isinstance(entry, dict) else (entry, None)
            for entry in plugins
        ]
    )
    return next((value or {} for name, value in entries if name == PLUGIN), None)


def as_of(given: object, environ: Mapping[str, str]) -> date:
    """The option (or flag), else CLOUDQUAL_AS_OF, else today: every way in judges on the same
    date. A bad value names where it came from."""
    try:
        found = parse_as_of(given)
    except ValueError as error:
        raise SettingsError(f"as_of: {error}") from None
    if found is not None:
        return found
    try:
        return parse_as_of(environ.get(AS_OF_VARIABLE)) or date.today()
    except ValueError as error:
        raise SettingsError(f"{AS_OF_VARIABLE}: {error}") from None


def read(
    config_file: Path,
    options: Mapping[str, Any],
    *,
    directory_urls: bool,
    site_url: str | None = None,
    source_links: bool = False,
    engine: str = "mkdocs",
    environ: Mapping[str, str] = os.environ,
) -> Settings:
    """The settings of a build of the project of `config_file` (its mkdocs.yml), from the
    plugin's `options` there with any flags laid over them (a folder relative to mkdocs.yml, or
    absolute), the environment, and what MkDocs' own config says. A cache folder among the
    inputs is refused (`check_apart`). Raises SettingsError or output.Refused."""
    errors = option_errors(f"{config_file}: plugins.{PLUGIN}", dict(options))
    if errors:
        raise SettingsError("\n".join(errors))
    given: dict[str, Any] = {name: option.default for name, option in OPTIONS.items()}
    given.update({name: value for name, value in options.items() if value is not None})
    root = config_file.parent
    content, templates = root / given["content_dir"], root / given["templates_dir"]
    policy = Policy(
        as_of(options.get("as_of"), environ),
        given["expiry_warning_days"],
        given["review_max_age_days"],
    )
    cache = (
        root / given["cache_dir"]
        if given["cache_dir"] is not None
        else default_cache_dir(root.resolve())
    )
    check_apart(cache, CACHE_DOING, config_file=config_file, inputs=(content, templates))
    written = Options(
        templates,
        policy,
        directory_urls=directory_urls,
        site_url=site_url or environ.get(SITE_URL_VARIABLE) or None,
        source_links=source_links,
    )
    inputs = Inputs(
        content,
        written,
        history=True,
        engine=engine,
    )
    return Settings(inputs, cache)


def check_apart(
    folder: Path,
    doing: str,
    *,
    config_file: Path,
    inputs: Iterable[Path],
    reader: str = "the build",
) -> None:
    """Refuse `folder`, which `reader` writes, if it is or holds the project's folder (that of
    `config_file`), or is, holds or sits in one of `inputs` (the content, the templates): a site
    folder there would be emptied, losing work (MkDocs refuses the same), and a cache there
    would put the build's files among the records it reads (`CLOUDQUAL_CACHE_DIR=content`, and
    the next `cloudqual check` found 285 errors). `doing` says what would be done, as in
    "refusing to {doing} {folder}". Raises output.Refused, in one line."""
    target = folder.resolve()
    read_folders = [path.resolve() for path in inputs]
    named = [
        (config_file.parent.resolve(), "the project's folder, {}"),
        *((path, f"{{}}, which {reader} reads") for path in read_folders),
    ]
    for kept, what in named:
        if kept.is_relative_to(target):
            verb = "is" if kept == target else "holds"
            raise Refused(f"refusing to {doing} {folder}: it {verb} {what.format(kept)}")
    for kept in read_folders:
        if target.is_relative_to(kept):
            raise Refused(f"refusing to {doing} {folder}: it is in {kept}, which {reader} reads")
