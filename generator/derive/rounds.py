"""The rounds of an imported program the site holds, and how each was read: from MLCommons' own
repository, from MLCommons' commit as a copy carries it, from MLCommons' table alone, or from a
copy not authored by MLCommons. A program page lists them, so a buyer knows what each figure
rests on (`model/imports.py` `READ_WORDS`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from generator.derive.releases import release_key
from generator.model.imports import READ_WORDS, InferenceMapping, TrainingMapping
from generator.model.site import Site
from generator.model.validation import Validation


@dataclass(frozen=True)
class RoundRead:
    """One round the site holds results of, and where and how its records were read."""

    release: str
    how: str  # "MLCommons' commit, in a copy another party holds"
    where: str  # the repository read: "mlcommons/inference_results_v5.1"
    url: str  # the repository at the commit read
    commit: str  # its first seven characters
    published: date | None  # None where no source we hold dates the round
    source: str | None  # who dates it
    grade: str | None


# What the page says of a round the site holds records of that no import read.
TYPED = "records typed by hand from the sources each cites; the round is not imported"


def releases_held(validations: list[Validation]) -> list[str]:
    """The releases of `validations`, each once, oldest first."""
    found = {v.program_release for v in validations if v.program_release}
    return sorted(found, key=lambda r: (release_key(r) or (), r))


def rounds_read(site: Site, program: str, validations: list[Validation]) -> list[RoundRead]:
    """The rounds of `program` its mapping reads that the site holds results of, oldest first."""
    mapping = site.imports.get(program)
    if not isinstance(mapping, InferenceMapping | TrainingMapping):
        return []
    found = []
    for release in releases_held(validations):
        entry = mapping.rounds.get(release)
        if entry is None:
            continue  # a hand-typed round: `typed_rounds` names it
        where = entry.repository.rstrip("/").removeprefix("https://github.com/")
        found.append(
            RoundRead(
                release=release,
                how=READ_WORDS[entry.read],
                where=where,
                url=f"{entry.repository.rstrip('/')}/tree/{entry.commit}",
                commit=entry.commit[:7],
                published=entry.published.date if entry.published else None,
                source=entry.published.source if entry.published else None,
                grade=entry.published.grade if entry.published else None,
            )
        )
    return found


def typed_rounds(site: Site, program: str, validations: list[Validation]) -> list[str]:
    """The releases of `program` the site holds whose records no import read: typed by hand."""
    mapping = site.imports.get(program)
    if not isinstance(mapping, InferenceMapping | TrainingMapping):
        return []
    return [r for r in releases_held(validations) if r not in mapping.rounds]


def left_out(site: Site, program: str) -> list[tuple[str, str, str]]:
    """Each round's results the mapping says the site leaves out, as (round, what, why)."""
    mapping = site.imports.get(program)
    if not isinstance(mapping, InferenceMapping | TrainingMapping):
        return []
    return [(entry.round, entry.what, entry.why) for entry in mapping.left_out]
