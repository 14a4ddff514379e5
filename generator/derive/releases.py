"""Program releases compared: which results a newer release of their program passes, and which
a newer result of their own provider replaces."""

from __future__ import annotations

import re

from generator.model.validation import Validation

_RELEASE = re.compile(r"^v?(\d+(?:\.\d+)*)$")


def release_key(release: str | None) -> tuple[int, ...] | None:
    """A program release as numbers to compare ("v5.1" -> (5, 1)), or None if it is not one."""
    match = _RELEASE.fullmatch(release or "")
    return tuple(int(part) for part in match[1].split(".")) if match else None


def newer_releases(validations: list[Validation]) -> dict[str, str]:
    """For each result whose program has a newer release on record (from any provider), that
    newest release, by validation id."""
    newest: dict[str, tuple[tuple[int, ...], str]] = {}
    for v in validations:
        key = release_key(v.program_release)
        if key is not None and (v.program not in newest or key > newest[v.program][0]):
            newest[v.program] = (key, v.program_release or "")
    found = {}
    for v in validations:
        key = release_key(v.program_release)
        if key is not None and key < newest[v.program][0]:
            found[v.id] = newest[v.program][1]
    return found


def rescored_only(validation: Validation) -> bool:
    """Whether every figure of a result is an earlier round's runs, submitted again: it
    measures nothing new, so it is never newer evidence."""
    measured = validation.measurements
    return bool(measured) and all(m.resubmitted is not None for m in measured)


def newer_own_results(
    validations: list[Validation], chips: dict[str, str | None]
) -> dict[str, Validation]:
    """For each result that a newer one of its own provider replaces, that newest one, by
    validation id: the same program and chip (`chips`, by validation id), a later release, and
    an outcome the program owner states. A newer release run by others, or only claimed by the
    provider, replaces nothing a buyer holds; nor does a result that only rescores an earlier
    round's runs."""
    newest: dict[tuple[str, str, str], tuple[tuple[int, ...], Validation]] = {}
    for v in validations:
        key, chip = release_key(v.program_release), chips[v.id]
        if key is None or chip is None or v.outcome.grade != "program-owner":
            continue
        if rescored_only(v):
            continue  # an earlier round's runs submitted again replace nothing
        group = (v.provider, v.program, chip)
        if group not in newest or key > newest[group][0]:
            newest[group] = (key, v)
    found = {}
    for v in validations:
        key, chip = release_key(v.program_release), chips[v.id]
        if key is None or chip is None:
            continue
        later = newest.get((v.provider, v.program, chip))
        if later is not None and later[0] > key:
            found[v.id] = later[1]
    return found
