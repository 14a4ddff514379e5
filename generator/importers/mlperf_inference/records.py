"""The content records of one imported MLPerf Inference round: providers, platforms, one source
per system description (a cloud's, and a chip maker's whose result is a reference), and one
validation per provider, platform, round and division.

Every fact is graded program-owner, cited to the system description it comes from; what the data
does not settle is answered not-stated, and the rules that reason from it are cited apart. Each
cloud figure in the closed division is set against the chip maker's own result for the same
benchmark, scenario, accelerator and number of accelerators in the same round, where the maker
published one: as a reference, never as a validation of the maker.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.english import listed, plural
from generator.escape import markdown_literal as md
from generator.importers.core import round_builder as core
from generator.importers.mlperf_inference import wording
from generator.importers.mlperf_inference.accuracy import Reported
from generator.importers.mlperf_inference.mapping import PROGRAM, cloud_of
from generator.importers.mlperf_inference.metrics import higher_is_better
from generator.importers.mlperf_inference.results import Result, Round, SystemFile
from generator.importers.mlperf_inference.wording import SCENARIO_ORDER, cloud_words
from generator.model.imports import CloudEntry, InferenceMapping
from generator.model.links import slug

MARKER = core.written_by(PROGRAM)


def accuracy_target(benchmark: str) -> str | None:
    """The accuracy a result had to reach, where the benchmark's id names it (-99, -99.9)."""
    for suffix in ("99.9", "99"):
        if benchmark.endswith(f"-{suffix}"):
            return f"{suffix}% of the FP32 reference"
    return None


def target_words(benchmark: str) -> str:
    """A closed-division target by the words pages use: the share of the FP32 reference where
    the id names one, else the benchmark's own target."""
    return accuracy_target(benchmark) or f"{benchmark}'s accuracy target"


def reported_accuracy(reported: Reported) -> dict[str, Any]:
    return {
        "values": [{"metric": name, "value": value} for name, value in reported.values],
        "meets": [target_words(b) for b in reported.meets],
        "misses": [target_words(b) for b in reported.misses],
    }


# Where MLCommons' results table labels a figure in another unit than the one it is: the import
# shows the figure's own unit and says what the table calls it.
TABLE_UNITS = {("whisper", "Tokens/s"): "Samples/s"}


@dataclass(frozen=True)
class Group:
    """The results of one provider on one platform in one round and division: one validation."""

    provider: str
    platform: str
    division: str
    entries: tuple[CloudEntry, ...]  # whose cloud, per system
    results: tuple[Result, ...]
    systems: tuple[SystemFile, ...]


class RoundRecords(core.RoundBuilder):
    """The records of one round, from what `read_round` found and the mapping."""

    def __init__(self, reading: Round, mapping: InferenceMapping, round_name: str) -> None:
        self.reading = reading
        self.mapping = mapping
        super().__init__(PROGRAM, mapping.rounds, round_name, mapping.accelerators)
        self._references = self._reference_index()
        self._groups = self._make_groups()  # the ids, the sources and the plan all read them
        self.source_ids = self._source_ids()

    # -- ids -------------------------------------------------------------------------------------

    def _cited_systems(self) -> list[SystemFile]:
        """Every system a record cites: the clouds' with results, and the makers' references."""
        cited = {(s.path): s for g in self.groups() for s in g.systems}
        for result in self._references.values():
            cited[result.system.path] = result.system
        return sorted(cited.values(), key=lambda s: s.path)

    def _source_ids(self) -> dict[str, str]:
        """An id per system description, unique in the round; two files whose names read the
        same as an id, or a name past an id's length, are told apart by a hash of the path."""
        systems = self._cited_systems()
        base = {
            s.path: (
                f"{PROGRAM}-{self.release_slug}-{slug(s.folder)}-{slug(s.key)}"
                + ("-open" if s.division == "open" else ""),
                s.path,
            )
            for s in systems
        }
        return core.unique_ids(base)

    def source_id(self, system: SystemFile) -> str:
        return self.source_ids[system.path]

    def cited(self) -> list[SystemFile]:
        return self._cited_systems()

    # -- groups and references -------------------------------------------------------------------

    def groups(self) -> list[Group]:
        return self._groups

    def _make_groups(self) -> list[Group]:
        by_key: dict[tuple[str, str, str], list[Result]] = {}
        entries: dict[tuple[str, str, str], dict[str, CloudEntry]] = {}
        for result in self.reading.results:
            entry = cloud_of(self.mapping, result.system)
            if entry is None:
                continue
            platform = self.mapping.accelerators[result.system.accelerator].platform
            key = (entry.provider, platform, result.system.division)
            by_key.setdefault(key, []).append(result)
            entries.setdefault(key, {})[result.system.key] = entry
        groups = []
        for (provider, platform, division), results in sorted(by_key.items()):
            ordered = sorted(results, key=self._order)
            systems = tuple(dict.fromkeys(r.system for r in ordered))
            groups.append(
                Group(
                    provider,
                    platform,
                    division,
                    tuple(entries[(provider, platform, division)].values()),
                    tuple(ordered),
                    systems,
                )
            )
        return groups

    def _order(self, result: Result) -> tuple[int, str, str, int, str]:
        scenario = SCENARIO_ORDER.index(result.scenario)
        return (
            result.system.accelerators,
            result.system.key,
            result.benchmark,
            scenario,
            result.model,
        )

    def _reference_index(self) -> dict[tuple[str, str, str, int, str, str], Result]:
        """The makers' best valid closed-division result per benchmark, scenario, accelerator,
        number of accelerators, availability and maker."""
        best: dict[tuple[str, str, str, int, str, str], Result] = {}
        for result in self.reading.results:
            entry = self.mapping.submitters.get(result.system.submitter)
            system = result.system
            if entry is None or entry.maker is None or result.figure is None:
                continue
            if system.division != "closed" or not result.same_model:
                continue
            key = (
                result.benchmark,
                result.scenario,
                system.accelerator,
                system.accelerators,
                system.status.lower(),
                entry.maker,
            )
            held = best.get(key)
            if held is None or self._better(result, held):
                best[key] = result
        return best

    @staticmethod
    def _better(result: Result, than: Result) -> bool:
        assert result.figure is not None and than.figure is not None
        if higher_is_better(result.figure.unit):
            return result.figure.value > than.figure.value
        return result.figure.value < than.figure.value

    def reference(self, result: Result) -> Result | None:
        """The chip maker's own result a cloud's is set against: same round, closed division,
        benchmark, scenario, accelerator, count and availability; never the submitter's own."""
        system = result.system
        if system.division != "closed" or result.figure is None or not result.same_model:
            return None
        vendor = self.mapping.accelerators[system.accelerator].vendor
        found = self._references.get(
            (
                result.benchmark,
                result.scenario,
                system.accelerator,
                system.accelerators,
                system.status.lower(),
                vendor,
            )
        )
        if found is None or found.system.submitter == system.submitter:
            return None
        return found

    # -- records ---------------------------------------------------------------------------------

    @property
    def table(self) -> bool:
        """Whether the round is read from MLCommons' table alone: no logs, no descriptions."""
        return self.entry.read == "table"

    @property
    def read_from(self) -> str:
        if self.table:
            return "as MLCommons' table of the round gives it (its logs could not be read)"
        return "read from MLCommons' published logs"

    @property
    def figures_words(self) -> str:
        if self.table:
            return (
                "The figures here are MLCommons' table's, as published: the system "
                "descriptions and logs behind them could not be read."
            )
        return (
            "The figures here are read from those logs as MLCommons' submission checker reads them."
        )

    def source(self, system: SystemFile) -> dict[str, Any]:
        repository = self.entry.repository.rstrip("/")
        results = f"{system.division}/{system.folder}/results/{system.key}/"
        if self.table:
            return core.source_record(
                self.source_id(system),
                (
                    f"MLPerf Inference {self.round_name} results table (summary.csv), the rows "
                    f"of {system.division}/{system.folder}, {system.key}"
                ),
                f"{repository}/blob/{self.entry.commit}/summary.csv",
                (
                    "MLCommons' table of the round. The system's description and performance "
                    f"logs (under {md(results)} in MLCommons' submission) are not in the "
                    "repository read: each figure is the table's Result, in its Units, and the "
                    "system's fields are the table's columns." + core.read_note(self.entry)
                ),
                PROGRAM,
            )
        return core.source_record(
            self.source_id(system),
            (
                f"MLPerf Inference {self.round_name} system description: {system.division}/"
                f"{system.folder}, {system.key}"
            ),
            f"{repository}/blob/{self.entry.commit}/{core.url_path(system.path)}",
            (
                f"The system's performance logs are under {md(results)} at the same commit. "
                "cloudqual reads each figure from them as MLCommons' submission checker does."
                + core.read_note(self.entry)
            ),
            PROGRAM,
        )

    def workload(self, result: Result) -> str:
        return self.mapping.models[result.benchmark]

    def measurement(self, result: Result) -> dict[str, Any]:
        figure = result.figure
        assert figure is not None
        found: dict[str, Any] = {
            "workload": self.workload(result),
            "metric": figure.metric,
            "value": figure.value,
            "unit": figure.unit,
            "source": self.source_id(result.system),
            "grade": self.grade,
        }
        notes = []
        if result.from_summary:
            notes.append(
                f"Read from the run's summary log ({figure.key} as its line gives it), the "
                "detail log not being in the copy of the round the import read."
            )
        labelled = TABLE_UNITS.get((result.benchmark, figure.unit))
        if labelled is not None:
            notes.append(
                f"MLCommons' results table labels this figure {labelled}; it is the "
                f"{figure.unit} the submission checker reads ({figure.key})."
            )
        if notes:
            found["note"] = " ".join(notes)
        found["system"] = result.system.key
        found["benchmark"] = result.benchmark
        found["scenario"] = result.scenario
        # The open division holds a result to no accuracy target: its logs' own figure instead.
        opened = result.system.division == "open"
        found["accuracy_target"] = None if opened else accuracy_target(result.benchmark)
        reference = self.reference(result)
        if reference is not None and reference.figure is not None:
            found["reference"] = {
                "source": self.source_id(reference.system),
                "grade": self.grade,
                "submitter": reference.system.submitter,
                "system": reference.system.key,
                "accelerators": reference.system.accelerators,
                "value": reference.figure.value,
                "framework": reference.system.framework,
                "host_processor": reference.system.host_processor,
                "cooling": reference.system.cooling,
                "driver": reference.system.driver,
            }
        if not result.same_model:
            found["model_run"] = result.model
        if result.accuracy is not None:
            found["accuracy"] = reported_accuracy(result.accuracy)
        return found

    def submission(self, group: Group) -> dict[str, Any]:
        submitters = sorted({s.submitter for s in group.systems})
        clouds = {e.cloud for e in group.entries}
        notes = list(dict.fromkeys(e.note for e in group.entries if e.note))
        cloud = clouds.pop() if len(clouds) == 1 else "not-named"
        first = self.source_id(group.systems[0])
        return core.submission_record(first, self.grade, submitters, cloud, notes)

    def results_of(self, submission: dict[str, Any], provider_name: str) -> str:
        named = submission["cloud"] == "named"
        return self.whose(
            submission, "results", f" in {cloud_words(provider_name)}" if named else ""
        )

    def validation(self, group: Group, provider_name: str) -> dict[str, Any]:
        first, accelerator, entry = self.accelerator(group)
        chip, noun = entry.chip, entry.noun
        valid = [r for r in group.results if r.figure is not None]
        invalid = [r for r in group.results if r.figure is None]
        benchmarks = list(dict.fromkeys(self.workload(r) for r in valid))
        names = listed(benchmarks) or "no benchmark"
        sizes_found = sorted({s.accelerators for s in group.systems})
        described = core.systems_words(len(group.systems), sizes_found, noun)
        statuses = listed(sorted({s.status for s in group.systems}))
        frameworks = {s.framework for s in group.systems}
        submission = self.submission(group)
        results = self.results_of(submission, provider_name)
        division = group.division
        preview_words = wording.preview_words(
            any(s.status.lower() == "preview" for s in group.systems)
        )
        invalid_words = wording.invalid_words(len(invalid))
        scenarios = wording.scenarios_words({r.scenario for r in valid})
        on = (
            ", on a cloud the system description does not name"
            if submission["cloud"] == "not-named"
            else ""
        )
        claims: list[dict[str, Any]] = [
            self.stated(
                f"MLCommons published {results} on {md(accelerator)}{on}, {described}, "
                f"availability {statuses}, {division} division: {names}, {scenarios}. "
                f"{self.figures_words}{invalid_words}",
                first,
            ),
            core.allocation_claim(
                "serves at the same rate",
                "MLCommons' rules fix how a run is measured and when a system counts as "
                "available; they say nothing of the performance of any other allocation.",
            ),
        ]
        claims += wording.whose_cloud_claims(submission, provider_name, first)
        given = wording.answers(bool(valid), self.read_from, first)
        published = (
            f"MLCommons published {plural('result', len(valid))} in round "
            f"{self.round_name}, {division} division, availability {statuses}."
            f"{invalid_words}{preview_words}"
        )
        return self.record(
            group,
            submission,
            summary=(
                f"{results[0].upper()}{results[1:]} on {chip}{on}, {division} division: "
                f"{described}, on {names}, {self.read_from}. Each figure "
                "is a rate or a latency on MLCommons' benchmark, in its scenario, at that "
                f"system's size, not on a buyer's workload or allocation.{preview_words}"
            ),
            published=published,
            given=given,
            valid=valid,
            invalid=invalid,
            scope=self.scope(first, sizes_found, frameworks, len(benchmarks)),
            claims=claims,
            fields=lambda s: {
                "host_processor": s.host_processor,
                "cooling": s.cooling,
                "driver": s.driver,
            },
            invalid_fields={"scenario": lambda r: r.scenario},
            suffix="-open" if division == "open" else "",
        )
