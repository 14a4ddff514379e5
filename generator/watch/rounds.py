"""What the watch finds, round by round: for each round a mapping pins, whether MLCommons'
repository has moved past the pinned commit, and which files changed under the submitters the
mapping follows; for the rounds after the newest, whether MLCommons has published one; and, for a
round to import, what the mapping lacks, named as the import names it.

A round a mapping reads from another party's copy is asked of MLCommons' own repository: once that
answers, the round can be read where MLCommons publishes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from generator.importers.core import folders
from generator.importers.core.mapping import unknown_accelerator, unknown_submitter
from generator.model.imports import InferenceMapping, RoundEntry, TrainingMapping
from generator.problems import Problem
from generator.watch.remote import Remote

# Each program's repositories, by round, as MLCommons names them.
REPOSITORIES = {
    "mlperf-training": "training_results_{round}",
    "mlperf-inference": "inference_results_{round}",
}
MLCOMMONS = "https://github.com/mlcommons"
SYSTEM_LIMIT = 1 << 20  # a system description is a few kilobytes

Status = Literal["new", "moved", "unchanged", "absent", "copy"]


@dataclass(frozen=True)
class Finding:
    program: str
    round: str
    status: Status
    repository: str  # the repository's address at the watch's base
    head: str | None  # its default branch's commit, where it answers
    pinned: str | None  # the commit the mapping pins, where it holds the round
    # Changed paths under the submitters the mapping follows, and at the round's root.
    followed: list[str] = field(default_factory=list)
    others: int = 0  # changed paths under other submitters
    note: str | None = None  # what else a maintainer must know
    lacks: list[str] = field(default_factory=list)  # what the mapping lacks, in the import's words
    checkout: str | None = None  # where --read checked the round out
    earlier_checkout: str | None = None  # and the earlier round its runs are compared with

    @property
    def actionable(self) -> bool:
        """Whether a maintainer has anything to do: a new round, or followed files moved."""
        return self.status == "new" or (self.status == "moved" and bool(self.followed))


def next_rounds(rounds: list[str]) -> list[str]:
    """The rounds that may follow the newest: MLCommons numbers two a year, vX.0 and vX.1."""
    numbers = sorted(tuple(int(p) for p in r[1:].split(".")) for r in rounds)
    if not numbers:
        return []
    major, minor = numbers[-1]
    found = [f"v{major}.{minor + 1}", f"v{major + 1}.0"]
    return [r for r in found if r not in rounds]


def followed(mapping: TrainingMapping | InferenceMapping) -> frozenset[str]:
    """The submitters whose folders the mapping follows: every one it maps."""
    if isinstance(mapping, TrainingMapping):
        return frozenset(mapping.submitters)
    return frozenset(
        name
        for name, entry in mapping.submitters.items()
        if entry.provider is not None or entry.systems or entry.maker is not None
    )


def submitter_of(program: str, path: str) -> str | None:
    """The submitter folder a path is under; None for a file at the round's root (its table)."""
    parts = path.split("/")
    if program == "mlperf-inference":
        return parts[1] if len(parts) > 2 and parts[0] in ("closed", "open", "network") else ""
    return parts[0] if len(parts) > 1 else None


def watch(remote: Remote, mappings: dict[str, TrainingMapping | InferenceMapping]) -> list[Finding]:
    """Every pinned round and every next round, by program."""
    found: list[Finding] = []
    for program, mapping in sorted(mappings.items()):
        pattern = REPOSITORIES[program]
        for round_name, entry in sorted(mapping.rounds.items(), key=lambda kv: _key(kv[0])):
            found.append(_pinned(remote, program, mapping, round_name, entry, pattern))
        for round_name in next_rounds(list(mapping.rounds)):
            name = pattern.format(round=round_name)
            head = remote.head(name)
            status: Status = "absent" if head is None else "new"
            lacks = [] if head is None else [_round_entry(program, round_name)]
            found.append(
                Finding(program, round_name, status, remote.url(name), head, None, lacks=lacks)
            )
    return found


def _key(round_name: str) -> tuple[int, ...]:
    return tuple(int(p) for p in round_name[1:].split("."))


def _pinned(
    remote: Remote,
    program: str,
    mapping: TrainingMapping | InferenceMapping,
    round_name: str,
    entry: RoundEntry,
    pattern: str,
) -> Finding:
    name = pattern.format(round=round_name)
    head = remote.head(name)
    own = entry.repository.rstrip("/") == f"{MLCOMMONS}/{name}"

    def finding(status: Status, **more: Any) -> Finding:
        return Finding(program, round_name, status, remote.url(name), head, entry.commit, **more)

    if head is None:
        # MLCommons' repository of the round is not there (or not yet): the copy stays the source.
        read = "" if own else "; the round is read from a copy"
        return finding("absent", note=f"MLCommons' repository of the round does not answer{read}")
    if not own:
        note = "MLCommons' own repository of the round answers: read it there, not from a copy"
        return finding("copy", note=note)
    if head == entry.commit:
        return finding("unchanged")
    paths = remote.changed(name, entry.commit, head)
    if paths is None:
        note = "the pinned commit is not on the default branch: compare the two by hand"
        return finding("moved", note=note)
    follow = followed(mapping)
    mine = [p for p in paths if (s := submitter_of(program, p)) is None or s in follow]
    return finding("moved", followed=mine, others=len(paths) - len(mine))


def _round_entry(program: str, round_name: str) -> str:
    return (
        f"content/imports/{program}.yaml: rounds.{round_name}: its repository, commit and "
        "publication date, with the source that dates it (a person adds these)"
    )


def lacks(program: str, mapping: TrainingMapping | InferenceMapping, root: Path) -> list[Problem]:
    """What the mapping lacks to import the round checked out at `root`: each submitter it does
    not list, and each accelerator of a cloud's system it does not map, in the import's words.
    Read from the system descriptions alone, so a round whose benchmarks the reader does not
    know yet is still read."""
    shown = f"content/imports/{program}.yaml"
    problems: list[Problem] = []
    for path in _system_files(program, root):
        relative = path.relative_to(root).as_posix()
        read = folders.read_object(path, relative, SYSTEM_LIMIT, "system description")
        if isinstance(read, Problem):
            problems.append(read)
            continue
        submitter = read.value.get("submitter")
        accelerator = read.value.get("accelerator_model_name")
        if not isinstance(submitter, str) or not isinstance(accelerator, str):
            continue
        if isinstance(mapping, TrainingMapping):
            if str(read.value.get("status", "")).lower() != "available cloud":
                continue
            if submitter not in mapping.submitters:
                problems.append(unknown_submitter(relative, shown, submitter, "maps to a provider"))
            if accelerator not in mapping.accelerators:
                problems.append(unknown_accelerator(relative, shown, accelerator))
            continue
        entry = mapping.submitters.get(submitter)
        if entry is None:
            wanted = "lists (with the provider whose cloud ran it, or none)"
            problems.append(unknown_submitter(relative, shown, submitter, wanted))
        elif entry.provider is not None and accelerator not in mapping.accelerators:
            problems.append(unknown_accelerator(relative, shown, accelerator))
    return sorted(set(problems))


def _system_files(program: str, root: Path) -> list[Path]:
    if program == "mlperf-inference":
        tops = [root / d for d in ("closed", "open", "network") if (root / d).is_dir()]
    else:
        tops = [root]
    found = []
    for top in tops:
        for submitter in folders.folders(top):
            systems = submitter / "systems"
            if systems.is_dir() and not systems.is_symlink():
                found += folders.files(systems, "*.json")
    return sorted(found)
