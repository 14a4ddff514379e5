"""The one pipeline both engines call: load and check the records, derive the site's facts,
publish the API's documents, render the pages and charts.

`build` puts the remembered build (memo.py) in front of it: when no input has changed, the last
build's output is returned and nothing is loaded. The MkDocs plugin, `cloudqual build --engine
zensical` and `cloudqual render` all come through here, so the stages run in one order, once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.changes.revisions import Revisions, revisions
from generator.model.options import Options
from generator.pipeline.memo import (
    Kept,
    Memo,
    Remembered,
    Snapshots,
    TemplateCode,
    code_version,
    fingerprint,
)
from generator.render.output import Output, Page
from generator.render.reuse import Reuse

# The stages are imported where they run: a build the memo answers needs none of them, and
# loading Jinja, the Markdown library and the API's models costs a cold start more than the
# remembered build does.
if TYPE_CHECKING:
    from generator.changes.history import History
    from generator.checks.loader import Read
    from generator.model.site import Site
    from generator.render.svg import SvgStore


@dataclass(frozen=True)
class Inputs:
    """What a build is made from, besides the code: the content folder and how it is written."""

    content_dir: Path
    options: Options
    # Read the content folder's git history for the changelog (changes/history.py).
    history: bool = False
    # The way in (mkdocs, zensical, render): each remembers its own last build.
    engine: str = "mkdocs"

    @cached_property
    def revisions(self) -> Revisions | None:
        """The content folder's commits, when the build reads its history: none dated after
        the build's date."""
        return revisions(self.content_dir, self.options.policy.as_of) if self.history else None

    @cached_property
    def key(self) -> str | None:
        """The remembered build's key, made once (it reads every input file): None when a file
        cannot be read, so the build goes on to the loader, which says why."""
        given, policy = self.options, self.options.policy
        options: dict[str, Any] = {
            "engine": self.engine,
            "as_of": policy.as_of.isoformat(),
            "expiry_warning_days": policy.expiry_warning_days,
            "review_max_age_days": policy.review_max_age_days,
            "directory_urls": given.directory_urls,
            "site_url": given.site_url,
            "source_links": given.source_links,
            # A new commit of the content is a new changelog, though no file may differ.
            "history": None
            if self.revisions is None
            else [[commit, day.isoformat()] for commit, day in self.revisions.commits]
            + [self.revisions.why],
        }
        return fingerprint(self.content_dir, given.templates_dir, options)


@dataclass
class Caches:
    """What one build may reuse of another, as one value: the remembered build (`memo`), the
    converted charts (`svg`), and what this process has already read (`known`, each file by its
    path and bytes) and rendered (`previous`, each page with its signature). The stores live in
    one cache folder (`at`); the loader, the history reader and the renderer each keep their
    part there, under the memo's folder. `build` hands the core only what a render may reuse
    (render/reuse.py `Reuse`), never the caches themselves."""

    memo: Memo
    svg: SvgStore
    known: dict[tuple[str, str, str, bytes], Read] = field(default_factory=dict)
    previous: dict[str, tuple[str, Page]] | None = None

    @classmethod
    def at(cls, folder: Path, memo: str | None = None) -> Caches:
        """The caches of the cache folder `folder`; `memo`, a folder of it for this way in's
        remembered build."""
        from generator.render.svg import SvgStore

        return cls(Memo(folder / memo if memo else folder), SvgStore(folder))


def build(
    inputs: Inputs,
    caches: Caches,
    *,
    say: Callable[[str], None],
    later: bool = False,
) -> tuple[Remembered, bool]:
    """The site's output and content warnings, and whether they are the remembered build's.
    A new build is not remembered here: the caller decides when (the plugin, under `mkdocs
    serve`, off the rebuild; the Zensical path only without warnings), under `inputs.key`.
    `later`: the pages are made first, and `output.complete()` makes the rest: the data files,
    and the charts the cache lacks. Raises ContentError."""
    memo, key = caches.memo, inputs.key
    remembered = memo.get(key) if key is not None else None
    if remembered is not None:
        return remembered, True
    if memo.refused is not None:
        why = f"cloudqual: the remembered build was not used: {memo.refused}"
        say(f"{why}; the site is built in full")
    from generator.checks.loader import load_site

    snapshots = Snapshots(memo.folder)  # in the cache folder, as the memo
    site = load_site(inputs.content_dir, known=caches.known, stored=snapshots)
    snapshots.prune()
    # A new process (every `mkdocs build` after an edit) has no pages of its own yet: the
    # remembered build's pages serve, each reused where its signature is unchanged.
    previous = caches.previous or memo.last()
    history = None
    if inputs.revisions is not None:
        from generator.changes.history import history as read_history

        kept = Kept(memo.folder, "history")  # in the cache folder, as the memo
        history = read_history(inputs.revisions, kept)
        kept.prune()
    code = TemplateCode(memo.folder)  # in the cache folder, as the memo
    reuse = Reuse(previous or {}, caches.svg, code)
    output = site_output(site, inputs.options, history=history, reuse=reuse, later=later)
    from generator.render.bytecode import KEY

    code.keep(KEY)  # though no template was loaded: all of this build's pages reused
    code.prune()
    return Remembered(output, [str(warning) for warning in site.warnings]), False


def page_texts(content_dir: Path, site: Site, options: Options) -> dict[str, str]:
    """Every page a build of `site` (loaded from `content_dir`) shows, as Markdown by its path,
    the hand-written pages too: what `cloudqual diff` compares. No chart is drawn and no data
    file made beyond those the pages quote."""
    from generator.checks.loader import hand_written_pages

    output = site_output(site, options, later=True)
    pages = {uri: page.markdown for uri, page in output.pages.items()}
    for path in hand_written_pages(content_dir):
        pages[path.name] = path.read_text(encoding="utf-8", errors="replace")
    return pages


def site_output(
    site: Site,
    options: Options,
    *,
    history: History | None = None,
    reuse: Reuse | None = None,
    later: bool = False,
) -> Output:
    """Every generated page and data file of the site, by its path in the output, written as
    `options` say. `history`, the content's commits compared, makes the changelog; without it,
    the changelog says it has none. `reuse`: what earlier builds made that this one may take
    (render/reuse.py). `later`: the pages are made first, from the data files the data page
    quotes; the output's `complete()` makes the others, and draws the charts the store lacks
    (engines/session.py runs it beside MkDocs)."""
    from generator.derive.site_facts import derive_site
    from generator.model.links import safe_path
    from generator.publish import api
    from generator.publish.data_files import build_data, quoted_data
    from generator.render.renderer import Renderer
    from generator.render.svg import SvgStore

    reuse = reuse or Reuse()
    facts = derive_site(site, options.policy)
    renderer = Renderer(
        site, options, facts=facts, history=history, reuse=reuse, code=code_version()
    )
    store = reuse.svg or SvgStore(None)
    charts = renderer.chart_files(store, later=later)
    store.prune()  # this is the whole site: what it did not use, no build needs

    def data_files() -> dict[str, bytes]:
        return build_data(
            site,
            facts,
            directory_urls=options.directory_urls,
            site_url=options.site_url,
            history=history,
        )

    def served(files: dict[str, bytes]) -> dict[str, bytes]:
        return {safe_path(uri): content for uri, content in files.items()}

    if later:
        # The pages need only what the data page quotes; the rest is made once they are.
        quoted = quoted_data(
            site, facts, directory_urls=options.directory_urls, site_url=options.site_url
        )
        data = charts
    else:
        data = quoted = data_files() | charts
    pages = renderer.render(api.examples(site, quoted))
    renderer.keep_code()
    signed = {uri: (renderer.signatures[uri], page) for uri, page in pages.items()}
    output = Output(pages, served(data), signed)
    if later:
        output.later.append(lambda: served(data_files()))
    if store.pending:
        output.later.append(lambda: served(store.finish()))
    return output
