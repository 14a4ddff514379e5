"""`cloudqual import mlperf-training`: a round's cloud results, written as content records.

The import owns the files it writes, and only those: each begins with the record's modeline and a
marker line naming the import (and the round, for a round's own records). It never writes over a
file without its marker, so a hand-written record always wins; analysis of an imported result
goes in `content/analyses/`, which the import never touches. The same input gives the same bytes,
so a second import changes nothing and `--check` can tell a stale import from a current one.

Nothing is written unless everything is right: the records are built, the whole content folder is
checked with them in place in a temporary copy, and only then are the files replaced.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, StringConstraints
from ruamel.yaml import YAML

from .checks import modeline, validate
from .load import load_text
from .mlperf import (
    BENCHMARKS,
    MAX_NON_CONVERGED,
    Round,
    Score,
    SystemFile,
    read_round,
    round_number,
)
from .model import KINDS, Id, Strict, Text, Url
from .problem import ContentError, Position, Problem
from .site import IMPORTS_FOLDER, load_site

PROGRAM = "mlperf-training"
MAPPING = f"{IMPORTS_FOLDER}/{PROGRAM}.yaml"
GRADE = "program-owner"  # MLCommons publishes the data, and owns the program
MARKER = f"# Written by `cloudqual import {PROGRAM}`"
# The reasoning behind the import's answers and claims, in content/sources/.
SUBMISSION_RULES = "mlperf-submission-rules"
TRAINING_RULES = "mlperf-training-rules"

Commit = Annotated[str, StringConstraints(pattern="^[0-9a-f]{40}$")]


class RoundEntry(Strict):
    repository: Url
    commit: Commit
    reviewed: date


class SubmitterEntry(Strict):
    provider: Id
    name: Text | None = None
    summary: Text | None = None
    note: Text | None = None


class AcceleratorEntry(Strict):
    platform: Id
    vendor: Text
    chip: Text


class Mapping(Strict):
    rounds: dict[Annotated[str, StringConstraints(pattern=r"^v\d+\.\d+$")], RoundEntry]
    submitters: dict[Text, SubmitterEntry]
    accelerators: dict[Text, AcceleratorEntry]
    benchmarks: dict[Annotated[str, StringConstraints(pattern="^[a-z0-9_]+$")], Text] = Field(
        default_factory=dict
    )


class ImportFailure(Exception):
    """The import cannot go on; `problems` say where, and nothing was written."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems)
        super().__init__("\n".join(map(str, self.problems)))


@dataclass
class Plan:
    """The files an import writes, by path under content/, and those it removes."""

    files: dict[str, str] = field(default_factory=dict)
    removed: list[str] = field(default_factory=list)
    round: Round | None = None
    validations: int = 0
    measurements: int = 0
    invalid: int = 0
    unchanged: int = 0


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def read_mapping(content: Path) -> Mapping:
    path = content / MAPPING
    shown = f"{content.name}/{MAPPING}"
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise ImportFailure(
            [Problem(shown, Position(1, 1), "", f"cannot be read: {error.strerror}")]
        ) from None
    document, problems = load_text(shown, raw)
    if document is None:
        raise ImportFailure(problems)
    mapping, problems = validate(Mapping, document)
    if mapping is None:
        raise ImportFailure(problems)
    return mapping


def _yaml() -> YAML:
    yaml = YAML()
    yaml.width = 1 << 16  # one line per value: no folding, so no trailing spaces
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.representer.add_representer(
        type(None), lambda r, _: r.represent_scalar("tag:yaml.org,2002:null", "null")
    )
    return yaml


def dump(kind: str, marker: str, data: dict[str, Any]) -> str:
    """A record's file: modeline, marker, then the record in the model's field order."""
    stream = io.StringIO()
    _yaml().dump(data, stream)
    return f"{modeline(kind)}\n{marker}\n{stream.getvalue()}"


@dataclass(frozen=True)
class Group:
    """The results of one provider on one platform in one round: one validation."""

    provider: str
    platform: str
    scores: tuple[Score, ...]
    systems: tuple[SystemFile, ...]


class Builder:
    """The records of one round, from what `read_round` found and the mapping."""

    def __init__(self, reading: Round, mapping: Mapping, round_name: str) -> None:
        self.reading = reading
        self.mapping = mapping
        self.round_name = round_name
        self.entry = mapping.rounds[round_name]
        self.release_slug = slug(round_name)
        self.marker = f"{MARKER} --round {round_name}: the next import rewrites this file."
        self.shared_marker = f"{MARKER}: the next import rewrites this file."

    def source_id(self, system: SystemFile) -> str:
        return f"{PROGRAM}-{self.release_slug}-{slug(system.folder)}-{slug(system.key)}"

    def benchmark_name(self, benchmark: str) -> str:
        return self.mapping.benchmarks.get(benchmark, benchmark)

    def benchmark_order(self, benchmark: str) -> int:
        listed = BENCHMARKS[self.reading.number]
        return listed.index(benchmark) if benchmark in listed else len(listed)

    def groups(self) -> list[Group]:
        by_key: dict[tuple[str, str], list[SystemFile]] = {}
        for system in self.reading.systems:
            if system in self.reading.without_results:
                continue  # listed in the import's report; a system with no result is no result
            provider = self.mapping.submitters[system.submitter].provider
            platform = self.mapping.accelerators[system.accelerator].platform
            by_key.setdefault((provider, platform), []).append(system)
        groups = []
        for (provider, platform), systems in sorted(by_key.items()):
            ordered = sorted(systems, key=lambda s: (s.nodes * s.accelerators_per_node, s.key))
            keys = {(s.folder, s.key) for s in ordered}
            scores = sorted(
                (s for s in self.reading.scores if (s.system.folder, s.system.key) in keys),
                key=lambda s: (
                    s.system.nodes * s.system.accelerators_per_node,
                    s.system.key,
                    self.benchmark_order(s.benchmark),
                    s.benchmark,
                ),
            )
            groups.append(Group(provider, platform, tuple(scores), tuple(ordered)))
        return groups

    def source(self, system: SystemFile) -> dict[str, Any]:
        repository = self.entry.repository.rstrip("/")
        return {
            "id": self.source_id(system),
            "title": (
                f"MLPerf Training {self.round_name} system description: {system.folder}, "
                f"{system.key}"
            ),
            "publisher": "MLCommons",
            "kind": "results",
            "url": f"{repository}/blob/{self.entry.commit}/{system.path}",
            "published": None,
            "note": (
                f"The system's run logs are under {system.folder}/results/{system.key}/ at the "
                "same commit. cloudqual computes each time from them by MLCommons' scoring rule, "
                "as MLCommons' result_summarizer does."
            ),
            "program": PROGRAM,
        }

    def provider(self, submitter: SubmitterEntry) -> dict[str, Any] | None:
        if submitter.name is None or submitter.summary is None:
            return None
        return {
            "id": submitter.provider,
            "name": submitter.name,
            "url": None,
            "summary": submitter.summary,
        }

    def platform(self, accelerator: str, entry: AcceleratorEntry) -> dict[str, Any]:
        return {
            "id": entry.platform,
            "name": accelerator,
            "vendor": entry.vendor,
            "chip": entry.chip,
            "summary": (
                f"The accelerator as MLCommons' system descriptions name it: {accelerator}. "
                "The systems around it differ, and each result's page lists them."
            ),
            "specifications": [],
        }

    def note(self, score: Score) -> str | None:
        parts = []
        dropped, most = len(score.dropped), MAX_NON_CONVERGED.get(score.benchmark, 1)
        listed = "; ".join(
            f"{run.log}:{run.line}: {run.failure}"
            if run.line is not None
            else f"{run.log}: {run.failure}"
            for run in score.dropped
        )
        if dropped == most == 1:
            parts.append(
                f"1 of {len(score.runs)} runs did not count ({listed}); the rules "
                "treat it as the slowest run, so only the fastest is dropped besides."
            )
        elif dropped:
            # unet3d drops four runs at each end, and up to four that do not count stand in
            # for the slowest of them.
            them, runs = ("it", "run") if dropped == 1 else ("them", "runs")
            rest = f" and the {most - dropped} slowest of the rest" if most > dropped else ""
            parts.append(
                f"{dropped} of {len(score.runs)} runs did not count ({listed}); the rules treat "
                f"{them} as the slowest {runs}, so the {most} fastest{rest} are dropped besides."
            )
        if score.scaling_factor is not None:
            parts.append(
                f"The mean is multiplied by the scaling_factor {score.scaling_factor!r} of "
                f"{score.folder}/scaling.json."
            )
        return " ".join(parts) or None

    def validation(self, group: Group, provider_name: str) -> dict[str, Any]:
        first = self.source_id(group.systems[0])
        chip = self.mapping.accelerators[group.systems[0].accelerator].chip
        accelerator = group.systems[0].accelerator
        valid = [s for s in group.scores if s.minutes is not None]
        invalid = [s for s in group.scores if s.minutes is None]
        benchmarks = sorted(
            {s.benchmark for s in valid}, key=lambda b: (self.benchmark_order(b), b)
        )
        gpus = sorted({s.nodes * s.accelerators_per_node for s in group.systems})
        frameworks = {s.framework for s in group.systems}
        names = ", ".join(self.benchmark_name(b) for b in benchmarks) or "no benchmark"
        count = len(group.systems)
        sizes = (
            f"{gpus[0]:,}"
            if len(gpus) == 1
            else ", ".join(f"{g:,}" for g in gpus[:-1]) + f" and {gpus[-1]:,}"
        )
        systems_words = f"{count} system{'s' if count != 1 else ''} of {sizes} GPUs"
        submitters = sorted({s.submitter for s in group.systems})
        notes = [
            self.mapping.submitters[name].note
            for name in submitters
            if self.mapping.submitters[name].note
        ]
        invalid_words = (
            f" {len(invalid)} submitted result{'s are' if len(invalid) != 1 else ' is'} invalid "
            "under the rules and not scored."
            if invalid
            else ""
        )
        claims: list[dict[str, Any]] = [
            {
                "text": (
                    f"MLCommons published {provider_name}'s MLPerf Training {self.round_name} "
                    f"run logs on {accelerator}, {systems_words}, with the status Available cloud: "
                    f"{names}. The times here are computed from those logs by MLCommons' "
                    f"scoring rule.{invalid_words}"
                ),
                "source": first,
                "grade": GRADE,
            },
            {
                "text": (
                    "That a buyer's own allocation of the same systems trains in the same time."
                ),
                "grade": "not-established",
                "reason": (
                    "MLCommons' availability rule requires pricing, a third-party rental and "
                    "reasonable availability for rent; it says nothing of the performance of "
                    "any other allocation."
                ),
                "source": SUBMISSION_RULES,
            },
        ]
        for note in notes:
            claims.append(
                {
                    "text": "Whose cloud rents the systems.",
                    "grade": "not-stated",
                    "reason": note,
                    "source": first,
                }
            )
        not_stated = {"answer": "not-stated", "source": first}
        evidence = {
            "matrix-published": dict(not_stated),
            "per-model-throughput": {
                "answer": "yes" if valid else "no",
                "detail": (
                    "A time to train for each benchmark on each system, computed from MLCommons' "
                    "published run logs."
                    if valid
                    else "Every result submitted is invalid under the rules."
                ),
                "source": first,
            },
            "margin-computable": dict(not_stated),
            "generational-comparison": dict(not_stated),
            "deployment-tested": {
                "answer": "partial",
                "detail": "The system descriptions name each system and its size, not its region.",
                "source": first,
            },
            "pricing-published": {
                "answer": "not-published",
                "detail": (
                    "MLCommons' rules require an Available cloud system to have pricing, publicly "
                    "advertised or available by request; the results carry none."
                ),
                "source": SUBMISSION_RULES,
            },
            "reliability-published": dict(not_stated),
            "energy-published": dict(not_stated),
            "independent-reproduction": {
                "answer": "not-stated",
                "detail": (
                    "MLCommons' members review each round's results before publication; that "
                    "review is not a reproduction."
                ),
                "source": "mlperf-training-benchmark",
            },
            "low-precision-quality": dict(not_stated),
            "customer-guarantee": dict(not_stated),
        }
        return {
            "id": f"{group.provider}-{group.platform}-{PROGRAM}-{self.release_slug}",
            "provider": group.provider,
            "platform": group.platform,
            "program": PROGRAM,
            "program_release": self.round_name,
            "stated_suite": None,
            "announced": None,
            "last_reviewed": self.entry.reviewed,
            "summary": (
                f"{provider_name}'s MLPerf Training {self.round_name} results on {chip}: "
                f"{systems_words}, on {names}, computed from MLCommons' published run logs. "
                "Each is a time on MLCommons' benchmark at that system's size, not on a buyer's "
                "workload or allocation."
            ),
            "scope": {
                "source": first,
                "grade": GRADE,
                "gpus": gpus[0] if len(gpus) == 1 else None,
                "framework": frameworks.pop() if len(frameworks) == 1 else None,
                "recipe_release": None,
                "models": len(benchmarks),
                "configurations": None,
                "precisions": [],
                "architectures": [],
            },
            "deployment": {
                "source": first,
                "grade": GRADE,
                "location": None,
                "energy_source": None,
                "environment": None,
            },
            "outcome": {
                "result": "results published",
                "text": (
                    f"MLCommons published {len(valid)} result{'s' if len(valid) != 1 else ''} "
                    f"in round {self.round_name}, closed division, status Available cloud."
                    f"{invalid_words}"
                ),
                "source": first,
                "grade": GRADE,
            },
            "measurements": [
                {
                    "workload": self.benchmark_name(s.benchmark),
                    "metric": "time to train",
                    "value": s.minutes,
                    "unit": "min",
                    "source": self.source_id(s.system),
                    "grade": GRADE,
                    **({"note": note} if (note := self.note(s)) else {}),
                    "system": s.system.key,
                    "benchmark": s.benchmark,
                }
                for s in valid
            ],
            "claims": claims,
            "evidence": evidence,
            "predecessor": None,
            "systems": [
                {
                    "source": self.source_id(s),
                    "grade": GRADE,
                    "key": s.key,
                    "name": s.name,
                    "division": s.division,
                    "status": s.status,
                    "accelerator": s.accelerator,
                    "nodes": s.nodes,
                    "accelerators_per_node": s.accelerators_per_node,
                    "framework": s.framework,
                }
                for s in group.systems
            ],
            "invalid": [
                {
                    "source": self.source_id(s.system),
                    "grade": GRADE,
                    "system": s.system.key,
                    "benchmark": s.benchmark,
                    "reason": f"{s.folder}: {s.invalid}",
                }
                for s in invalid
            ],
        }


def _mapping_problems(reading: Round, mapping: Mapping, shown: str) -> list[Problem]:
    """Submitters and accelerators the mapping lacks: named, never guessed."""
    problems = []
    for system in reading.systems:
        if system.submitter not in mapping.submitters:
            problems.append(
                Problem(
                    system.path,
                    Position(1, 1),
                    "submitter",
                    f"expected a submitter that {shown} maps to a provider, found "
                    f"{system.submitter!r}: add it under submitters",
                )
            )
        if system.accelerator not in mapping.accelerators:
            problems.append(
                Problem(
                    system.path,
                    Position(1, 1),
                    "accelerator_model_name",
                    f"expected an accelerator that {shown} maps to a platform, found "
                    f"{system.accelerator!r}: add it under accelerators",
                )
            )
    return problems


def _owned(text: str, marker: str) -> bool:
    lines = text.split("\n", 2)
    return len(lines) > 1 and lines[1].startswith(marker)


def _existing(content: Path) -> dict[str, str]:
    """Every record file under content/, by path relative to it, as text. A byte that is not
    UTF-8 reads as U+FFFD here, and the check of the whole folder names it with its position."""
    found = {}
    for kind in KINDS:
        folder = content / kind
        if folder.is_dir():
            for path in sorted(folder.glob("*.yaml")):
                if path.is_file() and not path.is_symlink():
                    found[f"{kind}/{path.name}"] = path.read_bytes().decode(errors="replace")
    return found


def plan_import(content: Path, root: Path, round_name: str) -> Plan:
    """What importing the round at `root` would write. Raises ImportFailure with every problem."""
    try:
        number = round_number(round_name)
    except ValueError as error:
        raise ImportFailure([Problem("--round", Position(1, 1), "", str(error))]) from None
    mapping = read_mapping(content)
    shown_mapping = f"{content.name}/{MAPPING}"
    if round_name not in mapping.rounds:
        raise ImportFailure(
            [
                Problem(
                    shown_mapping,
                    Position(1, 1),
                    "rounds",
                    f"expected an entry for {round_name} (its repository and commit), found none",
                )
            ]
        )
    if not root.is_dir():
        found = "a file" if root.exists() else "none"
        problem = Problem(str(root), Position(1, 1), "", f"expected a folder, found {found}")
        raise ImportFailure([problem])
    problems = _commit_problems(root, mapping.rounds[round_name].commit)
    reading = read_round(root, number)
    problems += reading.problems + _mapping_problems(reading, mapping, shown_mapping)
    if problems:
        raise ImportFailure(problems)
    builder = Builder(reading, mapping, round_name)
    existing = _existing(content)
    plan = Plan(round=reading)
    records: dict[str, tuple[str, dict[str, Any]]] = {}
    for submitter in sorted({s.submitter for s in reading.systems}):
        entry = mapping.submitters[submitter]
        provider = builder.provider(entry)
        if f"providers/{entry.provider}.yaml" in existing and not _owned(
            existing[f"providers/{entry.provider}.yaml"], MARKER
        ):
            continue  # a hand-written provider record wins
        if provider is None:
            raise ImportFailure(
                [
                    Problem(
                        shown_mapping,
                        Position(1, 1),
                        f"submitters.{submitter}",
                        f"expected a name and summary for provider {entry.provider!r}, which "
                        "content/providers/ does not hold, found none",
                    )
                ]
            )
        records[f"providers/{entry.provider}.yaml"] = (builder.shared_marker, provider)
    for accelerator in sorted({s.accelerator for s in reading.systems}):
        entry_a = mapping.accelerators[accelerator]
        path = f"platforms/{entry_a.platform}.yaml"
        if path in existing and not _owned(existing[path], MARKER):
            continue
        records[path] = (builder.shared_marker, builder.platform(accelerator, entry_a))
    for system in reading.systems:
        if system in reading.without_results:
            continue
        source = builder.source(system)
        records[f"sources/{source['id']}.yaml"] = (builder.marker, source)
    for group in builder.groups():
        if not group.scores:
            continue
        name = _provider_name(content, mapping, group, existing)
        validation = builder.validation(group, name)
        records[f"validations/{validation['id']}.yaml"] = (builder.marker, validation)
        plan.validations += 1
        plan.measurements += len(validation["measurements"])
        plan.invalid += len(validation["invalid"])
    clashes = [
        Problem(
            f"{content.name}/{path}",
            Position(2, 1),
            "",
            f"expected a file written by the import, found a hand-written one; rename it "
            f"or move its analysis to {content.name}/analyses/",
        )
        for path in records
        if path in existing and not _owned(existing[path], MARKER)
    ]
    if clashes:
        raise ImportFailure(clashes)
    for path, (marker, data) in records.items():
        kind = path.split("/", 1)[0]
        text = dump(kind, marker, data)
        if existing.get(path) == text:
            plan.unchanged += 1
        plan.files[path] = text
    plan.removed = sorted(
        path
        for path, text in existing.items()
        if _owned(text, builder.marker.split(":", 1)[0] + ":") and path not in plan.files
    )
    return plan


def _provider_name(content: Path, mapping: Mapping, group: Group, existing: dict[str, str]) -> str:
    """The provider's name as its record gives it (the text says "Lambda's results"), else the
    mapping's; a record that does not load is reported when the whole folder is checked."""
    entry = next(e for e in mapping.submitters.values() if e.provider == group.provider)
    path = f"providers/{group.provider}.yaml"
    if path in existing:
        document, _ = load_text(path, existing[path].encode("utf-8"))
        value = document.value if document is not None else None
        if isinstance(value, dict) and isinstance(value.get("name"), str):
            return str(value["name"])
    return entry.name or group.provider


def _commit_problems(root: Path, commit: str) -> list[Problem]:
    """A git checkout must be at the commit the mapping names; a plain folder is taken as is."""
    if not (root / ".git").exists() or shutil.which("git") is None:
        return []
    head = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    if head and head != commit:
        return [
            Problem(
                str(root),
                Position(1, 1),
                "",
                f"expected a checkout at {commit}, as the mapping names, found {head}",
            )
        ]
    return []


def changed(content: Path, plan: Plan) -> list[str]:
    """The paths under content/ that the plan would change, add or remove."""
    paths = []
    for path, text in plan.files.items():
        target = content / path
        if not target.is_file() or target.read_bytes() != text.encode("utf-8"):
            paths.append(path)
    return sorted(paths + plan.removed)


def apply(content: Path, plan: Plan) -> list[str]:
    """Check the whole content folder with the plan applied, then apply it. Returns what changed."""
    paths = changed(content, plan)
    with tempfile.TemporaryDirectory() as temporary:
        staged = Path(temporary) / content.name
        shutil.copytree(content, staged, symlinks=True)
        _write(staged, plan, paths)
        try:
            load_site(staged, shown_root=staged.parent)
        except ContentError as error:
            raise ImportFailure(error.problems) from None
    _write(content, plan, paths)
    return paths


def _write(content: Path, plan: Plan, paths: Iterable[str]) -> None:
    # Each file goes in whole, by rename, so a reader never sees half a record.
    for path in paths:
        target = content / path
        if path in plan.removed:
            target.unlink()
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.importing")
        partial.write_text(plan.files[path], encoding="utf-8")
        partial.replace(target)
