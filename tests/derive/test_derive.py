"""Derived facts: each rule, firing and not firing, and the reasoning on the real content."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest
from conftest import MINIMAL

from generator.checks.loader import load_site
from generator.derive import (
    answers,
    case_study_gaps,
    provider_results,
    releases,
    suites,
    validity,
    wording,
)
from generator.derive import validation as derive
from generator.model.measurements import Measurement, Resubmitted
from generator.model.policy import Policy
from generator.model.site import Site
from generator.model.validation import EvidenceAnswer, Validation

POLICY = Policy(as_of=date(2026, 12, 2), expiry_warning_days=90, review_max_age_days=365)


@pytest.fixture(scope="module")
def real(real_site: Site) -> Site:
    return real_site


@pytest.fixture(scope="module")
def minimal() -> Site:
    return load_site(MINIMAL)


def everything(site: Site, validation: Validation, **changes: Any) -> derive.Derived:
    """All derived facts for `validation` in `site`, with some raw fields changed."""
    program = site.programs[validation.program].model_copy(update=changes.pop("program", {}))
    platform = site.platforms.get(validation.platform or "")
    if platform is not None:
        platform = platform.model_copy(update=changes.pop("platform", {}))
    return derive.derive_validation(
        validation.model_copy(update=changes),
        program=program,
        platform=platform,
        provider_name=site.providers[validation.provider].name,
        suites=list(site.suites.values()),
        program_case_studies=[
            c for c in site.case_studies.values() if c.program == validation.program
        ],
        checklists=list(site.checklists.values()),
        policy=POLICY,
        questions=site.questions,
    )


def rules(derived: derive.Derived) -> list[str]:
    return [caveat.rule for caveat in derived.standard_caveats]


def answer(value: str) -> EvidenceAnswer:
    return EvidenceAnswer(answer=value, source="test-source")  # type: ignore[arg-type]


# --- suites and reconciliation -------------------------------------------------------------------


def test_suite_counts(real: Site) -> None:
    b300 = suites.suite_counts(real.suites["nvidia-exemplar-b300-97b1fd4"])
    assert (b300.models, b300.configurations, b300.precisions) == (8, 13, ("BF16", "FP8", "NVFP4"))
    b200 = suites.suite_counts(real.suites["nvidia-exemplar-b200-97b1fd4"])
    assert (b200.models, b200.configurations) == (8, 12)
    older = suites.suite_counts(real.suites["nvidia-dgxc-b300-older"])
    assert (older.models, older.configurations, older.precisions) == (6, 6, ("BF16", "FP8"))


def test_crusoe_b300_is_13_of_24_and_reconciles_to_the_current_suite(real: Site) -> None:
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]
    derived = everything(real, crusoe)
    assert derived.coverage.full_grid == 24
    assert derived.coverage.grid_exceeds_reported is True
    r = derived.reconciliation
    assert (r.basis, r.suite and r.suite.id, r.fit) == (
        "inferred-from-counts",
        "nvidia-exemplar-b300-97b1fd4",
        "matches",
    )
    # Under the older 6-model suite, 8 models and 13 configurations could not have fitted.
    # Every other B300 suite is a release whose counts the result's exceed.
    assert [(s.id, fit) for s, _, fit in r.candidates] == [
        ("nvidia-dgxc-b300-older", "exceeds"),
        ("nvidia-exemplar-b300-v26-02", "exceeds"),
        ("nvidia-exemplar-b300-v26-02-01", "exceeds"),
        ("nvidia-exemplar-b300-v26-05", "exceeds"),
        ("nvidia-exemplar-b300-v26-06-00", "exceeds"),
        ("nvidia-exemplar-b300-v26-06-01", "exceeds"),
    ]


def test_fit(minimal: Site) -> None:
    test = minimal.validations["test-validation"]
    counts = suites.SuiteCounts(models=2, configurations=3, precisions=("BF16", "FP8"))
    assert suites.fit(test, counts) == "matches"
    assert suites.fit(test, suites.SuiteCounts(3, 5, ("BF16", "FP8"))) == "below"
    assert suites.fit(test, suites.SuiteCounts(2, 2, ("BF16", "FP8"))) == "exceeds"
    assert suites.fit(test, suites.SuiteCounts(2, 3, ("FP8",))) == "exceeds"
    unknown = test.model_copy(update={"scope": test.scope.model_copy(update={"models": None})})
    assert suites.fit(unknown, counts) == "unknown"


def test_reconcile_bases(minimal: Site) -> None:
    test = minimal.validations["test-validation"]
    platform = minimal.platforms["test-platform"]
    suite = minimal.suites["test-suite"]
    inferred = suites.reconcile(test, platform, [suite])
    assert (inferred.basis, inferred.suite) == ("inferred-from-counts", suite)
    stated = suites.reconcile(
        test.model_copy(update={"stated_suite": "test-suite"}), platform, [suite]
    )
    assert stated.basis == "stated"
    by_release = test.model_copy(
        update={
            "scope": test.scope.model_copy(
                update={"recipe_release": "release 1", "configurations": 2}
            )
        }
    )
    assert suites.reconcile(by_release, platform, [suite]).basis == "stated-release"
    twin = suite.model_copy(update={"id": "test-suite-twin"})
    assert suites.reconcile(test, platform, [suite, twin]).basis == "ambiguous"
    other_chip = platform.model_copy(update={"chip": "X2"})
    assert suites.reconcile(test, other_chip, [suite]).basis == "not-found"
    whole_cloud = test.model_copy(update={"platform": None})
    assert suites.reconcile(whole_cloud, None, [suite]).basis == "not-applicable"
    uncounted = test.model_copy(
        update={"scope": test.scope.model_copy(update={"models": None, "configurations": None})}
    )
    no_counts = suites.reconcile(uncounted, platform, [suite])
    assert (no_counts.basis, [s.id for s, _, _ in no_counts.candidates]) == (
        "no-counts",
        ["test-suite"],
    )


def test_a_chip_family_without_a_platform_finds_its_suites(real: Site) -> None:
    azure = real.validations["azure-gb300-exemplar"]
    assert (azure.platform, suites.chip_of(azure, None)) == (None, "GB300")
    derived = everything(real, azure)
    r = derived.reconciliation
    assert (r.basis, r.chip) == ("no-counts", "GB300")
    assert [s.id for s, _, _ in r.candidates] == [
        *(f"nvidia-exemplar-gb300-{tag}" for tag in ("v25-12", "v25-12-01", "v25-12-02")),
        *(f"nvidia-exemplar-gb300-{tag}" for tag in ("v26-02", "v26-02-01", "v26-05")),
        *(f"nvidia-exemplar-gb300-{tag}" for tag in ("v26-06-00", "v26-06-01", "97b1fd4")),
    ]
    caveat = next(c for c in derived.standard_caveats if c.rule == "suite-not-stated")
    assert "v26.02 (tag at commit 1b172ed), 8 models in 13 configurations" in caveat.text
    assert caveat.text.count("8 models in 14 configurations") == 6
    assert "suite-not-stated" not in rules(everything(real, azure, chip=None))


# --- standard caveats: each rule firing and not firing --------------------------------------------


def test_minimal_fixture_fires_its_expected_rules(minimal: Site) -> None:
    test = minimal.validations["test-validation"]
    assert rules(everything(minimal, test)) == [
        "counts-without-matrix",
        "suite-inferred",
        "threshold-not-sla",
    ]


def test_counts_without_matrix(minimal: Site) -> None:
    test = minimal.validations["test-validation"]
    assert "counts-without-matrix" in rules(everything(minimal, test))
    published = everything(minimal, test, evidence={"test-question": answer("yes")})
    # The rule reads the matrix question by its id; the fixture's question has another id.
    assert "counts-without-matrix" in rules(published)
    matrix = everything(minimal, test, evidence={"matrix-published": answer("yes")})
    assert "counts-without-matrix" not in rules(matrix)
    no_counts = test.scope.model_copy(update={"configurations": None})
    assert "counts-without-matrix" not in rules(everything(minimal, test, scope=no_counts))


def test_specifications_not_speedups(real: Site) -> None:
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]
    derived = everything(real, crusoe)
    assert "specifications-not-speedups" in rules(derived)
    caveat = next(c for c in derived.standard_caveats if c.rule == "specifications-not-speedups")
    assert "1.5 times the dense NVFP4 compute of HGX B200" in caveat.text
    assert (caveat.source, caveat.grade) == ("crusoe-b300-announcement", "provider-reported")
    compared = dict(crusoe.evidence, **{"generational-comparison": answer("yes")})
    assert "specifications-not-speedups" not in rules(everything(real, crusoe, evidence=compared))
    no_specs = everything(real, crusoe, platform={"specifications": []})
    assert "specifications-not-speedups" not in rules(no_specs)


def test_derived_caveats_cite_their_reasoning_apart_from_the_fact(real: Site) -> None:
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]
    caveats = {c.rule: c for c in everything(real, crusoe).standard_caveats}
    for rule in (
        "counts-without-matrix",
        "specifications-not-speedups",
        "one-deployment",
        "renewable-not-efficiency",
        "threshold-not-sla",
    ):
        assert (caveats[rule].reasoning_source, caveats[rule].reasoning_grade) == (
            "crusoe-b300-analysis",
            "secondary",
        ), rule
    assert (caveats["one-deployment"].source, caveats["one-deployment"].grade) == (
        "crusoe-b300-announcement",
        "provider-reported",
    )
    sla = caveats["threshold-not-sla"]
    assert sla.source == "nvidia-requirements-ai-clouds-v2-4"
    assert "within 5% of an NVIDIA-provided target" in sla.text
    assert caveats["suite-inferred"].reasoning_source is None  # the site's own inference


def test_one_deployment_and_renewable(real: Site) -> None:
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]
    derived = everything(real, crusoe)
    assert {"one-deployment", "renewable-not-efficiency"} <= set(rules(derived))
    text = next(c.text for c in derived.standard_caveats if c.rule == "one-deployment")
    assert "Iceland deployment" in text and "every Crusoe region" in text
    measured = dict(crusoe.evidence, **{"energy-published": answer("yes")})
    assert "renewable-not-efficiency" not in rules(everything(real, crusoe, evidence=measured))
    nowhere = crusoe.deployment.model_copy(update={"location": None, "energy_source": None})
    quiet = rules(everything(real, crusoe, deployment=nowhere))
    assert "one-deployment" not in quiet and "renewable-not-efficiency" not in quiet


def test_threshold_not_sla(real: Site) -> None:
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]
    assert "threshold-not-sla" in rules(everything(real, crusoe))
    assert "threshold-not-sla" not in rules(everything(real, crusoe, program={"tolerance": None}))
    coreweave = real.validations["coreweave-clustermax-2"]  # a rating has no threshold
    assert "threshold-not-sla" not in rules(everything(real, coreweave))


def test_dense_only_suite_cites_the_moe_case_study(real: Site, minimal: Site) -> None:
    test = minimal.validations["test-validation"]  # its suite has a dense and an MoE model
    assert "dense-only-suite" not in rules(everything(minimal, test))
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]  # suite architectures not stated
    assert "dense-only-suite" not in rules(everything(real, crusoe))
    dense = crusoe.scope.model_copy(update={"architectures": ["dense"], "configurations": 99})
    derived = everything(real, crusoe, scope=dense)
    caveat = next(c for c in derived.standard_caveats if c.rule == "dense-only-suite")
    assert "12% to 14%" in caveat.text
    assert caveat.source == "nvidia-exemplar-investigations-blog"


def test_suite_not_reconciled_is_a_caveat_not_an_error(real: Site) -> None:
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]
    odd = crusoe.scope.model_copy(update={"models": 7, "configurations": 11})
    derived = everything(real, crusoe, scope=odd)
    assert derived.reconciliation.basis == "not-found"
    assert "suite-not-reconciled" in rules(derived)
    assert "suite-inferred" not in rules(derived)
    assert "suite-not-reconciled" not in rules(everything(real, crusoe))


def test_changing_one_raw_fact_changes_exactly_what_it_should(minimal: Site) -> None:
    """Marking the matrix as published closes one caveat and one checklist item, nothing else."""
    test = minimal.validations["test-validation"]
    checklist = minimal.checklists["test-checklist"]
    matrix_item = checklist.items[0].model_copy(update={"closed_by": ["matrix-published"]})
    site_checklist = checklist.model_copy(update={"items": [matrix_item, checklist.items[1]]})

    def derived_set(evidence: dict[str, EvidenceAnswer]) -> set[str]:
        result = derive.derive_validation(
            test.model_copy(update={"evidence": evidence}),
            program=minimal.programs["test-program"],
            platform=minimal.platforms["test-platform"],
            provider_name="Test Provider",
            suites=list(minimal.suites.values()),
            program_case_studies=[
                c for c in minimal.case_studies.values() if c.program == test.program
            ],
            checklists=[site_checklist],
            policy=POLICY,
        )
        caveats = {f"caveat:{c.rule}:{c.text}" for c in result.standard_caveats}
        items = {f"item:{o.item.id}:{o.because}" for o in result.open_items[checklist.id]}
        return caveats | items | {f"validity:{result.validity_status}"}

    before = derived_set({"matrix-published": answer("not-published")})
    after = derived_set({"matrix-published": answer("yes")})
    assert {line.split(":")[1] for line in before - after} == {
        "counts-without-matrix",
        "ask-matrix",
    }
    assert after - before == set()


# --- expiry and staleness ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "months", "end"),
    [
        (date(2026, 1, 31), 12, date(2027, 1, 31)),
        (date(2026, 1, 31), 1, date(2026, 2, 28)),
        (date(2024, 2, 29), 12, date(2025, 2, 28)),
        (date(2026, 11, 15), 2, date(2027, 1, 15)),
    ],
)
def test_add_months_clamps_to_month_end(start: date, months: int, end: date) -> None:
    assert validity.add_months(start, months) == end


@pytest.mark.parametrize(
    ("announced", "status"),
    [
        (date(2025, 12, 1), "expired"),  # ended 2026-12-01, the day before as_of
        (date(2025, 12, 2), "expiring"),  # ends on as_of itself
        (date(2026, 3, 1), "expiring"),  # ends 2027-03-01, within 90 days
        (date(2026, 3, 3), "valid"),  # ends 2027-03-03, 91 days out
        (None, "unknown"),
    ],
)
def test_validity_status(minimal: Site, announced: date | None, status: str) -> None:
    test = minimal.validations["test-validation"].model_copy(update={"announced": announced})
    assert validity.validity_status(test, minimal.programs["test-program"], POLICY) == status


def test_no_validity_period_is_not_unknown(real: Site) -> None:
    coreweave = real.validations["coreweave-clustermax-2"]
    program = real.programs["semianalysis-clustermax"]
    assert validity.validity_end(coreweave, program) is None
    assert validity.validity_status(coreweave, program, POLICY) == "no-expiry"


def test_review_staleness(minimal: Site) -> None:
    test = minimal.validations["test-validation"]
    assert validity.review_is_stale(test, POLICY) is False
    old = test.model_copy(update={"last_reviewed": date(2025, 12, 1)})  # 366 days before as_of
    assert validity.review_is_stale(old, POLICY) is True
    edge = test.model_copy(update={"last_reviewed": date(2025, 12, 2)})  # exactly 365 days
    assert validity.review_is_stale(edge, POLICY) is False


# --- checklist, claims, providers ---------------------------------------------------------------


def test_open_items_follow_answers(minimal: Site) -> None:
    test = minimal.validations["test-validation"]
    checklist = minimal.checklists["test-checklist"]
    items = derive.open_items(test, checklist)
    assert [(o.item.id, o.because) for o in items] == [
        ("ask-matrix", (("test-question", "not-published"),)),
        ("always", ()),
    ]
    closed = test.model_copy(update={"evidence": {"test-question": answer("yes")}})
    assert [o.item.id for o in derive.open_items(closed, checklist)] == ["always"]
    unanswered = test.model_copy(update={"evidence": {}})
    assert derive.open_items(unanswered, checklist)[0].because == (("test-question", "unanswered"),)


def test_crusoe_b300_leaves_every_trial_item_open(real: Site) -> None:
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]
    items = derive.open_items(crusoe, real.checklists["trial-checklist"])
    assert [o.item.id for o in items] == [
        "request-matrix",
        "confirm-deployment",
        "trial-own-workload",
        "price-performance",
        "reliability",
        "energy",
    ]


def test_knowing_the_tested_deployment_never_closes_the_proposed_one(real: Site) -> None:
    checklist = real.checklists["trial-checklist"]
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]
    named = dict(crusoe.evidence, **{"deployment-tested": answer("yes")})
    items = derive.open_items(crusoe.model_copy(update={"evidence": named}), checklist)
    assert "confirm-deployment" in [o.item.id for o in items]


def test_an_item_applies_only_where_its_condition_holds(real: Site) -> None:
    checklist = real.checklists["trial-checklist"]
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]
    assert "energy" in [i.id for i in derive.applicable_items(crusoe, checklist)]
    silent = crusoe.deployment.model_copy(update={"energy_source": None})
    quiet = crusoe.model_copy(update={"deployment": silent})
    assert "energy" not in [i.id for i in derive.applicable_items(quiet, checklist)]
    assert "energy" not in [o.item.id for o in derive.open_items(quiet, checklist)]
    lambda_ = real.validations["lambda-gb300-nvl72-mlperf-training-v6"]
    derived = everything(real, lambda_)
    # Not the matrix (an Exemplar check) and not the energy item (no energy source stated).
    assert derived.applicable_items["trial-checklist"] == 4
    assert len(derived.open_items["trial-checklist"]) == 4


def worded(real: Site, validation: Validation, item_id: str) -> str:
    derived = everything(real, validation)
    return next(o.wording for o in derived.open_items["trial-checklist"] if o.item.id == item_id)


def test_slots_fill_each_item_from_the_validations_facts(real: Site) -> None:
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]
    assert worded(real, crusoe, "request-matrix").endswith(
        "correspond to one of the 13 validated configurations."
    )
    assert worded(real, crusoe, "confirm-deployment").endswith(
        "rather than assuming every NVIDIA HGX B300 allocation reproduces the Iceland validation."
    )
    assert worded(real, crusoe, "trial-own-workload").startswith("Use the offered trial ")
    assert "provide neither per-model throughput nor pricing sufficient to establish value" in (
        worded(real, crusoe, "price-performance")
    )
    azure = real.validations["azure-gb300-exemplar"]
    assert worded(real, azure, "request-matrix").endswith("one of the validated configurations.")
    assert "every GB300 allocation reproduces the validation." in worded(
        real, azure, "confirm-deployment"
    )
    assert worded(real, azure, "trial-own-workload").startswith("Use a trial ")


def test_missing_names_only_what_the_answers_leave_out(real: Site) -> None:
    lambda_ = real.validations["lambda-gb300-nvl72-mlperf-training-v6"]
    text = worded(real, lambda_, "price-performance")
    assert "only part of the per-model throughput, and no pricing" in text
    assert "neither" not in text
    priced = dict(lambda_.evidence, **{"pricing-published": answer("yes")})
    text = worded(real, lambda_.model_copy(update={"evidence": priced}), "price-performance")
    assert "provide only part of the per-model throughput sufficient" in text
    assert "pricing" not in text.split("because")[1]


def test_general_wording_reads_plainly_without_placeholders(real: Site) -> None:
    """The checklist page words each item for no one result: no slot shows as a placeholder."""
    items = {i.id: i for i in real.checklists["trial-checklist"].items}
    general = {i: wording.general_wording(item, real.questions) for i, item in items.items()}
    assert "one of the validated configurations." in general["request-matrix"]
    assert general["confirm-deployment"].endswith(
        "rather than assuming every allocation reproduces the validation."
    )
    assert general["trial-own-workload"].startswith("Use a trial to measure")
    assert (
        "because a result's sources may not provide per-model throughput or pricing sufficient"
        in general["price-performance"]
    )
    for text in general.values():
        assert not re.search(r"[\[{][a-z-]+[\]}]|  ", text), text
    assert wording.slots_in("a {configurations} b {missing}") == ["configurations", "missing"]


def test_items_apply_by_program(real: Site) -> None:
    """No model-and-precision matrix for a rating or an MLPerf result, no training
    price-performance for an inference result; an item with no programs applies to all."""
    checklist = real.checklists["trial-checklist"]

    def applying(validation_id: str) -> list[str]:
        return [i.id for i in derive.applicable_items(real.validations[validation_id], checklist)]

    assert applying("coreweave-clustermax-2") == [
        "confirm-deployment", "trial-own-workload", "reliability"
    ]  # fmt: skip
    assert applying("nebius-nvidia-b200-sxm-180gb-mlperf-inference-v5-1") == [
        "confirm-deployment", "trial-own-workload", "reliability"
    ]  # fmt: skip
    assert applying("nebius-nvidia-b200-sxm-180gb-mlperf-training-v5-1") == [
        "confirm-deployment", "trial-own-workload", "price-performance", "reliability"
    ]  # fmt: skip
    assert applying("crusoe-hgx-b300-exemplar") == [
        "request-matrix", "confirm-deployment", "trial-own-workload", "price-performance",
        "reliability", "energy",
    ]  # fmt: skip


def test_claims_split_by_grade(real: Site) -> None:
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]
    established = derive.established_claims(crusoe)
    unestablished = derive.unestablished_claims(crusoe)
    assert len(established) + len(unestablished) == len(crusoe.claims)
    assert {c.grade for c in unestablished} == {"not-established", "not-published", "not-stated"}
    assert "Every model passed in all three precisions." in [c.text for c in unestablished]


def test_cited_sources_in_first_cited_order(minimal: Site, real: Site) -> None:
    only = derive.cited_sources(minimal.sources, minimal.validations["test-validation"])
    assert [source.id for source in only] == ["test-source"]
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]
    own = [s.id for s in derive.cited_sources(real.sources, crusoe)]
    assert own[0] == "crusoe-b300-announcement"
    assert len(own) == len(set(own))
    extra = next(source_id for source_id in real.sources if source_id not in own)
    cited = [s.id for s in derive.cited_sources(real.sources, crusoe, extra=(own[0], extra))]
    assert cited == [*own, extra]


def test_newest_first_keeps_undated(real: Site) -> None:
    ordered = derive.newest_first(list(real.validations.values()))
    assert len(ordered) == len(real.validations)
    dates = [v.announced for v in ordered if v.announced is not None]
    assert dates == sorted(dates, reverse=True)
    # The undated come last, by id: hand-typed records, and the imported results of a round no
    # source we hold dates (MLPerf Inference v6.1), never given a guessed date.
    undated = [v for v in ordered if v.announced is None]
    assert undated and ordered[-len(undated) :] == sorted(undated, key=lambda v: v.id)
    assert all(v.systems == [] or v.program_release == "v6.1" for v in undated)
    assert any(v.program_release == "v6.1" for v in undated)


def test_answered_marks_what_does_not_apply(real: Site) -> None:
    questions = sorted(real.questions.values(), key=lambda q: q.order)
    crusoe = answers.answered(real.validations["crusoe-hgx-b300-exemplar"], questions)
    words = {a.question.id: a.word for a in crusoe}
    assert words["deployment-tested"] == "partial"  # the execution environment is not stated
    assert "yes" not in words.values() and "not-applicable" not in words.values()
    mlperf = answers.answered(
        real.validations["lambda-nvidia-gb300-mlperf-training-v5-1"], questions
    )
    assert [a.question.id for a in mlperf if a.word == "not-applicable"] == ["margin-computable"]
    assert all(a.answer is None for a in mlperf if a.word == "not-applicable")


def test_program_coverage_states_gaps(real: Site) -> None:
    crusoe = [v for v in real.validations.values() if v.provider == "crusoe"]
    programs = sorted(real.programs.values(), key=lambda p: p.id)
    coverage = {
        p.id: [v.id for v in vs] for p, vs in provider_results.program_coverage(crusoe, programs)
    }
    assert coverage["mlperf-training"] == [] and coverage["semianalysis-clustermax"] == []
    assert len(coverage["nvidia-exemplar-cloud"]) == 2


def test_conflicts(minimal: Site) -> None:
    test = minimal.validations["test-validation"]
    failed = test.model_copy(
        update={"id": "test-failed", "outcome": test.outcome.model_copy(update={"result": "fail"})}
    )
    (found,) = provider_results.conflicts([test, failed])
    assert found.results == (failed, test)  # by outcome: fail, then pass
    successor = failed.model_copy(update={"predecessor": "test-validation"})
    assert provider_results.conflicts([test, successor]) == []
    other_release = failed.model_copy(update={"program_release": "2"})
    assert provider_results.conflicts([test, other_release]) == []
    assert provider_results.conflicts([test, test.model_copy(update={"id": "test-same"})]) == []
    # Many results that disagree are one conflict listing each once, not a pair each: a
    # provider page grows with its results, not with their pairs.
    many = [
        test.model_copy(
            update={"id": f"t{i}", "outcome": test.outcome.model_copy(update={"result": r})}
        )
        for i, r in enumerate(["pass", "fail"] * 200)
    ]
    (one,) = provider_results.conflicts(many)
    assert len(one.results) == 400


def test_a_gap_is_worded_once_for_pages_and_charts(minimal: Site) -> None:
    study = minimal.case_studies["test-case"]
    program = minimal.programs[study.program]
    bound = study.findings[0].model_copy(update={"gap_low_percent": None, "gap_high_percent": 3})
    gaps = case_study_gaps.gaps(
        study.model_copy(update={"findings": [*study.findings, bound]}), program
    )
    assert [(g.words, g.label, g.beyond_tolerance) for g in gaps] == [
        ("10% to 20%", "10–20%", True),
        ("within 3%", "within 3%", False),
    ]
    assert {g.tolerance_percent for g in gaps} == {5}


def test_an_open_item_says_why_once(minimal: Site) -> None:
    """The page shows an item's reason as a sentence; the API and downloads hold it as a clause."""
    from generator.publish.api_documents import open_because

    test = minimal.validations["test-validation"].model_copy(update={"evidence": {}})
    items = derive.open_items(
        test, minimal.checklists["test-checklist"], questions=minimal.questions
    )
    reasons = {item.item.id: item.reason for item in items}
    question = minimal.questions["test-question"].question
    assert f"Open because: {question} (unanswered)" in reasons.values()
    always = [item for item in items if not item.item.closed_by]
    assert always
    for item in always:
        assert item.reason == derive.APPLIES_WORDS[item.item.applies_when]
        assert open_because(item) == item.reason.removesuffix(".")


def test_a_title_names_a_maker_that_is_the_provider_once(real: Site) -> None:
    """NVIDIA's own results run on platforms named after NVIDIA: the title names it once, and
    a provider that is not the platform's maker is still named before it."""
    from generator.derive.site_facts import derive_site

    titles = derive_site(real, Policy(date(2026, 12, 2))).titles
    nvidia = titles["nvidia-nvidia-gb200-mlperf-training-v5-1"]
    assert nvidia == (
        "NVIDIA Blackwell GPU (GB200), its description names no cloud: MLPerf Training v5.1"
    )
    assert titles["crusoe-hgx-b300-exemplar"].startswith("Crusoe NVIDIA HGX B300")
    assert not [t for t in titles.values() if t.split(":")[0].count("NVIDIA") > 1], titles


# --- needs attention -----------------------------------------------------------------------------


def _variant(site: Site, name: str, **changes: Any) -> Validation:
    base = site.validations["test-validation"]
    outcome = base.outcome.model_copy(update={"grade": changes.pop("grade", "program-owner")})
    return base.model_copy(update={"id": name, "outcome": outcome, **changes})


def test_a_result_is_replaced_only_by_its_own_providers_newer_owner_stated_result(
    minimal: Site,
) -> None:
    old = _variant(minimal, "old", program_release="v5.0")
    others = [
        _variant(minimal, "another-provider", program_release="v6.0", provider="other"),
        _variant(minimal, "another-chip", program_release="v6.0", chip="H100"),
        _variant(minimal, "another-program", program_release="v6.0", program="other"),
        _variant(minimal, "claimed", program_release="v6.0", grade="provider-reported"),
        _variant(minimal, "no-release", program_release=None),
        _variant(minimal, "older", program_release="v4.1"),
        _variant(minimal, "same", program_release="v5.0"),
    ]
    chips = {v.id: v.chip or "B200" for v in [old, *others]}
    assert releases.newer_own_results([old, *others], chips) == {
        "older": old  # an older result is replaced by the newest owner-stated one
    }
    newer = _variant(minimal, "newer", program_release="v5.1")
    newest = _variant(minimal, "newest", program_release="v6.0")
    chips |= {"newer": "B200", "newest": "B200"}
    found = releases.newer_own_results([old, newer, newest, *others], chips)
    assert {key: value.id for key, value in found.items()} == {
        "old": "newest",
        "newer": "newest",
        "older": "newest",
        "same": "newest",
    }
    # A result that names no chip is compared with nothing.
    assert releases.newer_own_results([old, newest], {"old": None, "newest": None}) == {}
    # A newer release that only rescores an earlier round's runs replaces nothing.
    measurement = Measurement(
        workload="Llama 3.1 405B", metric="time to train", value=237.6, unit="min",
        source=newest.outcome.source, grade="program-owner",
        resubmitted=Resubmitted(
            source=newest.outcome.source, grade="program-owner", round="v5.1", folder=None,
            identical_logs=3, runs=3, before=None,
        ),
    )  # fmt: skip
    rescored = newest.model_copy(update={"measurements": [measurement]})
    assert releases.rescored_only(rescored)
    found = releases.newer_own_results([old, newer, rescored], chips)
    assert {key: value.id for key, value in found.items()} == {"old": "newer"}


@pytest.mark.parametrize(
    ("announced", "reviewed", "expected"),
    [
        (date(2026, 6, 1), date(2026, 12, 1), []),  # valid for months yet
        (date(2026, 1, 31), date(2026, 12, 1), ["expiring"]),  # its year ends within 90 days
        (date(2025, 6, 1), date(2026, 12, 1), ["expired"]),
        # A program with a validity period, and no source dating the result: no end can be
        # computed, and the buyer must ask for the date.
        (None, date(2026, 12, 1), ["unknown"]),
        (date(2026, 6, 1), date(2025, 11, 1), ["stale"]),
        (date(2025, 6, 1), date(2025, 11, 1), ["expired", "stale"]),
    ],
)
def test_validity_and_review_flag_a_result(
    minimal: Site, announced: date | None, reviewed: date, expected: list[str]
) -> None:
    from generator.derive.site_facts import flags

    validation = minimal.validations["test-validation"]
    derived = everything(minimal, validation, announced=announced, last_reviewed=reviewed)
    assert flags(derived, superseded=False) == expected
    assert flags(derived, superseded=True) == [*expected, "superseded"]


def test_the_home_page_flags_exactly_the_results_its_rules_name(real: Site) -> None:
    """Expired or expiring, an end that cannot be computed, a review overdue, or replaced by the
    provider's own newer result (never by a rescoring): no other reason."""
    from generator.derive.site_facts import derive_site

    facts = derive_site(real, POLICY)
    expected = {}
    for v in facts.validations:
        derived = facts.derived[v.id]
        reasons = [s for s in ("expiring", "expired", "unknown") if derived.validity_status == s]
        if (POLICY.as_of - v.last_reviewed).days > POLICY.review_max_age_days:
            reasons.append("stale")
        if v.id in facts.replaced_by:
            reasons.append("superseded")
        if reasons:
            expected[v.id] = reasons
    assert {v.id: list(found) for v, found in facts.flagged} == expected
    unknown = [v.id for v in facts.validations if facts.derived[v.id].validity_status == "unknown"]
    assert unknown  # such results exist, and the equality above flags each
    # Nebius's v5.1 H200 result is its v5.0 runs rescored: it replaces nothing.
    rescored = next(
        v for v in facts.validations if v.id == "nebius-nvidia-h200-sxm5-141gb-mlperf-training-v5-1"
    )
    assert releases.rescored_only(rescored)
    assert "nebius-nvidia-h200-sxm5-141gb-mlperf-training-v5-0" not in facts.replaced_by
    # Undated Exemplar results, whose 12-month validity cannot be computed, are flagged so.
    assert all(
        "unknown" in found for v, found in facts.flagged if v.program == "nvidia-exemplar-cloud"
    )
    assert any(v.program == "nvidia-exemplar-cloud" for v, _ in facts.flagged)
    assert len(facts.flagged) < len(facts.validations) // 3, [v.id for v, _ in facts.flagged]
