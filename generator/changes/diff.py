"""Two content trees in, what changed for a buyer out: each tree loaded and checked as a build
loads it, its facts derived under one policy, and the two snapshots compared."""

from __future__ import annotations

from pathlib import Path

from generator.changes.compare import changes
from generator.changes.report import Diff
from generator.changes.snapshot import ResultFacts, snapshot
from generator.checks.loader import load_site
from generator.derive.site_facts import derive_site
from generator.model.policy import Policy
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


def _facts_or_refuse(content: Path, policy: Policy, name: str) -> dict[str, ResultFacts]:
    try:
        return facts_of(content, policy)
    except ContentError as error:
        raise Refused(name, error) from error


def diff(base: Path, head: Path, *, policy: Policy, base_label: str, head_label: str) -> Diff:
    """Raises Refused, naming the tree, when either does not pass the checks."""
    before = _facts_or_refuse(base, policy, base_label)
    after = _facts_or_refuse(head, policy, head_label)
    return Diff(
        base=base_label,
        head=head_label,
        as_of=policy.as_of,
        results_before=len(before),
        results_after=len(after),
        changes=changes(before, after),
    )
