"""Who ran a result, when, on what, and whether it repeats an earlier round: the facts of a
result's provenance, worded once for every page that shows them.

Derived here, for one validation:
- `submitted_by`: the submitter and whose cloud, as the submission says it;
- `dated`: the date and what it is (a publication, or the commit that published the results);
- `figure_rows`: each measurement with its system, its accelerators, its runs' dates and, where it
  is an earlier round's result submitted again, that round;
- `system_rows`: each system with its accelerators, its framework as described and as its run
  logs give it, and whether any result of it was published.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from generator.english import listed, number, plural
from generator.model.measurements import Measurement, Reference, System
from generator.model.mlperf import same_release
from generator.model.validation import Validation


def value_words(value: float, unit: str) -> str:
    """A measured value as pages show it: minutes to two decimals (MLCommons' tables show them
    so), anything else with every digit published; thousands grouped in both."""
    return f"{value:,.2f} {unit}" if unit == "min" else f"{number(value)} {unit}"


def submitted_by(validation: Validation, provider_name: str) -> str | None:
    """Who submitted a result, and whose cloud it ran on; None where the provider published it
    itself."""
    submission = validation.submission
    if submission is None:
        return None
    if submission.cloud == "joint":
        return (
            f"{submission.submitter}, a joint submission; listed here under {provider_name}, "
            "the cloud among them"
        )
    if submission.cloud == "not-named":
        return f"{submission.submitter}, on a cloud the submission does not name"
    if submission.cloud == "named":
        return (
            f"{submission.submitter}, on {provider_name}'s cloud, as its system description "
            "names it"
        )
    return submission.submitter


def dated(validation: Validation, program_name: str) -> str | None:
    """The date a result carries, and what it is."""
    if validation.announced is None:
        return None
    day = validation.announced.isoformat()
    release = f" {validation.program_release}" if validation.program_release else ""
    if validation.dating is not None and validation.dating.basis == "commit":
        return (
            f"{day}: the date of the commit that published {program_name}{release}'s results; "
            "no source we hold dates the announcement"
        )
    return day


def runs_words(dates: tuple[date, date] | None) -> str | None:
    if dates is None:
        return None
    first, last = dates
    if first == last:
        return first.isoformat()
    return f"{first.isoformat()} to {last.isoformat()}"


def repeat_words(measurement: Measurement) -> str | None:
    """What a figure submitted again is, in the few words a table cell holds."""
    again = measurement.resubmitted
    if again is None:
        return None
    return f"the same runs as {again.round}, rescored"


def share(measurement: Measurement) -> float | None:
    """A figure as a share of the chip maker's own, where it has one: above 1 is better than
    the maker's, whether the figure is a rate (higher is better) or a latency (lower is)."""
    reference = measurement.reference
    if reference is None or measurement.value <= 0 or reference.value <= 0:
        return None
    if lower_is_better(measurement):
        return reference.value / measurement.value
    return measurement.value / reference.value


def lower_is_better(measurement: Measurement) -> bool:
    """A time to train or a latency: the smaller figure is the better one."""
    return measurement.unit == "min" or measurement.metric == "latency"


def against_words(measurement: Measurement, noun: str, system: System | None) -> str | None:
    """A figure against the chip maker's own, in the words a table cell holds: "97% of NVIDIA's
    own result (102,725 Tokens/s on 8 GPUs), same round"."""
    reference = measurement.reference
    ratio = share(measurement)
    if reference is None or ratio is None:
        return None
    shown = value_words(reference.value, measurement.unit)
    if lower_is_better(measurement):
        # A time's share is of the maker's speed: 90% takes a ninth longer than the maker.
        return (
            f"{ratio:.0%} of the speed of {reference.submitter}'s own ({shown} on "
            f"{plural(noun, reference.accelerators)}), same round"
            + _framework_words(reference, system)
        )
    what = "result"
    return (
        f"{ratio:.0%} of {reference.submitter}'s own {what} ({shown} on "
        f"{plural(noun, reference.accelerators)}), same round" + _framework_words(reference, system)
    )


def _framework_words(reference: Reference, system: System | None) -> str:
    """The descriptions' frameworks, as written (the same words do not prove the same build),
    and the host CPU, driver and cooling where both descriptions state them and they differ."""
    if system is None:
        return ""
    words = ""
    described, theirs = system.framework, reference.framework
    if described is not None and theirs is not None:
        same = described.casefold() == theirs.casefold()
        words = "; the same framework described" if same else "; another framework described"
    differs = [
        f"{what} {mine} against {maker}"
        for what, mine, maker in (
            ("host CPU", system.host_processor, reference.host_processor),
            ("driver", system.driver, reference.driver),
            ("cooling", system.cooling, reference.cooling),
        )
        if mine is not None and maker is not None and mine.casefold() != maker.casefold()
    ]
    if differs:
        words += f"; described differently: {listed(differs)}"
    return words


def accuracy_words(measurement: Measurement, system: System | None = None) -> str | None:
    """The accuracy an inference figure was held to, or, in the open division, which held it
    to none, what its logs report: "99.9% of the FP32 reference"; "no accuracy target: its logs
    report ROUGE1 41.6143, …, short of the closed division's 99% and 99.9% targets"."""
    if measurement.scenario is None:
        return None
    if system is None or system.division != "open":
        return measurement.accuracy_target
    reported = measurement.accuracy
    if reported is None:
        return "no accuracy target (open division); its accuracy was not read"
    # Four decimals in the words: the logs' seventeen digits are a float's, not a precision
    # the benchmark claims, and they broke the figures tables' cells. Each target is judged on
    # the value as logged, and the API and downloads keep every digit.
    values = listed([f"{v.metric} {number(round(v.value, 4))}" for v in reported.values])
    met, missed = _targets(reported.meets), _targets(reported.misses)
    if met and not missed:
        judged = f"meeting the closed division's {met}"
    elif missed and not met:
        judged = f"short of the closed division's {missed}"
    else:
        judged = f"meeting the closed division's {met}, short of its {missed}"
    return f"no accuracy target (open division): its logs report {values}, {judged}"


FP32 = " of the FP32 reference"


def _targets(targets: list[str]) -> str:
    """Closed-division targets in few words: "99% and 99.9% of the FP32 reference target"."""
    if not targets:
        return ""
    noun = "target" if len(targets) == 1 else "targets"
    if all(t.endswith(FP32) for t in targets):
        return f"{listed([t.removesuffix(FP32) for t in targets])}{FP32} {noun}"
    return f"{noun}: {listed(targets)}"


def served_words(measurement: Measurement, system: System | None) -> str | None:
    """What an inference figure was measured under, in the words every page shows beside it:
    its scenario, the accuracy it was held to (or reached, in the open division), its division
    and availability. "Server, 99% of the FP32 reference; closed division, available"."""
    if measurement.scenario is None:
        return None
    accuracy = accuracy_words(measurement, system)
    held = f"{measurement.scenario}, {accuracy}" if accuracy else measurement.scenario
    if system is None:
        return held
    status = system.status.lower()
    available = "preview: not available when measured" if status == "preview" else status
    return f"{held}; {system.division} division, {available}"


def measured_as(measurement: Measurement, system: System | None) -> str:
    """The name under which figures are set side by side: what ran, and, for an open-division
    result, that it is one: the open division relaxes the model and the accuracy, so its
    figures are never read as the closed division's of the same workload."""
    opened = system is not None and system.division == "open"
    return workload_words(measurement) + (" (open division)" if opened else "")


def system_of(validation: Validation, measurement: Measurement) -> System | None:
    """The system a figure was measured on, where the record names one."""
    return next((s for s in validation.systems if s.key == measurement.system), None)


def workload_words(measurement: Measurement) -> str:
    """What ran: the workload, or, where the open division let another model run in its
    benchmark's place, that model first."""
    if measurement.model_run is None:
        return measurement.workload
    return f"{measurement.model_run}, run in {measurement.workload}'s place"


@dataclass(frozen=True)
class FigureRow:
    """One measurement as a result's page lists it."""

    measurement: Measurement
    system: System | None
    count: str | None  # "512 GPUs"; None where no source states it
    value: str  # "237.61 min"
    runs: str | None  # when the runs started: "2025-04-30 to 2025-05-01"
    repeat: str | None  # "the same runs as v5.0, rescored"
    # "Server, 99% of the FP32 reference; closed division, available" (`served_words`)
    scenario: str | None = None
    against: str | None = None  # "97% of NVIDIA's own result (…), same round"
    workload: str = ""  # what ran (`workload_words`)


@dataclass(frozen=True)
class SystemRow:
    """One system as a result's page lists it."""

    system: System
    count: str  # "512 GPUs (64 × 8)"
    framework: str | None  # as described
    framework_in_logs: str | None  # as the run logs give it, where it is another release
    ran: bool  # whether any result of it was published


def figure_rows(validation: Validation, noun: str) -> list[FigureRow]:
    systems = {s.key: s for s in validation.systems}
    rows = []
    for m in validation.measurements:
        system = systems.get(m.system or "")
        if system is not None:
            count: int | None = system.accelerator_count
        else:
            count = validation.scope.accelerators
        started = (m.runs_started.first, m.runs_started.last) if m.runs_started else None
        rows.append(
            FigureRow(
                measurement=m,
                system=system,
                count=plural(noun, count) if count else None,
                value=value_words(m.value, m.unit),
                runs=runs_words(started),
                repeat=repeat_words(m),
                scenario=served_words(m, system),
                against=against_words(m, noun, system),
                workload=workload_words(m),
            )
        )
    return rows


def system_rows(validation: Validation, noun: str) -> list[SystemRow]:
    rows = []
    for s in validation.systems:
        count = s.accelerator_count
        logged = s.framework_in_logs
        differs = logged is not None and not same_release(s.framework, logged)
        rows.append(
            SystemRow(
                system=s,
                count=f"{plural(noun, count)} ({s.nodes} × {s.accelerators_per_node})",
                framework=s.framework,
                framework_in_logs=logged if differs else None,
                ran=s.results_published,
            )
        )
    return rows
