"""The content records of one imported MLPerf Training round: providers, platforms, one source
per system description (and one per earlier round's folder a result repeats), and one validation
per provider, platform and round.

Every fact is graded program-owner, cited to the system description it comes from; what the
data does not settle is answered not-stated, and the rules that reason from it are cited apart.
Who ran a result is said as the submission says it: the submitter, and whose cloud it ran on
(the submitter's own, a joint submission's, or one it does not name). Every result carries the
round's publication date, its runs' own dates, and, where it repeats an earlier round's runs,
that round.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.english import plural
from generator.escape import markdown_literal as md
from generator.importers.core import round_builder as core
from generator.importers.mlperf import wording
from generator.importers.mlperf.mapping import PROGRAM
from generator.importers.mlperf.resubmission import Resubmission, start_date
from generator.importers.mlperf.rounds import Round, Score, SystemFile
from generator.importers.mlperf.tables import BENCHMARKS
from generator.model.imports import TrainingMapping, TrainingSubmitter
from generator.model.links import slug
from generator.model.mlperf import same_release

MARKER = core.written_by(PROGRAM)
# The reasoning behind the import's answers and claims, in content/sources/.
TRAINING_RULES = "mlperf-training-rules"
# The order in which a group's clouds are said, from the plainest: a group that mixes them is
# said as its least plain.
CLOUD_ORDER = ("submitter", "joint", "not-named")


@dataclass(frozen=True)
class Group:
    """The results of one provider on one platform in one round: one validation."""

    provider: str
    platform: str
    scores: tuple[Score, ...]
    systems: tuple[SystemFile, ...]  # with results, then those described without any


class RoundRecords(core.RoundBuilder):
    """The records of one round, from what `read_round` found, the mapping, and the results
    that repeat an earlier round's, by benchmark folder."""

    def __init__(
        self,
        reading: Round,
        mapping: TrainingMapping,
        round_name: str,
        resubmissions: dict[str, Resubmission] | None = None,
    ) -> None:
        self.reading = reading
        self.mapping = mapping
        super().__init__(PROGRAM, mapping.rounds, round_name, mapping.accelerators)
        self.resubmissions = resubmissions or {}
        self._references = self._reference_index()
        self.source_ids = self._source_ids()

    def source_id(self, system: SystemFile) -> str:
        return self.source_ids[(system.folder, system.key)]

    def _source_ids(self) -> dict[tuple[str, str], str]:
        """An id per system description, unique in the round. File names are MLCommons' keys and
        hold capitals, dots and underscores, which ids do not: `Sys_A.json` and `sys-a.json`
        both read sys-a, and one system's measurements would cite the other's description. Each
        of two such files, or a name past an id's length, is told apart by a hash of its path."""
        base = {
            (s.folder, s.key): (
                f"{PROGRAM}-{self.release_slug}-{slug(s.folder)}-{slug(s.key)}",
                f"{s.folder}/{s.key}",
            )
            for s in [*self.reading.systems, *self.reference_systems()]
        }
        return core.unique_ids(base)

    def _reference_index(self) -> dict[tuple[str, str, int, str], Score]:
        """The makers' fastest valid closed-division result per benchmark, accelerator, number
        of accelerators and maker: on a system of any status, their cloud ones included."""
        makers = self.mapping.makers
        candidates = [
            *self.reading.references,
            *(s for s in self.reading.scores if s.system.submitter in makers),
        ]
        best: dict[tuple[str, str, int, str], Score] = {}
        for found in candidates:
            system = found.system
            if found.minutes is None or system.division != "closed":
                continue
            key = (
                found.benchmark,
                system.accelerator,
                system.nodes * system.accelerators_per_node,
                makers[system.submitter],
            )
            held = best.get(key)
            if held is None or (held.minutes is not None and found.minutes < held.minutes):
                best[key] = found
        return best

    def reference(self, score: Score) -> Score | None:
        """The chip maker's own result a cloud's time is set against: the same round, closed
        division, benchmark, accelerator and number of them; never the submitter's own."""
        system = score.system
        entry = self.mapping.accelerators.get(system.accelerator)
        if entry is None or system.division != "closed" or score.minutes is None:
            return None
        found = self._references.get(
            (
                score.benchmark,
                system.accelerator,
                system.nodes * system.accelerators_per_node,
                entry.vendor,
            )
        )
        if found is None or found.system.submitter == system.submitter:
            return None
        return found

    def reference_systems(self) -> list[SystemFile]:
        """The makers' systems a cloud's time is set against, each once."""
        cited = {}
        for scored in self.reading.scores:
            found = self.reference(scored)
            if found is not None and found.system not in self.reading.systems:
                cited[(found.system.folder, found.system.key)] = found.system
        return [cited[key] for key in sorted(cited)]

    def reference_record(self, score: Score) -> dict[str, Any] | None:
        found = self.reference(score)
        if found is None or found.minutes is None:
            return None
        system = found.system
        return {
            "source": self.source_id(system),
            "grade": self.grade,
            "submitter": system.submitter,
            "system": system.key,
            "accelerators": system.nodes * system.accelerators_per_node,
            "value": found.minutes,
            "framework": self.framework_as_run(system),
        }

    def earlier_source_id(self, resubmission: Resubmission) -> str:
        """The source of an earlier round's folder of run logs: owned by this round's import,
        and named apart from the earlier round's own system description sources."""
        base = f"{PROGRAM}-{slug(resubmission.round)}-logs-"
        folder = slug(resubmission.folder or "")
        if len(base) + len(folder) <= core.ID_LENGTH:
            return base + folder
        # Ids are at most 80 characters: a long folder is cut, and told apart by a hash.
        return core.short_id(base + folder, resubmission.folder or "")

    def benchmark_name(self, benchmark: str) -> str:
        return self.mapping.benchmarks.get(benchmark, benchmark)

    def benchmark_order(self, benchmark: str) -> int:
        listed = BENCHMARKS[self.reading.number]
        return listed.index(benchmark) if benchmark in listed else len(listed)

    @staticmethod
    def size(system: SystemFile) -> tuple[int, str]:
        return system.nodes * system.accelerators_per_node, system.key

    def groups(self) -> list[Group]:
        by_key: dict[tuple[str, str], list[SystemFile]] = {}
        for system in self.reading.systems:
            provider = self.mapping.submitters[system.submitter].provider
            platform = self.mapping.accelerators[system.accelerator].platform
            by_key.setdefault((provider, platform), []).append(system)
        groups = []
        for (provider, platform), systems in sorted(by_key.items()):
            ran = [s for s in systems if s not in self.reading.without_results]
            if not ran:
                continue  # listed in the import's report; a system with no result is no result
            idle = [s for s in systems if s in self.reading.without_results]
            keys = {(s.folder, s.key) for s in ran}
            scores = sorted(
                (s for s in self.reading.scores if (s.system.folder, s.system.key) in keys),
                key=lambda s: (
                    *self.size(s.system),
                    self.benchmark_order(s.benchmark),
                    s.benchmark,
                ),
            )
            ordered = (*sorted(ran, key=self.size), *sorted(idle, key=self.size))
            groups.append(Group(provider, platform, tuple(scores), ordered))
        return groups

    def source(self, system: SystemFile) -> dict[str, Any]:
        repository = self.entry.repository.rstrip("/")
        return core.source_record(
            self.source_id(system),
            (
                f"MLPerf Training {self.round_name} system description: {system.folder}, "
                f"{system.key}"
            ),
            f"{repository}/blob/{self.entry.commit}/{core.url_path(system.path)}",
            (
                f"The system's run logs are under {md(f'{system.folder}/results/{system.key}/')} "
                "at the same commit. cloudqual computes each time from them by MLCommons' "
                "scoring rule, as MLCommons' result_summarizer does." + core.read_note(self.entry)
            ),
            PROGRAM,
        )

    def earlier_source(self, resubmission: Resubmission) -> dict[str, Any]:
        earlier = self.mapping.rounds[resubmission.round]
        repository = earlier.repository.rstrip("/")
        return core.source_record(
            self.earlier_source_id(resubmission),
            f"MLPerf Training {resubmission.round} run logs: {resubmission.folder}",
            f"{repository}/tree/{earlier.commit}/{core.url_path(resubmission.folder or '')}",
            (
                f"Compared by cloudqual with round {self.round_name}'s run logs: two logs are "
                "the same run when their MLLOG entries are the same, in the same order."
            ),
            PROGRAM,
        )

    def resubmitted(self, score: Score) -> dict[str, Any] | None:
        found = self.resubmissions.get(score.folder)
        if found is None:
            return None
        if found.folder is not None:
            source = self.earlier_source_id(found)
        else:
            source = self.mapping.published(found.round).source
        return {
            "source": source,
            "grade": self.grade
            if found.folder is not None
            else self.mapping.published(found.round).grade,
            "round": found.round,
            "folder": found.folder,
            "identical_logs": found.identical,
            "runs": found.runs,
            "before": found.published,
        }

    def runs_started(self, score: Score) -> dict[str, Any] | None:
        starts = score.starts_ms
        if not starts:
            return None
        return {"first": start_date(starts[0]), "last": start_date(starts[-1])}

    def framework_in_logs(self, system: SystemFile) -> str | None:
        found = {
            framework
            for score in self.reading.scores
            if score.system == system
            for framework in score.frameworks
        }
        return "; ".join(sorted(found)) or None

    def framework_as_run(self, system: SystemFile) -> str | None:
        """The description's framework, unless the logs give another release: then theirs."""
        logged = self.framework_in_logs(system)
        if logged is None or same_release(system.framework, logged):
            return system.framework
        return logged

    def submission(self, group: Group) -> tuple[dict[str, Any], TrainingSubmitter]:
        """Who submitted the group's results, and the mapping entry that says whose cloud."""
        submitters = sorted({s.submitter for s in group.systems})
        entries = [self.mapping.submitters[name] for name in submitters]
        entry = max(entries, key=lambda e: CLOUD_ORDER.index(e.cloud))
        notes = [e.note for e in entries if e.note]
        notes += [
            f"First published under the name {e.renamed.published_as}."
            for e in entries
            if e.renamed is not None
        ]
        first = self.source_id(group.systems[0])
        return core.submission_record(first, self.grade, submitters, entry.cloud, notes), entry

    def results_of(self, submission: dict[str, Any], what: str) -> str:
        """`what` (run logs, results) of the round, as the submission's: "Nebius's MLPerf
        Training v5.1 results", or "the MLPerf Training v5.0 results of the joint submission of
        CoreWeave + IBM + NVIDIA"."""
        if submission["cloud"] == "joint":
            return (
                f"the MLPerf Training {self.round_name} {what} of the joint submission of "
                f"{md(submission['submitter'])}"
            )
        return self.whose(submission, what)

    def validation(self, group: Group, provider_name: str) -> dict[str, Any]:
        first, accelerator, accelerator_entry = self.accelerator(group)
        chip, noun = accelerator_entry.chip, accelerator_entry.noun
        ran = [s for s in group.systems if s not in self.reading.without_results]
        idle = [s for s in group.systems if s in self.reading.without_results]
        valid = [s for s in group.scores if s.minutes is not None]
        invalid = [s for s in group.scores if s.minutes is None]
        again = [s for s in valid if s.folder in self.resubmissions]
        benchmarks = sorted(
            {s.benchmark for s in valid}, key=lambda b: (self.benchmark_order(b), b)
        )
        sizes_found = sorted({s.nodes * s.accelerators_per_node for s in ran})
        as_run = {self.framework_as_run(s) for s in ran}
        names = ", ".join(self.benchmark_name(b) for b in benchmarks) or "no benchmark"
        described = core.systems_words(len(ran), sizes_found, noun)
        submission, entry = self.submission(group)
        submitters = sorted({s.submitter for s in group.systems})
        on = ", on a cloud the submission does not name" if entry.cloud == "not-named" else ""
        invalid_words = wording.invalid_words(len(invalid))
        again_rounds = sorted({self.resubmissions[s.folder].round for s in again})
        again_words = wording.again_words(len(again), again_rounds)
        idle_words = wording.idle_words([s.key for s in idle])
        claims: list[dict[str, Any]] = [
            self.stated(
                f"{self.held_by} {self.results_of(submission, 'run logs')} on "
                f"{md(accelerator)}{on}, {described}, with the status Available cloud: "
                f"{names}. The times here are computed from {wording.excerpt_words(valid)}"
                f"those logs by MLCommons' scoring rule.{again_words}{invalid_words}",
                first,
            ),
            core.allocation_claim(
                "trains in the same time",
                "MLCommons' availability rule requires pricing, a third-party rental and "
                "reasonable availability for rent; it says nothing of the performance of any "
                "other allocation.",
            ),
        ]
        claims += [self.repeat_claim(score, first) for score in again]
        claims += self.renamed_claims(submitters)
        claims += self.statements(group)
        if entry.cloud != "submitter":
            claims.append(
                core.unstated_claim(
                    "Whose cloud rents the systems.",
                    entry.note,
                    "The system descriptions do not name the cloud that rents the systems.",
                    first,
                )
            )
        results = self.results_of(submission, "results")
        summary = (
            f"{results[:1].upper()}{results[1:]} on {chip}{on}: "
            f"{described}, on {names}, computed from {wording.excerpt_words(valid)}"
            f"{self.logs}."
            f"{again_words} Each is a time on MLCommons' benchmark at that system's size, "
            "not on a buyer's workload or allocation."
        )
        published = (
            f"{self.held_by} {plural('result', len(valid))} "
            f"in round {self.round_name}, closed division, status Available cloud."
            f"{again_words}{invalid_words}{idle_words}"
        )
        return self.record(
            group,
            submission,
            summary=summary,
            published=published,
            given=wording.answers(bool(valid), first),
            valid=valid,
            invalid=invalid,
            scope=self.scope(first, sizes_found, as_run, len(benchmarks)),
            claims=claims,
            fields=lambda s: {
                **({"framework_in_logs": f} if (f := self.framework_in_logs(s)) else {}),
                **({"results_published": False} if s in idle else {}),
            },
        )

    def measurement(self, s: Score) -> dict[str, Any]:
        """A scored time, as its validation lists it."""
        return {
            "workload": self.benchmark_name(s.benchmark),
            "metric": "time to train",
            "value": s.minutes,
            "unit": "min",
            "source": self.source_id(s.system),
            "grade": self.grade,
            **({"note": note} if (note := wording.score_note(s, self.reference(s))) else {}),
            "system": s.system.key,
            "benchmark": s.benchmark,
            **({"runs_started": r} if (r := self.runs_started(s)) else {}),
            **({"resubmitted": r} if (r := self.resubmitted(s)) else {}),
            **({"reference": r} if (r := self.reference_record(s)) else {}),
        }

    def renamed_claims(self, submitters: list[str]) -> list[dict[str, Any]]:
        """What the mapping says of each submitter first published under another name."""
        return [
            {"text": renamed.note, "source": renamed.source, "grade": self.grade}
            for name in submitters
            if (renamed := self.mapping.submitters[name].renamed) is not None
        ]

    def statements(self, group: Group) -> list[dict[str, Any]]:
        """What the group's submitters say of these results, from the mapping, in its order."""
        keys, submitters = {s.key for s in group.systems}, {s.submitter for s in group.systems}
        return [
            {"text": said.text, "source": said.source, "grade": said.grade}
            for said in self.mapping.statements
            if said.round == self.round_name and said.submitter in submitters
            if said.systems is None or keys & set(said.systems)
        ]

    def repeat_claim(self, score: Score, first: str) -> dict[str, Any]:
        """That a time submitted again was measured for this round: not established, with the
        evidence that it is an earlier round's runs."""
        found = self.resubmissions[score.folder]
        shown = f"{self.benchmark_name(score.benchmark)} time on {md(score.system.key)}"
        return {
            "text": f"That the {shown} was measured for round {self.round_name}.",
            "grade": "not-established",
            "reason": wording.repeat_reason(found),
            "source": (self.resubmitted(score) or {"source": first})["source"],
        }

    @property
    def held_by(self) -> str:
        """Who holds the logs read: MLCommons, or a copy nothing shows to be its publication."""
        if self.entry.read == "copy":
            return "A copy of the round, not MLCommons' own repository, holds"
        return "MLCommons published"

    @property
    def logs(self) -> str:
        """Whose run logs the times are computed from: MLCommons', or a copy's."""
        if self.entry.read == "copy":
            return "the run logs a copy of the round holds, not MLCommons' own repository"
        return "MLCommons' published run logs"

    def deployment(self, group: Group, first: str) -> dict[str, Any]:
        """Where the group's systems ran: what a submitter says of it, from the mapping, over
        the round's descriptions' silence."""
        return super().deployment(group, first) | (self.stated_deployment(group) or {})

    def stated_deployment(self, group: Group) -> dict[str, Any] | None:
        """What a submitter says of where the group's systems ran, from the mapping."""
        by_submitter = self.mapping.deployments.get(self.round_name, {})
        for system in group.systems:
            entry = by_submitter.get(system.submitter)
            if entry is None or (entry.systems is not None and system.key not in entry.systems):
                continue
            covered = entry.systems is None or {s.key for s in group.systems} <= set(entry.systems)
            if not covered:
                continue
            return {"source": entry.source, "grade": entry.grade, "environment": entry.environment}
        return None
