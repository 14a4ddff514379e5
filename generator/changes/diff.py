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


def facts_of(content: Path, policy: Policy) -> dict[str, ResultFacts]:
    """Every result's facts, as a build of `content` would show them. Raises ContentError."""
    site = load_site(content)
    return snapshot(site, derive_site(site, policy))


def diff(base: Path, head: Path, *, policy: Policy, base_label: str, head_label: str) -> Diff:
    before, after = facts_of(base, policy), facts_of(head, policy)
    return Diff(
        base=base_label,
        head=head_label,
        as_of=policy.as_of,
        results_before=len(before),
        results_after=len(after),
        changes=changes(before, after),
    )
