"""The sentences a Training round's records say of their results, apart from the records they
go in: what was not scored, what was submitted again, what has no result, and why a time
submitted again is not a new measurement."""

from __future__ import annotations

from typing import Any

from generator.derive.provenance import value_words
from generator.english import listed, plural
from generator.escape import markdown_literal as md
from generator.importers.core import round_builder as core
from generator.importers.mlperf.resubmission import Resubmission
from generator.importers.mlperf.rounds import Score
from generator.importers.mlperf.tables import MAX_NON_CONVERGED


def invalid_words(count: int) -> str:
    """The results the rules do not let be scored, or "" for none."""
    if not count:
        return ""
    are = "s are" if count != 1 else " is"
    return f" {count} submitted result{are} invalid under the rules and not scored."


def again_words(count: int, rounds: list[str]) -> str:
    """How many of the times are an earlier round's results submitted again, or "" for none."""
    if not count:
        return ""
    several = count != 1
    return (
        f" {count} of them {'are' if several else 'is'} round {listed(rounds)}'s "
        f"result{'s' if several else ''} submitted again, not "
        f"{'new measurements' if several else 'a new measurement'}."
    )


def idle_words(keys: list[str]) -> str:
    """The system descriptions with no published result, or "" for none."""
    if not keys:
        return ""
    have = "have" if len(keys) != 1 else "has"
    return (
        f" {plural('further system description', len(keys))} "
        f"({', '.join(md(key) for key in keys)}) {have} no published result."
    )


def excerpt_words(scores: list[Score]) -> str:
    """The words "excerpts of " where the times are scored from excerpts of their logs ("excerpts
    of some of " where only some are), or "" where from the whole logs."""
    excerpts = sum(score.excerpt for score in scores)
    if not excerpts:
        return ""
    return "excerpts of " if excerpts == len(scores) else "excerpts of some of "


def score_note(score: Score, reference: Score | None = None) -> str | None:
    """What a reader must know of how a time was scored: runs that did not count, logs read
    as excerpts (its own, or those of the maker's `reference` it is set against), and a
    scaling factor."""
    parts = []
    dropped, most = len(score.dropped), MAX_NON_CONVERGED.get(score.benchmark, 1)
    listed_runs = "; ".join(
        f"{run.log}:{run.line}: {run.failure}"
        if run.line is not None
        else f"{run.log}: {run.failure}"
        for run in score.dropped
    )
    converged = score.converged_minutes
    if converged is not None:
        # The rules did not fail these runs: a line of their logs did, and the reference
        # summarizer's compliance check with it. Both figures are shown, the scored first.
        them = "it" if dropped == 1 else "them"
        runs = "1 run" if dropped == 1 else f"{dropped} runs"
        parts.append(
            f"{runs} of {len(score.runs)} converged (run_stop status success) but "
            f"{'does' if dropped == 1 else 'do'} not count: a line of "
            f"{'its' if dropped == 1 else 'their'} log does not parse as an MLLOG entry "
            f"({listed_runs}), so MLCommons' reference summarizer, whose compliance check "
            f"fails such a log, scores the result without {them}, as if {them} had not "
            f"converged. Counted with that line skipped, the result would be "
            f"{value_words(converged, 'min')}."
        )
    elif dropped == most == 1:
        parts.append(
            f"1 of {len(score.runs)} runs did not count ({listed_runs}); the rules "
            "treat it as the slowest run, so only the fastest is dropped besides."
        )
    elif dropped:
        # unet3d drops four runs at each end, and up to four that do not count stand in
        # for the slowest of them.
        them, runs = ("it", "run") if dropped == 1 else ("them", "runs")
        rest = f" and the {most - dropped} slowest of the rest" if most > dropped else ""
        parts.append(
            f"{dropped} of {len(score.runs)} runs did not count ({listed_runs}); the rules "
            f"treat {them} as the slowest {runs}, so the {most} fastest{rest} are dropped "
            "besides."
        )
    if score.excerpt:
        parts.append(
            f"Scored from excerpts of its {plural('run log', len(score.runs))}, not the whole "
            "logs: from each, the run_start and run_stop lines (and the submission lines, and "
            "the system description the run wrote where it has one), verbatim and in order, the "
            "rest not read here. The time is MLCommons' rule on "
            "those lines; MLCommons' compliance checker, which its summarizer runs on each "
            "whole log, was not run, and a log submitted again from an earlier round could "
            "not be recognised."
        )
    if score.scaling_factor is not None:
        parts.append(
            f"The mean is multiplied by the scaling_factor {score.scaling_factor!r} of "
            f"{score.folder}/scaling.json."
        )
    if reference is not None and reference.excerpt:
        parts.append(
            f"{reference.system.submitter}'s own time it is set against is scored the same "
            f"way, from excerpts of its {plural('run log', len(reference.runs))} "
            f"({reference.folder})."
        )
    return " ".join(parts) or None


def repeat_reason(found: Resubmission) -> str:
    """Why a time submitted again is not established as this round's: its logs are the earlier
    round's, or its runs started before that round was published."""
    evidence = []
    if found.identical:
        how_many = (
            f"all {found.runs} of its run logs are"
            if found.identical == found.runs
            else f"{found.identical} of its {found.runs} run logs "
            f"{'are' if found.identical != 1 else 'is'}"
        )
        evidence.append(
            f"{how_many} round {found.round}'s, in {md(found.folder or '')}: the same "
            "MLLOG entries, in the same order"
        )
    if found.published is not None and found.last_start is not None:
        evidence.append(
            f"every run started on or before {found.last_start.isoformat()}, before "
            f"round {found.round} was published ({found.published.isoformat()})"
        )
    said = "; and ".join(evidence)
    return (
        f"{said[0].upper()}{said[1:]}. MLCommons' rules allow a result to be submitted again in "
        f"a later round; this one is round {found.round}'s runs, scored anew."
    )


def answers(valid: bool, first: str) -> dict[str, dict[str, Any]]:
    """The evidence questions a Training round's published logs answer."""
    return {
        "per-model-throughput": core.figures_answer(
            valid,
            "A time to train for each benchmark on each system, computed from MLCommons' "
            "published run logs.",
            "Every result submitted is invalid under the rules.",
            first,
        ),
        "pricing-published": {
            "answer": "not-published",
            "detail": (
                "MLCommons' rules require an Available cloud system to have pricing, publicly "
                "advertised or available by request; the results carry none."
            ),
            "source": core.SUBMISSION_RULES,
        },
        "independent-reproduction": core.not_reproduced(
            "MLCommons' members review each round's results before publication; that review "
            "is not a reproduction.",
            "mlperf-training-benchmark",
        ),
    }
