"""Derived facts: each rule, firing and not firing."""

from __future__ import annotations

from datetime import date

import pytest
from conftest import MINIMAL, ROOT

from generator import derive
from generator.site import Site, load_site


@pytest.fixture(scope="module")
def real() -> Site:
    return load_site(ROOT / "content")


@pytest.fixture(scope="module")
def minimal() -> Site:
    return load_site(MINIMAL)


def test_suite_counts_from_matrix(real: Site) -> None:
    b300 = derive.suite_counts(real.suites["nvidia-exemplar-b300-97b1fd4"])
    assert (b300.models, b300.configurations) == (8, 13)
    assert b300.precisions == ("BF16", "FP8", "NVFP4")
    b200 = derive.suite_counts(real.suites["nvidia-exemplar-b200-97b1fd4"])
    assert (b200.models, b200.configurations) == (8, 12)


def test_suite_counts_from_stated_counts(real: Site) -> None:
    older = derive.suite_counts(real.suites["nvidia-dgxc-b300-older"])
    assert (older.models, older.configurations, older.precisions) == (6, 6, ("BF16", "FP8"))


def test_crusoe_b300_coverage_is_13_of_24_and_matches_suite(real: Site) -> None:
    validation = real.validations["crusoe-hgx-b300-exemplar"]
    coverage = derive.coverage(validation, real.suites[validation.suite or ""])
    assert coverage.full_grid == 24
    assert coverage.reported_configurations == 13
    assert coverage.matches_suite is True


def test_coverage_mismatch_and_missing_counts(real: Site, minimal: Site) -> None:
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]
    b200_suite = real.suites["nvidia-exemplar-b200-97b1fd4"]
    assert derive.coverage(crusoe, b200_suite).matches_suite is False
    azure = real.validations["azure-gb300-exemplar"]
    coverage = derive.coverage(azure, None)
    assert (coverage.full_grid, coverage.matches_suite, coverage.suite) == (None, None, None)
    test = minimal.validations["test-validation"]
    assert derive.coverage(test, minimal.suites["test-suite"]).full_grid == 4


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
    assert derive.add_months(start, months) == end


def test_validity_end_needs_both_date_and_period(real: Site, minimal: Site) -> None:
    test = minimal.validations["test-validation"]
    assert derive.validity_end(test, minimal.programs["test-program"]) == date(2027, 1, 31)
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]  # announced: not stated
    assert derive.validity_end(crusoe, real.programs["nvidia-exemplar-cloud"]) is None
    coreweave = real.validations["coreweave-clustermax-2"]  # dated, but no validity period
    assert derive.validity_end(coreweave, real.programs["semianalysis-clustermax"]) is None


def test_open_items_follow_answers(minimal: Site) -> None:
    test = minimal.validations["test-validation"]
    checklist = minimal.checklists["test-checklist"]
    items = derive.open_items(test, checklist)
    assert [(o.item.id, o.because) for o in items] == [
        ("ask-matrix", (("test-question", "not-published"),)),
        ("always", ()),
    ]
    published = test.model_copy(
        update={
            "evidence": {
                "test-question": test.evidence["test-question"].model_copy(update={"answer": "yes"})
            }
        }
    )
    assert [o.item.id for o in derive.open_items(published, checklist)] == ["always"]
    unanswered = test.model_copy(update={"evidence": {}})
    assert derive.open_items(unanswered, checklist)[0].because == (("test-question", "unanswered"),)


def test_crusoe_b300_leaves_every_trial_item_open_but_deployment(real: Site) -> None:
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]
    items = derive.open_items(crusoe, real.checklists["trial-checklist"])
    assert [o.item.id for o in items] == [
        "request-matrix",
        "trial-own-workload",
        "price-performance",
        "reliability",
        "energy",
    ]


def test_claims_split_by_grade(real: Site) -> None:
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]
    established = derive.established_claims(crusoe)
    unestablished = derive.unestablished_claims(crusoe)
    assert len(established) + len(unestablished) == len(crusoe.claims)
    assert all(c.grade in ("not-established", "not-published") for c in unestablished)
    assert not any(c.grade in ("not-established", "not-published") for c in established)
    assert "Every model passed in all three precisions." in [c.text for c in unestablished]


def test_cited_sources_in_first_cited_order(minimal: Site, real: Site) -> None:
    assert derive.cited_sources(minimal.validations["test-validation"]) == ["test-source"]
    cited = derive.cited_sources(real.validations["crusoe-hgx-b300-exemplar"])
    assert cited[0] == "crusoe-b300-announcement"
    assert len(cited) == len(set(cited))
    assert {"crusoe-b300-analysis", "nvidia-requirements-ai-clouds-v2-4"} <= set(cited)


def test_newest_first_keeps_undated(real: Site) -> None:
    ordered = derive.newest_first(list(real.validations.values()))
    assert len(ordered) == len(real.validations)
    assert ordered[0].id == "coreweave-clustermax-2"  # the only dated record
    assert all(v.announced is None for v in ordered[1:])


def test_gaps(real: Site) -> None:
    questions = sorted(real.questions.values(), key=lambda q: q.order)
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]
    gaps = [q.id for q in derive.gaps(crusoe, questions)]
    assert "deployment-tested" not in gaps
    assert len(gaps) == len(questions) - 1
