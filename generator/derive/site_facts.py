"""Everything the site derives, once, before anything is rendered: `derive_site` reads the checked
`Site` and returns its `SiteFacts`. The pages, the data files and the feeds only read them.

Derived here, across the site (the facts of one validation are `validation.derive_validation`'s):
- the results newest first, and grouped by provider, program and platform;
- each result's title, platform label and table row (`ResultRow`);
- newer releases, successors, partners and the pairs they make, and the chips' workload views;
- case studies by program with their gaps, suites by program, each provider's conflicts and the
  programs it has no result under;
- the results the home page flags, and why (`Flag`); how many results each caveat rule fires on;
- the charts, and which of them the site has.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal, TypeVar

from generator.derive import case_study_gaps, chart_tables, provider_results, releases, workloads
from generator.derive import validation as derive
from generator.derive.caveats import rules as caveat_rules
from generator.derive.concerns import ConcernCoverage, coverage, covered_count
from generator.derive.evidence import Evidence, evidence
from generator.derive.figures import ChipFigures, chip_figures
from generator.derive.scorecard import Scorecard, scorecard
from generator.model.case_studies import CaseStudy
from generator.model.policy import Policy
from generator.model.programs import Program, Suite
from generator.model.site import Site
from generator.model.validation import Validation

T = TypeVar("T")

# Why the home page flags a result, each something a buyer must act on: near or past its
# validity end, a review overdue, a newer result of the provider's own that the program owner
# states (same program and chip), or a validity period whose end cannot be computed because no
# source dates the result.
Flag = Literal["expiring", "expired", "stale", "superseded", "unknown"]


# What a result covers that names neither a platform nor a chip.
WHOLE_CLOUD = "whole cloud"


@dataclass(frozen=True)
class ResultRow:
    """What a table of results shows of one: each cell decided here, so templates only show."""

    provider: str  # who the result is by: the provider's name, or its submitter's, said so
    # The name of the provider the site files it under: what a table's provider filter groups
    # by, so one provider is one choice, with all the results its page lists.
    provider_name: str
    program: str  # the program's name and the result's release: "MLPerf Training v5.1"
    chip: str  # the chip, or WHOLE_CLOUD
    accelerators: int | None  # the result's count, or its largest system's
    evidence: Evidence  # what the result establishes, and what its sources leave unsaid

    @property
    def program_and_whom(self) -> str:
        """The program, and who the result is by where that is not the provider it is filed
        under: "MLPerf Training v6.0, NVIDIA (its description names no cloud)". A list under
        the provider's name says it in the link's text, which a phone shows, not in a title."""
        if self.provider == self.provider_name:
            return self.program
        return f"{self.program}, {self.provider}"


@dataclass(frozen=True)
class SiteFacts:
    """Every fact the site derives, by validation id where it is one result's."""

    policy: Policy
    validations: list[Validation]  # newest first (`validation.newest_first`)
    derived: dict[str, derive.Derived]
    rows: dict[str, ResultRow]
    titles: dict[str, str]
    platform_labels: dict[str, str]
    newer: dict[str, str]  # the program's newest release, where it is newer than the result's
    # The provider's own newer result, same program and chip, the program owner's outcome.
    replaced_by: dict[str, Validation]
    successors: dict[str, list[Validation]]
    # The pairs each result's page links, at most `workloads.PARTNERS`, with each pair's id.
    partners: dict[str, list[tuple[Validation, str]]]
    pairs: list[workloads.Pair]
    chips: list[workloads.ChipView]
    figures: list[ChipFigures]  # each chip's figures, every cloud's side by side
    whole_cloud: list[Validation]  # results that name no chip, so no workload
    # Newest first, under every provider, program and platform id (an empty list is a gap).
    by_provider: dict[str, list[Validation]]
    by_program: dict[str, list[Validation]]
    by_platform: dict[str, list[Validation]]
    # Provider ids, by name: the clouds, and the submitters whose every result names no cloud.
    clouds: list[str]
    submitters: list[str]
    conflicts: dict[str, list[provider_results.Conflict]]  # by provider id
    # By provider id: each buyer's concern against the provider's results, in the concerns' order.
    concerns: dict[str, list[ConcernCoverage]]
    programs_without: dict[str, list[Program]]  # by provider id: programs it has no result under
    case_studies: dict[str, list[CaseStudy]]  # by program id
    gaps: dict[str, list[case_study_gaps.Gap]]  # by case study id, a gap per finding
    suites: dict[str, list[Suite]]  # by program id, by chip then id
    flagged: list[tuple[Validation, list[Flag]]]
    scorecard: Scorecard  # each cloud's strongest result under each program
    fired: dict[str, int]  # by caveat rule: how many results it fires on
    charts: dict[str, chart_tables.Chart]


def grouped(
    records: Iterable[T], key: Callable[[T], str | None], ids: Iterable[str]
) -> dict[str, list[T]]:
    """`records` by `key`, in their own order, under every id of `ids`; a record whose key is
    None is under none."""
    found: dict[str, list[T]] = {record_id: [] for record_id in ids}
    for record in records:
        record_key = key(record)
        if record_key is not None:
            found[record_key].append(record)
    return found


def program_label(site: Site, validation: Validation) -> str:
    """A result's program and release, and the open division where every system is in it:
    "MLPerf Training v5.1", "MLPerf Inference v4.1, open division"."""
    release = f" {validation.program_release}" if validation.program_release else ""
    systems = validation.systems
    opened = ", open division" if systems and all(s.division == "open" for s in systems) else ""
    return f"{site.programs[validation.program].name}{release}{opened}"


def by_whom(site: Site, validation: Validation) -> str:
    """Who a result is by, as tables and titles name it: the cloud, a joint submission under
    the cloud it names, or a submitter that names no cloud, said so."""
    name = site.providers[validation.provider].name
    submission = validation.submission
    if submission is None or submission.cloud == "submitter":
        return name
    if submission.cloud == "joint":
        return f"{name} (joint submission)"
    if submission.cloud == "named":
        return f"{name} (submitted by {submission.submitter})"
    # Not "Google Cloud (cloud not named)": the submitter is named, the cloud is not.
    return f"{submission.submitter} (its description names no cloud)"


def is_cloud(validations: list[Validation]) -> bool:
    """Whether a provider's results show it to be a cloud: any result that is not a submission
    naming no cloud. A provider listed under no result is taken at its record's word."""
    return not validations or any(
        v.submission is None or v.submission.cloud != "not-named" for v in validations
    )


def result_row(site: Site, validation: Validation, derived: derive.Derived) -> ResultRow:
    return ResultRow(
        provider=by_whom(site, validation),
        provider_name=site.providers[validation.provider].name,
        program=program_label(site, validation),
        chip=derived.reconciliation.chip or WHOLE_CLOUD,
        accelerators=derive.largest_count(validation),
        evidence=evidence(validation, derived.scale, derived.answers),
    )


def platform_label(site: Site, validation: Validation, *, say_unstated: bool = True) -> str:
    """What a result is for: its platform, the chip family it names without one (saying that
    no platform is stated, unless `say_unstated` is false), or the whole cloud."""
    if validation.platform is not None:
        return site.platforms[validation.platform].name
    if validation.chip is not None:
        return f"{validation.chip} (no platform stated)" if say_unstated else validation.chip
    return WHOLE_CLOUD


def title(site: Site, validation: Validation, row: ResultRow) -> str:
    """A result's name: its provider, what it ran on, its program and release. A platform named
    after its maker is not named twice when the maker is the provider: "NVIDIA H100-SXM5-80GB,
    its description names no cloud", not "NVIDIA (its description …) NVIDIA H100-SXM5-80GB"."""
    platform = platform_label(site, validation, say_unstated=False)
    name = site.providers[validation.provider].name
    if platform.startswith(f"{name} ") and row.provider.startswith(name):
        qualifier = row.provider[len(name) :].strip().removeprefix("(").removesuffix(")")
        return f"{platform}{', ' + qualifier if qualifier else ''}: {row.program}"
    return f"{row.provider} {platform}: {row.program}"


def flags(derived: derive.Derived, superseded: bool) -> list[Flag]:
    """Why the home page flags a result, if it does."""
    found: list[Flag] = []
    if derived.validity_status in ("expiring", "expired", "unknown"):
        found.append(derived.validity_status)
    if derived.review_stale:
        found.append("stale")
    if superseded:
        found.append("superseded")
    return found


def successors(validations: list[Validation]) -> dict[str, list[Validation]]:
    """Each result's successors, found once: a scan per page would make the build quadratic."""
    found: dict[str, list[Validation]] = {}
    for v in validations:
        if v.predecessor is not None:
            found.setdefault(v.predecessor, []).append(v)
    return found


def derive_site(site: Site, policy: Policy) -> SiteFacts:
    """Every derived fact of the site, each computed once."""
    validations = derive.newest_first(list(site.validations.values()))
    case_studies = grouped(site.case_studies.values(), lambda c: c.program, site.programs)
    suites = list(site.suites.values())
    derived = derive_each(site, policy, validations, case_studies, suites)
    rows = {v.id: result_row(site, v, derived[v.id]) for v in validations}
    titles = {v.id: title(site, v, rows[v.id]) for v in validations}
    chips = {v.id: derived[v.id].reconciliation.chip for v in validations}
    replaced_by = releases.newer_own_results(validations, chips)
    chosen = workloads.partners(derived, validations)
    by_provider = grouped(validations, lambda v: v.provider, site.providers)
    programs = list(site.programs.values())
    named = sorted(site.providers.values(), key=lambda p: (p.name, p.id))
    gaps = {
        c.id: case_study_gaps.gaps(c, site.programs[c.program]) for c in site.case_studies.values()
    }
    clouds = [p.id for p in named if is_cloud(by_provider[p.id])]
    covering = {p: coverage(site, own) for p, own in by_provider.items()}
    chip_views = workloads.by_chip(site, derived, validations)
    return SiteFacts(
        policy=policy,
        validations=validations,
        derived=derived,
        rows=rows,
        titles=titles,
        platform_labels={v.id: platform_label(site, v) for v in validations},
        newer=releases.newer_releases(validations),
        replaced_by=replaced_by,
        successors=successors(validations),
        partners={
            v_id: [(other, workloads.pair_id(v_id, other.id)) for other in others]
            for v_id, others in chosen.items()
        },
        pairs=workloads.pairs(site, chosen),
        chips=chip_views,
        figures=figures_by_chip(validations, derived, rows, chip_views, policy),
        whole_cloud=[v for v in validations if derived[v.id].reconciliation.chip is None],
        by_provider=by_provider,
        by_program=grouped(validations, lambda v: v.program, site.programs),
        by_platform=grouped(validations, lambda v: v.platform, site.platforms),
        clouds=clouds,
        submitters=[p.id for p in named if not is_cloud(by_provider[p.id])],
        conflicts={p: provider_results.conflicts(own) for p, own in by_provider.items()},
        concerns=covering,
        programs_without=programs_without(by_provider, programs),
        case_studies=case_studies,
        gaps=gaps,
        suites=grouped(
            sorted(suites, key=lambda s: (s.chip, s.id)), lambda s: s.program, site.programs
        ),
        flagged=flagged(validations, derived, replaced_by),
        scorecard=scorecard(
            clouds,
            programs,
            by_provider,
            {v.id: rows[v.id].accelerators for v in validations},
            {p: covered_count(found) for p, found in covering.items()},
            len(site.concerns),
        ),
        fired=fired(validations, derived),
        charts=chart_tables.site_charts(
            validations,
            derived,
            titles,
            site.programs,
            list(site.case_studies.values()),
            gaps,
            {p.id: p.name for p in site.providers.values()},
        ),
    )


def derive_each(
    site: Site,
    policy: Policy,
    validations: list[Validation],
    case_studies: dict[str, list[CaseStudy]],
    suites: list[Suite],
) -> dict[str, derive.Derived]:
    """Each result's own derived facts (`validation.derive_validation`), by validation id."""
    checklists = list(site.checklists.values())
    return {
        v.id: derive.derive_validation(
            v,
            program=site.programs[v.program],
            platform=site.platforms.get(v.platform or ""),
            provider_name=site.providers[v.provider].name,
            suites=suites,
            program_case_studies=case_studies[v.program],
            checklists=checklists,
            policy=policy,
            questions=site.questions,
        )
        for v in validations
    }


def figures_by_chip(
    validations: list[Validation],
    derived: dict[str, derive.Derived],
    rows: dict[str, ResultRow],
    chip_views: list[workloads.ChipView],
    policy: Policy,
) -> list[ChipFigures]:
    """Each chip's figures, every cloud's side by side, named as the results' table rows name
    them and linked to the chip's workload view."""
    return chip_figures(
        validations,
        derived,
        {v.id: rows[v.id].provider for v in validations},
        {v.id: rows[v.id].provider_name for v in validations},
        {v.id: rows[v.id].program for v in validations},
        {view.chip: view.slug for view in chip_views},
        policy.as_of,
    )


def programs_without(
    by_provider: dict[str, list[Validation]], programs: list[Program]
) -> dict[str, list[Program]]:
    """By provider id: the programs it has no result under."""
    return {
        p: [
            program
            for program, results in provider_results.program_coverage(own, programs)
            if not results
        ]
        for p, own in by_provider.items()
    }


def flagged(
    validations: list[Validation],
    derived: dict[str, derive.Derived],
    replaced_by: dict[str, Validation],
) -> list[tuple[Validation, list[Flag]]]:
    """The results the home page flags, newest first, each with why."""
    return [
        (v, found)
        for v in validations
        if (found := flags(derived[v.id], superseded=v.id in replaced_by))
    ]


def fired(validations: list[Validation], derived: dict[str, derive.Derived]) -> dict[str, int]:
    """By caveat rule: how many results it fires on."""
    return {
        rule: sum(rule in {c.rule for c in derived[v.id].standard_caveats} for v in validations)
        for rule in caveat_rules.RULES
    }
