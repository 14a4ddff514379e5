"""Standard caveats: the caveats that follow from a validation's facts by rule (`RULES`).

Each caveat cites the source of the fact that fired it and, apart, the source of its reasoning.
The checks read this registry too (an authored caveat may not reuse a rule's id, and the documents
the rules cite must be there), so it sits below both the checks and the derived facts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from generator.derive.caveats import benchmark as benchmark_caveats
from generator.derive.caveats import inference as inference_caveats
from generator.derive.caveats.finding import Facts, Trigger
from generator.derive.suites import coverage
from generator.english import number
from generator.model.validation import answer_word

# Evidence questions the rules read. A rule treats a question the content lacks as unanswered.
MATRIX = "matrix-published"
GENERATIONAL = "generational-comparison"
ENERGY = "energy-published"
DEPLOYMENT = "deployment-tested"
GUARANTEE = "customer-guarantee"


@dataclass(frozen=True)
class DerivedCaveat:
    """A caveat the site adds by rule. The fact that fired it and the reasoning it applies are
    cited apart: a provider's or program owner's document is cited only for what it states."""

    rule: str  # the rule's id; authored caveats may not reuse it
    text: str
    source: str  # where the fact that fired the rule is stated
    grade: str
    reasoning_source: str | None = None  # where the reasoning comes from; None: the site's own
    reasoning_grade: str | None = None


def _lower_first(text: str) -> str:
    """Lower a sentence's capital so it reads inside another sentence ("Twice" -> "twice")."""
    return text[0].lower() + text[1:] if text[1:2].islower() else text


def counts_without_matrix(facts: Facts) -> Trigger | None:
    """A count of configurations with no published matrix hides which model ran in which format."""
    v, grid = facts.validation, coverage(facts.validation)
    if v.scope.configurations is None or answer_word(v, MATRIX) == "yes":
        return None
    reading = (
        f" Every model in every precision would be {grid.full_grid} combinations, so that is not "
        "what the count says."
        if grid.grid_exceeds_reported
        else ""
    )
    return (
        f"{v.scope.models} models in {v.scope.configurations} configurations are reported without "
        f"the model-by-precision matrix: which model ran in which precision is not known.{reading}",
        v.scope,
    )


def specifications_not_speedups(facts: Facts) -> Trigger | None:
    """Specification multipliers are inputs, not speedups, unless a matched comparison exists."""
    platform = facts.platform
    if platform is None or not platform.specifications:
        return None
    if answer_word(facts.validation, GENERATIONAL) == "yes":
        return None
    claims = "; ".join(_lower_first(s.text.rstrip(".")) for s in platform.specifications)
    return (
        f"{platform.name}'s specification claims ({claims}) are platform comparisons, not "
        "measured speedups of this validation's workloads.",
        platform.specifications[0],
    )


def one_deployment(facts: Facts) -> Trigger | None:
    """A result from one named deployment does not speak for every region."""
    deployment = facts.validation.deployment
    if deployment.location is None:
        return None
    capacity = f" or of future {facts.platform.name} capacity" if facts.platform else ""
    return (
        f"The result concerns the {deployment.location} deployment; it is not a measurement of "
        f"every {facts.provider_name} region{capacity}.",
        deployment,
    )


def renewable_not_efficiency(facts: Facts) -> Trigger | None:
    """An energy source is not an energy measurement."""
    v = facts.validation
    if v.deployment.energy_source is None or answer_word(v, ENERGY) == "yes":
        return None
    return (
        f"The energy source ({v.deployment.energy_source}) describes the electricity powering the "
        "cluster. The sources we hold give no energy measurements, so it is not an efficiency "
        "figure.",
        v.deployment,
    )


def threshold_not_sla(facts: Facts) -> Trigger | None:
    """A program owner's pass threshold is a qualification standard, not a customer SLA."""
    tolerance = facts.program.tolerance
    if tolerance is None or facts.validation.outcome.result != "pass":
        return None
    if answer_word(facts.validation, GUARANTEE) == "yes":
        return None
    return (
        f"{facts.program.name}'s threshold, performance within {number(tolerance.percent)}% of "
        f"{tolerance.against}, is {facts.program.owner}'s qualification standard, not a "
        "service-level agreement for customer allocations.",
        tolerance,
    )


def dense_only_suite(facts: Facts) -> Trigger | None:
    """A dense-only suite cannot expose problems that only mixture-of-experts workloads show."""
    suite = facts.reconciliation.suite
    if suite is not None and suite.workloads is not None:
        architectures = {w.architecture for w in suite.workloads}
    else:
        architectures = set(facts.validation.scope.architectures)
    if architectures != {"dense"}:
        return None
    moe = [c for c in facts.case_studies if any("MoE" in f.workload for f in c.findings)]
    evidence = f" {moe[0].summary}" if moe else ""
    return (
        "Every workload tested is dense, so the result cannot expose problems that only "
        f"mixture-of-experts workloads show.{evidence}",
        moe[0] if moe else facts.validation.scope,
    )


def suite_inferred(facts: Facts) -> Trigger | None:
    """When the provider names neither suite nor release, the matrix is only inferred."""
    r = facts.reconciliation
    if r.basis != "inferred-from-counts" or r.suite is None:
        return None
    return (
        f"The provider stated neither its suite nor its recipe release. The {r.suite.chip} suite "
        f"at {r.suite.release} is inferred because its counts match exactly; which of its cells "
        "ran is not published.",
        facts.validation.scope,
    )


def suite_not_reconciled(facts: Facts) -> Trigger | None:
    """Counts that no recorded suite explains cannot be reconciled: say so rather than guess."""
    r, scope = facts.reconciliation, facts.validation.scope
    if r.basis not in ("not-found", "ambiguous") or scope.configurations is None:
        return None
    why = (
        "several recorded suites match them"
        if r.basis == "ambiguous"
        else f"no recorded {facts.program.name} suite for {r.chip} matches them"
    )
    return (
        f"The reported counts ({scope.models} models, {scope.configurations} configurations) "
        f"cannot be reconciled: {why}, so which workloads ran is not known.",
        scope,
    )


def suite_not_stated(facts: Facts) -> Trigger | None:
    """With neither a suite nor counts, the program's suites for the chip are all that is known."""
    r = facts.reconciliation
    if r.basis != "no-counts" or not r.candidates:
        return None
    suites = "; ".join(
        f"{suite.release}, {counts.models} models in {counts.configurations} configurations"
        for suite, counts, _ in r.candidates
    )
    return (
        f"The provider stated neither its suite nor its counts. The recorded "
        f"{facts.program.name} suites for {r.chip} are: {suites}. Which of them ran, and which "
        "of its workloads, is not stated.",
        facts.validation.scope,
    )


@dataclass(frozen=True)
class Rule:
    """A caveat rule, and the evidence question whose `why` is its reasoning: the caveat cites
    that question's source for the reasoning, apart from the source of the fact. A rule may cite
    instead a program owner's document (`cites`, a source id) whose rules are its reasoning. A
    rule with neither applies the site's own arithmetic, or cites the case study it quotes."""

    find: Callable[[Facts], Trigger | None]
    reasoning: str | None = None
    cites: str | None = None
    # Which results it can fire on: timed (False), served (True) or any (None). The checks
    # require the document it cites only where a result of its kind is.
    served: bool | None = None

    @property
    def doc(self) -> str:
        return " ".join((self.find.__doc__ or "").split())


# Each rule by its id, in the order pages list them. Authored caveats may not reuse these ids.
RULES: dict[str, Rule] = {
    "counts-without-matrix": Rule(counts_without_matrix, MATRIX),
    "suite-inferred": Rule(suite_inferred),
    "suite-not-reconciled": Rule(suite_not_reconciled),
    "suite-not-stated": Rule(suite_not_stated),
    "dense-only-suite": Rule(dense_only_suite),
    "specifications-not-speedups": Rule(specifications_not_speedups, GENERATIONAL),
    "one-deployment": Rule(one_deployment, DEPLOYMENT),
    "renewable-not-efficiency": Rule(renewable_not_efficiency, ENERGY),
    "threshold-not-sla": Rule(threshold_not_sla, GUARANTEE),
    "cloud-is-rentability": Rule(
        benchmark_caveats.cloud_is_rentability, cites=benchmark_caveats.SUBMISSION_RULES
    ),
    "time-at-its-size": Rule(
        benchmark_caveats.time_at_its_size, cites=benchmark_caveats.TRAINING_RULES, served=False
    ),
    "closed-division-fixes-model": Rule(
        benchmark_caveats.closed_division_fixes_model,
        cites=benchmark_caveats.TRAINING_RULES,
        served=False,
    ),
    "benchmark-not-workload": Rule(
        benchmark_caveats.benchmark_not_workload,
        cites=benchmark_caveats.TRAINING_RULES,
        served=False,
    ),
    "invalid-results": Rule(
        benchmark_caveats.invalid_results, cites=benchmark_caveats.TRAINING_RULES, served=False
    ),
    "resubmitted-results": Rule(
        benchmark_caveats.resubmitted_results, cites=benchmark_caveats.TRAINING_RULES, served=False
    ),
    "offline-without-latency": Rule(
        inference_caveats.offline_without_latency,
        cites=inference_caveats.INFERENCE_RULES,
        served=True,
    ),
    "served-at-its-size": Rule(
        inference_caveats.served_at_its_size, cites=inference_caveats.INFERENCE_RULES, served=True
    ),
    "open-division": Rule(
        inference_caveats.open_division, cites=inference_caveats.INFERENCE_RULES, served=True
    ),
    "preview-not-available": Rule(
        inference_caveats.preview_not_available,
        cites=inference_caveats.SUBMISSION_RULES,
        served=True,
    ),
    "against-the-maker": Rule(inference_caveats.against_the_maker),
    "invalid-served": Rule(
        inference_caveats.invalid_served, cites=inference_caveats.INFERENCE_RULES, served=True
    ),
    "framework-differs": Rule(benchmark_caveats.framework_differs),
}


def standard_caveats(facts: Facts) -> list[DerivedCaveat]:
    """Every caveat whose rule fires for these facts, in rule order."""
    caveats = []
    for rule_id, rule in RULES.items():
        finding = rule.find(facts)
        if finding is None:
            continue
        text, fact = finding
        reasoning = facts.questions.get(rule.reasoning or "")
        if rule.cites is not None:
            cited: tuple[str | None, str | None] = (rule.cites, "program-owner")
        elif reasoning is not None:
            cited = (reasoning.source, reasoning.grade)
        else:
            cited = (None, None)
        caveats.append(DerivedCaveat(rule_id, text, fact.source, fact.grade, *cited))
    return caveats
