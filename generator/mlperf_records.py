"""The content records of one imported MLPerf Training round: providers, platforms, one source
per system description, and one validation per provider, platform and round.

Every fact is graded program-owner, cited to the system description it comes from; what the
data does not settle is answered not-stated, and the rules that reason from it are cited apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .import_mapping import PROGRAM, AcceleratorEntry, Mapping, SubmitterEntry
from .mlperf import BENCHMARKS, MAX_NON_CONVERGED, Round, Score, SystemFile

GRADE = "program-owner"  # MLCommons publishes the data, and owns the program
MARKER = f"# Written by `cloudqual import {PROGRAM}`"
# The reasoning behind the import's answers and claims, in content/sources/.
SUBMISSION_RULES = "mlperf-submission-rules"


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


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
