"""What each program checks of a buyer's concerns, on the real content: every program answers
every concern with its own words quoted at a named version, and a provider's result covers a
concern only where its program checks it in the version, division and scenario the result was
held to."""

from __future__ import annotations

from datetime import date

import pytest

from generator.derive.concerns import coverage, covered_count, not_counted
from generator.derive.site_facts import SiteFacts, derive_site
from generator.model.policy import Policy
from generator.model.site import Site

PROGRAMS = {
    "mlperf-training",
    "mlperf-inference",
    "nvidia-exemplar-cloud",
    "semianalysis-clustermax",
}


@pytest.fixture(scope="module")
def facts(real_site: Site) -> SiteFacts:
    return derive_site(real_site, Policy(date(2026, 12, 2)))


def test_every_program_answers_every_concern_in_its_own_words(real_site: Site) -> None:
    assert set(real_site.programs) == PROGRAMS
    assert len(real_site.concerns) >= 12
    for concern in real_site.concerns.values():
        assert set(concern.answers) == PROGRAMS, concern.id
        for program, answer in concern.answers.items():
            assert answer.quote.strip() and answer.at.strip(), (concern.id, program)
            # The version is named: a commit, a tag or a release.
            assert any(word in answer.at for word in ("commit", "tag")), (concern.id, program)
            source = real_site.sources[answer.source]
            assert source.program == program or source.id == "mlperf-submission-rules"
    answers = {a.answer for c in real_site.concerns.values() for a in c.answers.values()}
    assert answers == {"checks", "in-part", "does-not"}


def test_a_rating_is_never_read_as_checking_criteria_published_after_it(
    real_site: Site, facts: SiteFacts
) -> None:
    """ClusterMAX's open audit is newer than CoreWeave's 2.0 rating: the rating covers nothing
    the audit's criteria say, and the page says why."""
    rating = real_site.validations["coreweave-clustermax-2"]
    found = facts.concerns["coreweave"]
    for c in found:
        assert rating not in [x.validation for x in c.covering], c.concern.id
    isolation = next(c for c in found if c.concern.id == "tenant-isolation")
    assert [(x.validation.id, why) for x, why in isolation.not_counted] == [
        ("coreweave-clustermax-2", "announced before the words quoted, in force from 2026-08-19")
    ]


def test_serving_under_a_latency_bound_needs_a_closed_server_or_interactive_figure(
    real_site: Site,
) -> None:
    latency = real_site.concerns["inference-latency"].answers["mlperf-inference"]
    opened = real_site.validations["crusoe-nvidia-l40s-mlperf-inference-v4-1-open"]
    assert not_counted(latency, opened) == "open division, which the program does not hold to it"
    counted = [
        v
        for v in real_site.validations.values()
        if v.program == "mlperf-inference" and not_counted(latency, v) is None
    ]
    assert counted
    for v in counted:
        assert any(m.scenario in ("Server", "Interactive") for m in v.measurements), v.id
        assert not all(s.division == "open" for s in v.systems), v.id
    offline_only = [
        v
        for v in real_site.validations.values()
        if v.program == "mlperf-inference"
        and v.measurements
        and {m.scenario for m in v.measurements} == {"Offline"}
        and not all(s.division == "open" for s in v.systems)
    ]
    for v in offline_only:
        assert not_counted(latency, v) == "no figure in the Server or Interactive scenario"


def test_every_provider_page_counts_what_its_results_cover(
    real_site: Site, facts: SiteFacts
) -> None:
    for provider, found in facts.concerns.items():
        assert [c.concern.id for c in found] == [
            c.id for c in sorted(real_site.concerns.values(), key=lambda c: (c.order, c.id))
        ]
        newest = facts.by_provider[provider]
        assert found == coverage(real_site, newest)
        for c in found:
            order = [newest.index(x.validation) for x in c.covering]
            assert order == sorted(order)
    # An MLPerf Training closed result covers training speed; no program checks the region.
    lambda_found = {c.concern.id: c for c in facts.concerns["lambda"]}
    assert lambda_found["training-speed"].best == "checks"
    assert all(
        not c.covering for p in facts.concerns.values() for c in p if c.concern.id == "region"
    )
    row = next(r for r in facts.scorecard.rows if r.provider == "lambda")
    assert row.covered == covered_count(facts.concerns["lambda"]) and facts.scorecard.concerns == 14


def test_the_clustermax_program_lists_every_criterion_of_its_file(real_site: Site) -> None:
    """The catalogue on the program's page is the file at its pinned commit, every criterion."""
    import json
    from pathlib import Path

    path = Path(__file__).parents[1] / "fixtures" / "clustermax" / "criteria-checks.json"
    published = json.loads(path.read_text(encoding="utf-8"))["criteria"]
    catalogue = real_site.programs["semianalysis-clustermax"].catalogue
    assert catalogue is not None and "ebc0390" in catalogue.at
    assert [c.model_dump() for c in catalogue.criteria] == published
    assert len(published) == 73
    categories = {c["category"] for c in published}
    assert len(categories) == 11
