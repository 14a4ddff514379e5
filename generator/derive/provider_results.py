"""A provider's results side by side: under each program, a gap where it has none, and where
its current results for one platform, program and release disagree on the outcome."""

from __future__ import annotations

from dataclasses import dataclass

from generator.model.programs import Program
from generator.model.validation import Validation


def program_coverage(
    validations: list[Validation], programs: list[Program]
) -> list[tuple[Program, list[Validation]]]:
    """Each program with this provider's results under it; an empty list is a gap."""
    return [(p, [v for v in validations if v.program == p.id]) for p in programs]


@dataclass(frozen=True)
class Conflict:
    """Results for one platform, program and release that disagree on the outcome. Each result is
    listed once, however many others it disagrees with, so a page grows with the results, not
    with their pairs."""

    platform: str | None
    program: str
    release: str | None
    results: tuple[Validation, ...]  # by outcome, then id


def conflicts(validations: list[Validation]) -> list[Conflict]:
    """Each platform, program and release whose current results disagree on the outcome. A
    result another names as its predecessor has been followed, so it is not current."""
    followed = {v.predecessor for v in validations if v.predecessor is not None}
    groups: dict[tuple[str | None, str, str | None], list[Validation]] = {}
    for v in validations:
        if v.id not in followed:
            groups.setdefault((v.platform, v.program, v.program_release), []).append(v)
    found = []
    for (platform, program, release), results in sorted(
        groups.items(), key=lambda item: tuple(part or "" for part in item[0])
    ):
        if len({v.outcome.result for v in results}) > 1:
            ordered = tuple(sorted(results, key=lambda v: (v.outcome.result, v.id)))
            found.append(Conflict(platform, program, release, ordered))
    return found
