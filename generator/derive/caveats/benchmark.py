"""Caveat rules for timed benchmark results on described systems, as MLPerf Training publishes.

Each rule reads the systems, measurements and invalid results a validation lists, and fires only
when they are there, so records without them (qualifications, ratings) never see these caveats.
Each cites, apart from the fact that fired it, the MLCommons document its reasoning rests on:
`caveats.rules.RULES` registers them with that source.
"""

from __future__ import annotations

from generator.derive.caveats.finding import Facts, Trigger
from generator.english import listed, plural
from generator.model.mlperf import CLOUD, same_release
from generator.model.validation import accelerator_noun

# The MLCommons documents the reasoning rests on, in content/sources/.
SUBMISSION_RULES = "mlperf-submission-rules"
TRAINING_RULES = "mlperf-training-rules"


def served(facts: Facts) -> bool:
    """Whether the results are served figures (MLPerf Inference, with a scenario) rather than
    times: the timed rules below leave them to the rules of `inference.py`."""
    v = facts.validation
    return any(m.scenario for m in v.measurements) or any(r.scenario for r in v.invalid)


def _sizes(counts: list[int]) -> str:
    return listed([f"{count:,}" for count in sorted(set(counts))])


def cloud_is_rentability(facts: Facts) -> Trigger | None:
    """ "Available cloud" is a rule about renting the system, not a performance guarantee."""
    cloud = [s for s in facts.validation.systems if s.status == CLOUD]
    if not cloud:
        return None
    return (
        '"Available cloud" is MLCommons\' rule about renting the system: it has pricing, '
        "publicly advertised or on request, has been rented by a third party, and is reasonably "
        "available for rent. It is not a performance guarantee for the allocation a buyer rents.",
        cloud[0],
    )


def time_at_its_size(facts: Facts) -> Trigger | None:
    """A time at N GPUs says nothing about a smaller or a larger allocation."""
    systems = facts.validation.systems
    if not systems or not any(m.system for m in facts.validation.measurements) or served(facts):
        return None
    sizes = _sizes([s.accelerator_count for s in systems])
    noun = accelerator_noun(facts.platform, facts.validation)
    return (
        f"Each time is for its own system's size ({sizes} {noun}s). It says nothing of how the "
        "same benchmark runs on a smaller or a larger allocation.",
        systems[0],
    )


def closed_division_fixes_model(facts: Facts) -> Trigger | None:
    """The closed division fixes the model and its quality target, not the buyer's own stack."""
    closed = [s for s in facts.validation.systems if s.division == "closed"]
    if not closed or served(facts):
        return None
    return (
        "In the closed division MLCommons fixes the preprocessing, model, training method and "
        "quality target to the reference implementation's. A result shows how fast this system "
        "trains that model, not how a buyer's own software stack, model or hyperparameters run.",
        closed[0],
    )


def benchmark_not_workload(facts: Facts) -> Trigger | None:
    """A benchmark is not the buyer's workload."""
    measured = [m for m in facts.validation.measurements if m.benchmark is not None]
    if not measured or served(facts):
        return None
    names = list(dict.fromkeys(m.workload for m in measured))
    shown = listed(names)
    return (
        f"The times are for MLCommons' benchmarks ({shown}). A buyer whose model, size or "
        "precision is not among them learns about their own workload only by analogy.",
        measured[0],
    )


def invalid_results(facts: Facts) -> Trigger | None:
    """A result the rules do not let be scored is listed as invalid, never left out."""
    invalid = facts.validation.invalid
    if not invalid or served(facts):
        return None
    reasons = "; ".join(f"{r.benchmark} on {r.system}: {r.reason}" for r in invalid)
    count = len(invalid)
    return (
        f"{count} submitted result{'s are' if count != 1 else ' is'} invalid under MLCommons' "
        f"rules and not scored: {reasons}.",
        invalid[0],
    )


def resubmitted_results(facts: Facts) -> Trigger | None:
    """A result submitted again from an earlier round measures nothing new: set beside that
    round's, it shows a change nobody measured."""
    again = [m for m in facts.validation.measurements if m.resubmitted is not None]
    if not again:
        return None
    rounds = sorted({m.resubmitted.round for m in again if m.resubmitted is not None})
    workloads = listed(list(dict.fromkeys(m.workload for m in again)))
    count = len(again)
    figures = plural("figure", count)
    return (
        f"{figures} here ({workloads}) {'are' if count != 1 else 'is'} round "
        f"{listed(rounds)}'s result{'s' if count != 1 else ''} submitted again, as MLCommons' "
        "rules allow: the same runs, scored anew. Set beside that round's, "
        f"{'they show' if count != 1 else 'it shows'} no change that anybody measured.",
        again[0].resubmitted or again[0],
    )


def framework_differs(facts: Facts) -> Trigger | None:
    """Where the run logs' own system lines give another framework release than the published
    system description, the description is not what ran."""
    differing = [
        s
        for s in facts.validation.systems
        if s.framework_in_logs is not None and not same_release(s.framework, s.framework_in_logs)
    ]
    if not differing:
        return None
    each = "; ".join(
        f"{s.key}: the logs give {s.framework_in_logs}, the description {s.framework or 'none'}"
        for s in differing
    )
    return (
        f"For {plural('system', len(differing))} the framework in the run logs' own "
        f"system lines differs from the published system description ({each}). The logs "
        "record what ran; the systems table shows both.",
        differing[0],
    )
