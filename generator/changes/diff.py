"""Two content trees in, what changed for a buyer out: each tree loaded and checked as a build
loads it, its facts derived under one policy, and the two snapshots compared."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from generator.changes.compare import changes
from generator.changes.report import Diff
from generator.changes.result_facts import ResultFacts, snapshot
from generator.checks.loader import load_site
from generator.derive.site_facts import derive_site
from generator.model.policy import Policy
from generator.model.site import Site
from generator.problems import ContentError


class Refused(Exception):
    """One of the two trees does not pass the checks, so the two were not compared."""

    def __init__(self, name: str, error: ContentError) -> None:
        self.name = name
        self.problems = error.problems
        super().__init__(f"the content of {name} does not pass the checks\n{error}")


def facts_of(content: Path, policy: Policy) -> dict[str, ResultFacts]:
    """Every result's facts, as a build of `content` would show them. Raises ContentError."""
    site = load_site(content)
    return snapshot(site, derive_site(site, policy))


def _site_or_refuse(content: Path, name: str) -> Site:
    try:
        return load_site(content)
    except ContentError as error:
        raise Refused(name, error) from error


# Every page a build of a content folder's site shows, by its path, as Markdown: what a reader
# reads, the hand-written pages included.
Pages = Callable[[Path, Site], dict[str, str]]


def diff(
    base: Path,
    head: Path,
    *,
    policy: Policy,
    base_label: str,
    head_label: str,
    pages: Pages | None = None,
) -> Diff:
    """Raises Refused, naming the tree, when either does not pass the checks. With `pages`,
    the two builds' pages are compared too, so a change no result's facts show (a
    hand-written page, a program's statement, a provider's) is still named, and "nothing
    changed" is said only of two builds whose every page reads the same."""
    sites = _site_or_refuse(base, base_label), _site_or_refuse(head, head_label)
    before, after = (snapshot(site, derive_site(site, policy)) for site in sites)
    changed: list[str] = []
    if pages is not None:
        old, new = pages(base, sites[0]), pages(head, sites[1])
        changed = sorted(uri for uri in old.keys() | new.keys() if old.get(uri) != new.get(uri))
    return Diff(
        base=base_label,
        head=head_label,
        as_of=policy.as_of,
        results_before=len(before),
        results_after=len(after),
        changes=changes(before, after),
        pages=changed,
    )
