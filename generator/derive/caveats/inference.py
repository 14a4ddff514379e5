"""Caveat rules for served results on described systems, as MLPerf Inference publishes: a
figure per benchmark and scenario, at an accuracy target; and for any figure set beside the chip
maker's own.

Each but the last fires only on a validation whose figures carry a scenario, so a timed result
never sees these, as a served one never sees the timed rules of `benchmark.py`.
`caveats.rules.RULES` registers them with the MLCommons document their reasoning rests on.
"""

from __future__ import annotations

from generator.derive.caveats.benchmark import served
from generator.derive.caveats.finding import Facts, Trigger
from generator.english import listed, plural
from generator.model.validation import accelerator_noun

# The MLCommons documents the reasoning rests on, in content/sources/.
INFERENCE_RULES = "mlperf-inference-rules"
SUBMISSION_RULES = "mlperf-submission-rules"


def _opened(facts: Facts) -> set[str]:
    """The keys of the result's open-division systems."""
    return {s.key for s in facts.validation.systems if s.division == "open"}


def offline_without_latency(facts: Facts) -> Trigger | None:
    """An Offline figure is throughput under no latency bound; an open-division figure is held
    to none in any scenario."""
    offline = [m for m in facts.validation.measurements if m.scenario == "Offline"]
    if not offline:
        return None
    names = listed(list(dict.fromkeys(m.workload for m in offline)))
    opened = _opened(facts)
    served = [m for m in facts.validation.measurements if m.scenario in ("Server", "Interactive")]
    bounded = [m for m in served if m.system not in opened]
    if bounded:
        rest = (
            " The closed division's Server and Interactive figures are the highest rates that "
            "met the benchmark's latency bound."
        )
    else:
        rest = " No figure here was measured under a latency bound."
    if len(bounded) < len(served):
        rest += (
            " The open division holds its Server and Interactive figures to no latency bound: "
            "its submitter reports the bounds it chose."
        )
    return (
        f"The Offline figures ({names}) are throughput with every sample sent at once and no "
        "latency bound: they say nothing of how long a user waits for an answer." + rest,
        offline[0],
    )


def served_at_its_size(facts: Facts) -> Trigger | None:
    """A rate at N accelerators says nothing of another allocation."""
    systems = facts.validation.systems
    if not systems or not served(facts) or not facts.validation.measurements:
        return None
    counts = sorted({s.accelerator_count for s in systems})
    noun = accelerator_noun(facts.platform, facts.validation)
    sizes = (
        plural(noun, counts[0])
        if len(counts) == 1
        else f"{listed([f'{count:,}' for count in counts])} {noun}s"
    )
    if all(s.division == "open" for s in systems):
        held = (
            "on MLCommons' dataset, with the model and the accuracy the open division lets the "
            "submitter choose (each figure says what its logs report)"
        )
    elif any(s.division == "open" for s in systems):
        held = (
            "on MLCommons' dataset; a closed-division figure on MLCommons' model at its "
            "accuracy target, an open-division one with the model and accuracy its submitter chose"
        )
    else:
        held = "on MLCommons' model, dataset and accuracy target"
    return (
        f"Each figure is for its own system's size ({sizes}), {held}. It says nothing "
        "of a smaller or a larger allocation, or of a buyer's own model, precision or serving "
        "software.",
        systems[0],
    )


def open_division(facts: Facts) -> Trigger | None:
    """The open division lets the submitter run another model, to no accuracy or latency
    bound."""
    opened = [s for s in facts.validation.systems if s.division == "open"]
    if not opened or not served(facts):
        return None
    others = [m for m in facts.validation.measurements if m.model_run]
    named = (
        f" Here {listed(sorted({m.model_run or '' for m in others}))} ran in the benchmark's place."
        if others
        else ""
    )
    return (
        "These are open-division results: MLCommons lets the submitter change the model, "
        "including retraining it, and holds it to no accuracy target or latency bound (the "
        "submitter reports the accuracy reached), so they are not comparable with "
        f"closed-division results, and none is set against the chip maker's own.{named}",
        opened[0],
    )


def preview_not_available(facts: Facts) -> Trigger | None:
    """A preview system was not available to rent when it was measured."""
    preview = [s for s in facts.validation.systems if s.status.lower() == "preview"]
    if not preview or not served(facts):
        return None
    keys = listed([s.key for s in preview])
    return (
        f"{plural('system', len(preview))} ({keys}) {'were' if len(preview) != 1 else 'was'} "
        "submitted as preview: not available when measured. MLCommons' rules require the "
        "submitter to publish it as available, equal or better, by a later round, or the "
        "preview result is marked invalid.",
        preview[0],
    )


def against_the_maker(facts: Facts) -> Trigger | None:
    """A share of the maker's own result is a comparison of two submissions, not a promise."""
    measured = facts.validation.measurements
    compared = [m for m in measured if m.reference is not None]
    if not compared:
        return None
    makers = listed(sorted({m.reference.submitter for m in compared if m.reference}))
    same = "benchmark, scenario, accelerator" if served(facts) else "benchmark, accelerator"
    return (
        f"{len(compared)} of {len(measured)} figures are set against the chip maker's own "
        f"result ({makers}) of the same round, {same} and number of them. Each share compares "
        "two submissions, each tuned by its submitter: it says how close this one came, not "
        "what a buyer's allocation will reach.",
        compared[0],
    )


def invalid_served(facts: Facts) -> Trigger | None:
    """A result without a valid figure is listed, never left out."""
    invalid = facts.validation.invalid
    if not invalid or not served(facts):
        return None
    reasons = "; ".join(
        f"{r.benchmark} {r.scenario or ''} on {r.system}: {r.reason}" for r in invalid
    )
    return (
        f"{plural('submitted result', len(invalid))} {'have' if len(invalid) != 1 else 'has'} "
        f"no valid figure: {reasons}.",
        invalid[0],
    )
