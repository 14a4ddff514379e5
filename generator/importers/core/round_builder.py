"""The parts of a round's records every import writes alike: ids for its sources, the platform
and provider records it adds, each system and invalid result as a validation lists them, and the
addresses of the round's files.

Every fact is graded program-owner (the program's owner publishes the data) and cited to the file
it comes from; each importer writes what its program differs in (a time to train, a rate in a
scenario) around these.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import quote

from generator.english import listed, plural
from generator.escape import markdown_literal as md
from generator.model.imports import AcceleratorEntry, RoundEntry
from generator.model.links import slug

# MLCommons publishes the data, and owns the program; a copy of it not authored by MLCommons
# is a summary by someone else (`RoundBuilder.grade`).
GRADE = "program-owner"
ID_LENGTH = 80  # the model's longest id

K = TypeVar("K", bound=Hashable)


def url_path(path: str) -> str:
    """A path of the repository as a URL holds it: a name with a space or a quote is encoded,
    and MLCommons' own names (IBM+CoreWeave+NVIDIA) are kept as they are."""
    return quote(path, safe="/+")


def short_id(found: str, salt: str) -> str:
    """`found` cut to an id's length, told apart from others cut alike by a hash of `salt`."""
    digest = hashlib.sha256(salt.encode()).hexdigest()[:8]
    return f"{found[: ID_LENGTH - 9].rstrip('-')}-{digest}"


def unique_ids(base: Mapping[K, tuple[str, str]]) -> dict[K, str]:
    """An id for each key, from its (id, salt): MLCommons' file names hold capitals, dots and
    underscores, which ids do not, so `Sys_A.json` and `sys-a.json` both read sys-a and one
    system's figures would cite the other's description. Each of two such, or an id past an
    id's length, is told apart by a hash of its salt (the file's path)."""
    taken: dict[str, int] = {}
    for found, _ in base.values():
        taken[found] = taken.get(found, 0) + 1
    return {
        key: short_id(found, salt) if taken[found] > 1 or len(found) > ID_LENGTH else found
        for key, (found, salt) in base.items()
    }


def platform_record(accelerator: str, entry: AcceleratorEntry) -> dict[str, Any]:
    """A platform an import adds: the accelerator as the round's descriptions name it."""
    return {
        "id": entry.platform,
        "name": accelerator,
        "vendor": entry.vendor,
        "chip": entry.chip,
        "accelerator_noun": entry.noun,
        "summary": (
            f"The accelerator as MLCommons' system descriptions name it: {md(accelerator)}. "
            "The systems around it differ, and each result's page lists them."
        ),
        "specifications": [],
    }


def provider_record(provider: str, name: str | None, summary: str | None) -> dict[str, Any] | None:
    """A provider an import adds, from the mapping's name and summary; None without them."""
    if name is None or summary is None:
        return None
    return {"id": provider, "name": name, "url": None, "summary": summary}


def system_record(system: Any, source: str, grade: str, **extra: Any) -> dict[str, Any]:
    """A system as a validation lists it, from its description (either program's `SystemFile`),
    with what its program adds after the fields both share."""
    return {
        "source": source,
        "grade": grade,
        "key": system.key,
        "name": system.name,
        "division": system.division,
        "status": system.status,
        "accelerator": system.accelerator,
        "nodes": system.nodes,
        "accelerators_per_node": system.accelerators_per_node,
        "framework": system.framework,
        **extra,
    }


def invalid_record(
    source: str, system: str, benchmark: str, reason: str, grade: str, **extra: Any
) -> dict[str, Any]:
    """A result the rules do not let be scored, with why."""
    return {
        "source": source,
        "grade": grade,
        "system": system,
        "benchmark": benchmark,
        "reason": reason,
        **extra,
    }


# MLCommons' rules every round's results are published under; both programs' claims cite them.
SUBMISSION_RULES = "mlperf-submission-rules"


def allocation_claim(does: str, reason: str) -> dict[str, Any]:
    """What no published result establishes: that a buyer's own allocation of the same systems
    `does` as well ("trains in the same time"), and why the rules leave it open."""
    return {
        "text": f"That a buyer's own allocation of the same systems {does}.",
        "grade": "not-established",
        "reason": reason,
        "source": SUBMISSION_RULES,
    }


def unstated_claim(text: str, reason: str | None, otherwise: str, first: str) -> dict[str, Any]:
    """A claim the submission's descriptions leave unstated: the mapping's note says why where
    it has one, else `otherwise`."""
    return {"text": text, "grade": "not-stated", "reason": reason or otherwise, "source": first}


def figures_answer(valid: bool, published: str, none: str, first: str) -> dict[str, Any]:
    """Whether the result publishes a figure per benchmark: yes, as `published` says, or no,
    as `none` does, where every result submitted is invalid."""
    return {"answer": "yes" if valid else "no", "detail": published if valid else none,
            "source": first}  # fmt: skip


def not_reproduced(detail: str, source: str) -> dict[str, Any]:
    """What MLCommons' review of a round is not: a reproduction of every result."""
    return {"answer": "not-stated", "detail": detail, "source": source}


def submission_record(
    first: str, grade: str, submitters: list[str], cloud: str, notes: list[str]
) -> dict[str, Any]:
    """Who submitted a result, and whose cloud its descriptions say it ran on."""
    return {
        "source": first,
        "grade": grade,
        "submitter": listed(submitters),
        "cloud": cloud,
        **({"note": " ".join(notes)} if notes else {}),
    }


# The evidence questions an imported result answers, in the order its record lists them: each is
# not-stated from the result's first source unless its importer has the data to say more.
QUESTIONS = (
    "matrix-published",
    "per-model-throughput",
    "margin-computable",
    "generational-comparison",
    "deployment-tested",
    "pricing-published",
    "reliability-published",
    "energy-published",
    "independent-reproduction",
    "low-precision-quality",
    "customer-guarantee",
)
# What every round's system descriptions say of where a result ran.
DEPLOYMENT_NAMED = "The system descriptions name each system and its size, not its region."


def answers(first: str, given: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every question's answer: `given`'s where it has one, else not-stated from `first`; and
    deployment-tested partial, as every round's descriptions name a system, not a region."""
    tested = {"answer": "partial", "detail": DEPLOYMENT_NAMED, "source": first}
    found = {"deployment-tested": tested, **given}
    return {q: found.get(q, {"answer": "not-stated", "source": first}) for q in QUESTIONS}


def validation_head(
    validation_id: str,
    group: Any,
    program: str,
    round_name: str,
    entry: RoundEntry,
    submission: dict[str, Any],
) -> dict[str, Any]:
    """A round's validation up to its summary: who, on what, under which program and round,
    dated by the round's publication, as the submission says it."""
    published = entry.published
    dating = (
        None
        if published is None
        else {"source": published.source, "grade": published.grade, "basis": published.basis}
    )
    return {
        "id": validation_id,
        "provider": group.provider,
        "platform": group.platform,
        "program": program,
        "program_release": round_name,
        "stated_suite": None,
        # No source dates the round: its results are undated, never given a guessed date.
        "announced": None if published is None else published.date,
        "dating": dating,
        "submission": submission,
        "last_reviewed": entry.reviewed,
    }


def scope_record(
    first: str, sizes: list[int], frameworks: set[str | None], models: int, grade: str
) -> dict[str, Any]:
    """What a result ran on: its one size and framework where its systems share one."""
    return {
        "source": first,
        "grade": grade,
        "accelerators": sizes[0] if len(sizes) == 1 else None,
        "framework": next(iter(frameworks)) if len(frameworks) == 1 else None,
        "recipe_release": None,
        "models": models,
        "configurations": None,
        "precisions": [],
        "architectures": [],
    }


def deployment_record(first: str, grade: str) -> dict[str, Any]:
    """Where a result ran, as a round's descriptions leave it: not stated."""
    return {
        "source": first,
        "grade": grade,
        "location": None,
        "energy_source": None,
        "environment": None,
    }


def outcome_record(text: str, first: str, grade: str) -> dict[str, Any]:
    return {"result": "results published", "text": text, "source": first, "grade": grade}


def source_record(source_id: str, title: str, url: str, note: str, program: str) -> dict[str, Any]:
    """A file of the round, at the commit the mapping names, as a source a record cites."""
    return {
        "id": source_id,
        "title": title,
        "publisher": "MLCommons",
        "kind": "results",
        "url": url,
        "published": None,
        "note": note,
        "program": program,
    }


def read_note(entry: RoundEntry) -> str:
    """What a source's note says of the copy it was read in, where it is not MLCommons' own
    repository: "" for MLCommons' repository."""
    copy = entry.repository.rstrip("/").removeprefix("https://github.com/")
    commit = entry.commit[:7]
    if entry.read == "commit-in-copy":
        return (
            f" Read at MLCommons' commit {commit} as {md(copy)} carries it, a copy another party "
            "holds; MLCommons' own repository was not read."
        )
    if entry.read == "copy":
        return (
            f" Read at commit {commit} of {md(copy)}, a copy not authored by MLCommons: nothing "
            "shows it equals MLCommons' publication."
        )
    if entry.read == "table":
        return f" Read from MLCommons' table of the round alone, at commit {commit}: no logs."
    return ""


def systems_words(count: int, sizes: list[int], noun: str) -> str:
    """How many systems a result has, and their sizes: "1 system of 8 GPUs", "3 systems of 8,
    16 and 32 GPUs"."""
    if len(sizes) == 1:
        return f"{plural('system', count)} of {plural(noun, sizes[0])}"
    return f"{plural('system', count)} of {listed([f'{size:,}' for size in sizes])} {noun}s"


def written_by(program: str) -> str:
    """The start of the marker line of every file an import writes: what makes it the import's
    to rewrite (core/writing.py `owned`)."""
    return f"# Written by `cloudqual import {program}`"


class RoundBuilder:
    """What every import's builder of one round's records holds alike: the round's entry in the
    mapping, its name as ids spell it, and the marker lines its files carry (a round's own
    records name the round; the platforms and providers it adds do not)."""

    def __init__(
        self,
        program: str,
        rounds: Mapping[str, RoundEntry],
        round_name: str,
        accelerators: Mapping[str, AcceleratorEntry],
    ) -> None:
        self.program = program
        self.accelerators = accelerators
        # "MLPerf Training", as sentences name the program.
        self.program_name = program.replace("-", " ").title().replace("Mlperf", "MLPerf")
        self.round_name = round_name
        self.entry = rounds[round_name]
        self.release_slug = slug(round_name)
        written = written_by(program)
        self.marker = f"{written} --round {round_name}: the next import rewrites this file."
        self.shared_marker = f"{written}: the next import rewrites this file."
        # Every fact of the round is MLCommons' own, unless it was read in a copy whose commits
        # are not MLCommons': nothing then shows it equals MLCommons' publication.
        self.grade = "secondary" if self.entry.read == "copy" else GRADE

    def source_id(self, system: Any) -> str:
        """The id of the source a system's description is cited as (each importer's own)."""
        raise NotImplementedError

    def accelerator(self, group: Any) -> tuple[str, str, AcceleratorEntry]:
        """A result's first source, its accelerator as the descriptions name it, and the
        mapping's entry for it: the chip family and what one is called."""
        accelerator = group.systems[0].accelerator
        return self.source_id(group.systems[0]), accelerator, self.accelerators[accelerator]

    def whose(self, submission: dict[str, Any], what: str, where: str = "") -> str:
        """`what` of the round as the submitter's: "Nebius's MLPerf Training v5.1 results";
        `where` ends it (" in Nebius's cloud")."""
        return (
            f"{md(submission['submitter'])}'s {self.program_name} {self.round_name} {what}{where}"
        )

    def outcome(self, text: str, first: str) -> dict[str, Any]:
        """What the round published of a result, at the round's grade."""
        return outcome_record(text, first, self.grade)

    def scope(
        self, first: str, sizes: list[int], frameworks: set[str | None], models: int
    ) -> dict[str, Any]:
        """What a result ran on (`scope_record`), at the round's grade."""
        return scope_record(first, sizes, frameworks, models, self.grade)

    def stated(self, text: str, first: str) -> dict[str, Any]:
        """A claim the round's own files state, at the round's grade."""
        return {"text": text, "source": first, "grade": self.grade}

    def head(self, group: Any, submission: dict[str, Any], suffix: str = "") -> dict[str, Any]:
        """A validation of the round up to its summary (`validation_head`), its id made of the
        provider, the platform, the program and the round, and `suffix` ("-open")."""
        validation_id = f"{group.provider}-{group.platform}-{self.program}-{self.release_slug}"
        return validation_head(
            validation_id + suffix, group, self.program, self.round_name, self.entry, submission
        )

    def deployment(self, group: Any, first: str) -> dict[str, Any]:
        """Where a result's systems ran, as the round's descriptions say it: by name and size,
        not by region. An importer whose mapping says more overrides it."""
        return deployment_record(first, self.grade)

    def measurement(self, result: Any) -> dict[str, Any]:
        """A scored result's figure, as its validation lists it (each importer's own)."""
        raise NotImplementedError

    def record(
        self,
        group: Any,
        submission: dict[str, Any],
        *,
        summary: str,
        published: str,
        given: dict[str, dict[str, Any]],
        valid: Sequence[Any],
        invalid: Sequence[Any],
        scope: dict[str, Any],
        claims: list[dict[str, Any]],
        fields: Callable[[Any], dict[str, Any]],
        invalid_fields: Mapping[str, Callable[[Any], Any]] | None = None,
        suffix: str = "",
    ) -> dict[str, Any]:
        """A round's validation of one result, in the order every imported record lists its
        fields, from what its importer words alike: its summary, what the round `published` of
        it, the evidence answers it has data for (`given`), its valid and its invalid results,
        and what its program adds to each system (`fields`) and invalid result
        (`invalid_fields`). A round names no predecessor."""
        first = self.source_id(group.systems[0])
        return {
            **self.head(group, submission, suffix),
            "summary": summary,
            "scope": scope,
            "deployment": self.deployment(group, first),
            "outcome": self.outcome(published, first),
            "measurements": [self.measurement(r) for r in valid],
            "claims": claims,
            "evidence": answers(first, given),
            "predecessor": None,
            "systems": self.systems(group.systems, fields),
            "invalid": self.invalid(invalid, **(invalid_fields or {})),
        }

    def systems(
        self, systems: Sequence[Any], fields: Callable[[Any], dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Each system as the validation lists it, with the fields its program adds (`fields`
        of the system)."""
        return [system_record(s, self.source_id(s), self.grade, **fields(s)) for s in systems]

    def invalid(
        self, unscored: Sequence[Any], **extra: Callable[[Any], Any]
    ) -> list[dict[str, Any]]:
        """Each result the rules do not let be scored, with its folder and why; each of `extra`
        is a further field, from the result."""
        return [
            invalid_record(
                self.source_id(r.system),
                r.system.key,
                r.benchmark,
                f"{r.folder}: {r.invalid}",
                self.grade,
                **{name: field(r) for name, field in extra.items()},
            )
            for r in unscored
        ]
