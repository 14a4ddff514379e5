"""The import's scores against MLCommons' own: `mlperf_logging.result_summarizer`, run on real logs.

The fixture, tests/fixtures/mlperf/, is sixteen benchmark folders of four published rounds, trimmed
to the lines either reader needs (PROVENANCE.md says which, and from which commit). The reference
runs as MLCommons documents it, one submitter folder at a time, on a copy: it may rewrite the
scaling.json files it is given.
"""

from __future__ import annotations

import csv
import math
import shutil
import subprocess
import sys
from pathlib import Path, PurePosixPath

import pytest
from conftest import ROOT

from generator.checks.loader import load_site
from generator.importers.mlperf.mapping import read_mapping
from generator.importers.mlperf.rounds import read_round
from generator.importers.mlperf.tables import BENCHMARKS
from generator.model.mlperf import CLOUD

FIXTURE = ROOT / "tests" / "fixtures" / "mlperf"
ROUNDS = ("v4.1", "v5.0", "v5.1", "v6.0")
# (round, submitter folder, system file, benchmark) -> minutes
Scores = dict[tuple[str, str, str, str], float]


def reference_rows(round_name: str, workspace: Path) -> list[dict[str, str]]:
    """Every row MLCommons' summarizer writes for the round, submitter by submitter."""
    rows = []
    for submitter in sorted(p for p in (FIXTURE / round_name).iterdir() if p.is_dir()):
        copy = workspace / round_name / submitter.name
        shutil.copytree(submitter, copy)
        out = workspace / f"{round_name}-{submitter.name}.csv"
        ruleset = f"{round_name.removeprefix('v')}.0"
        command = [sys.executable, "-m", "mlperf_logging.result_summarizer"]
        command += [submitter.name, "training", ruleset, "--csv", str(out)]
        finished = subprocess.run(
            command, cwd=copy.parent, capture_output=True, text=True, timeout=300
        )
        assert finished.returncode == 0, finished.stderr
        with out.open(newline="", encoding="utf-8") as stream:
            rows += [{**row, "folder": submitter.name} for row in csv.DictReader(stream)]
    return rows


def reference_scores(round_name: str, rows: list[dict[str, str]]) -> Scores:
    """The reference's cloud scores: every filled benchmark cell of an Available cloud row."""
    benchmarks = BENCHMARKS[round_name.removeprefix("v")]
    scores: Scores = {}
    for row in rows:
        if row["availability"] != CLOUD:
            continue
        # The system file's name is the last part of its address, as the summarizer writes it.
        key = PurePosixPath(row["details_url"]).stem
        for column, cell in row.items():
            if cell and column in benchmarks:
                scores[(round_name, row["folder"], key, column)] = float(cell)
    return scores


def excerpts(round_name: str) -> frozenset[str]:
    """The result folders whose logs the mapping marks as excerpts."""
    return read_mapping(ROOT / "content").excerpt_folders(round_name)


def imported_scores(round_name: str, *, with_excerpts: bool = True) -> Scores:
    scored = read_round(
        FIXTURE / round_name, round_name.removeprefix("v"), excerpts=excerpts(round_name)
    )
    assert not scored.problems, scored.problems
    assert all(score.invalid is None for score in scored.scores), scored.scores
    return {
        (round_name, s.system.folder, s.system.key, s.benchmark): s.minutes
        for s in scored.scores
        if s.minutes is not None and (with_excerpts or not s.excerpt)
    }


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, str]]]:
    workspace = tmp_path_factory.mktemp("reference")
    return {name: reference_rows(name, workspace) for name in ROUNDS}


@pytest.mark.slow
@pytest.mark.parametrize("round_name", ROUNDS)
def test_every_score_equals_the_reference_summarizers(
    round_name: str, reference: dict[str, list[dict[str, str]]]
) -> None:
    expected = reference_scores(round_name, reference[round_name])
    # The summarizer scores no excerpt (its compliance check needs the whole log): the next
    # test holds those to its rule.
    found = imported_scores(round_name, with_excerpts=False)
    assert expected, "the reference scored no cloud result"
    assert found.keys() == expected.keys()
    for key, minutes in expected.items():
        assert math.isclose(found[key], minutes, rel_tol=1e-9, abs_tol=0), key


# It runs MLCommons' summarizer over every round's fixture, as the test above does: make test's.
@pytest.mark.slow
def test_both_readers_leave_out_the_same_systems(
    reference: dict[str, list[dict[str, str]]],
) -> None:
    """Systems of another status are in the reference's table, and not in the import."""
    left_out = {
        (name, PurePosixPath(row["details_url"]).stem, row["availability"])
        for name, rows in reference.items()
        for row in rows
        if row["availability"] != CLOUD
    }
    assert left_out == {
        ("v4.1", "cloud-tpu-trillium-512-maxtext", "Preview"),
        ("v4.1", "eos_ngc24.09_dgl", "Available on-premise"),
        ("v5.0", "nyx_n1_ngc25.04_nemo", "Available on-premise"),
        # The makers' own v6.0 results a cloud's time is set against, held as excerpts.
        ("v6.0", "MI355X_EPYC_9575F_primus", "Available on-premise"),
        ("v6.0", "theia_ngpu72_ngc26.04_nemo", "Available on-premise"),
        ("v6.0", "theia_ngpu8_ngc26.04_nemo", "Available on-premise"),
    }
    imported = {
        (name, system.key)
        for name in ROUNDS
        for system in read_round(FIXTURE / name, name.removeprefix("v")).systems
    }
    assert not {(name, key) for name, key, _ in left_out} & imported


def test_an_excerpt_scores_as_the_summarizers_own_rule_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Excerpts of logs hold the lines the score needs, and no more: MLCommons' summarizer's own
    scoring code, with its compliance check (which needs the whole log) left out, scores each
    excerpt folder as the import does, a run with no run_stop dropped as the slowest."""
    from mlperf_logging.compliance_checker.mlp_parser import parse_file
    from mlperf_logging.result_summarizer import result_summarizer as summarizer

    def parsed(path: str, usage: str, ruleset: str) -> list[object]:
        lines, failed = parse_file(path, ruleset=ruleset)
        assert not failed, (path, failed)  # every excerpt line parses, as MLCommons reads it
        return lines

    monkeypatch.setattr(summarizer, "_read_result_file", parsed)
    folders = excerpts("v6.0")
    makers = frozenset(read_mapping(ROOT / "content").makers)
    held = read_round(FIXTURE / "v6.0", "6.0", makers=makers, excerpts=folders)
    # The clouds' results, and the makers' own that they are set against.
    scored = [s for s in (*held.scores, *held.references) if s.excerpt]
    assert {s.folder for s in scored} == folders and len(folders) >= 10
    assert {s.system.submitter for s in held.references} == {"AMD", "NVIDIA"}
    dropped = 0
    for score in scored:
        reference, _, factor = summarizer._compute_strong_score_standalone(
            score.benchmark,
            score.system.key,
            False,
            str(FIXTURE / "v6.0" / score.folder),
            "training",
            "6.0.0",
        )
        assert score.minutes == reference, score.folder  # to the bit, as the whole logs are
        assert (score.scaling_factor or 1.0) == factor, score.folder
        dropped += len(score.dropped)
    assert dropped == 1  # Nebius's nebius_b300_n8 FLUX.1 result_05.txt, with no run_stop


def test_the_dropped_run_is_the_one_the_reference_fails() -> None:
    """The interleaved line of a v4.1 Lambda log: the run does not count, and the result stands
    on the other nine, as the reference scores it."""
    scored = read_round(FIXTURE / "v4.1", "4.1")
    (result,) = [s for s in scored.scores if s.benchmark == "stable_diffusion"]
    assert [(run.log.rsplit("/", 1)[1], run.line, run.failure) for run in result.dropped] == [
        ("result_240930043022868987627_01.txt", 7, "a malformed MLLOG line")
    ]
    assert result.minutes is not None


@pytest.mark.slow
def test_the_published_records_hold_the_fixtures_scores() -> None:
    """Each measurement in content/ that the fixture's logs cover is the score read from them, to
    the bit: the imported records are what the import computes from MLCommons' logs."""
    found = {
        (name, system, benchmark): minutes
        for name in ROUNDS
        for (_, _, system, benchmark), minutes in imported_scores(name).items()
    }
    site = load_site(ROOT / "content")
    published = {
        (v.program_release, m.system, m.benchmark): m.value
        for v in site.validations.values()
        if v.systems
        for m in v.measurements
    }
    covered = found.keys() & published.keys()
    # Every cloud result of the fixture is a published measurement (Google's v4.1 gpt3 at 4,096
    # chips is one; so are Lambda's whole v5.1 round and the joint submitter's 512 GPUs).
    assert covered == found.keys()
    # With Oracle's v6.0 MI355X result, read from a copy, and the clouds' v6.0 results read as
    # excerpts (the makers' excerpts are references, below).
    clouds = read_round(FIXTURE / "v6.0", "6.0", excerpts=excerpts("v6.0")).scores
    assert len(covered) == 13 + sum(s.excerpt for s in clouds)
    for key in covered:
        assert published[key] == found[key], key
    # Each v6.0 time set against a maker's own holds that maker's score, to the bit.
    makers = frozenset(read_mapping(ROOT / "content").makers)
    held = read_round(FIXTURE / "v6.0", "6.0", makers=makers, excerpts=excerpts("v6.0"))
    maker_scores = {
        (s.system.key, s.benchmark): s.minutes for s in (*held.references, *held.scores)
    }
    against = [
        (m.reference, m.benchmark)
        for v in site.validations.values()
        if v.program == "mlperf-training" and v.program_release == "v6.0" and v.systems
        for m in v.measurements
        if m.reference is not None
    ]
    assert len(against) >= 10
    for reference, benchmark in against:
        assert reference.value == maker_scores[(reference.system, benchmark)], reference
