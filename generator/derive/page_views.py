"""What each page shows beyond the site's facts: the groupings, labels and counts a page's
template prints, made here so the renderer only picks a template and renders it, and the
templates only show (tests/render/test_templates_show.py).

Each function reads the checked `Site` and its derived `SiteFacts`; none renders.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from generator.derive import concerns, page_words, rounds, suites, wording, workloads
from generator.derive import validation as derive
from generator.derive.site_facts import SiteFacts
from generator.english import plural
from generator.model.base import Record
from generator.model.checklists import Checklist
from generator.model.grades import SHOWN_MEANINGS
from generator.model.programs import Program
from generator.model.providers import Platform
from generator.model.site import Site
from generator.model.validation import Validation


def sources(site: Site, *records: Record, extra: tuple[str, ...] = ()) -> list[Any]:
    """The sources the records cite, and `extra`, in the order a page numbers them."""
    return derive.cited_sources(site.sources, *records, extra=extra)


def checklists(site: Site) -> list[Checklist]:
    return list(site.checklists.values())


def validation_view(site: Site, facts: SiteFacts, validation: Validation) -> dict[str, Any]:
    """What a result's pages show of it: its page, its printable checklist and each
    side-by-side page it is on read the same view."""
    derived = facts.derived[validation.id]
    suite = derived.reconciliation.suite
    program = site.programs[validation.program]
    return {
        "validation": validation,
        "title": facts.titles[validation.id],
        "provider": site.providers[validation.provider],
        "platform": site.platforms.get(validation.platform or ""),
        "program": program,
        "suite": suite,
        "d": derived,
        "checklists": [(c, derived.open_items[c.id]) for c in checklists(site)],
        "applicable": derived.applicable_items,
        "validity": page_words.validity(derived.validity_end, program),
        "offer": None if validation.offer is None else page_words.offer(validation.offer),
        "other_suites": page_words.other_suites(suite),
        "coverage_chart": facts.charts.get(f"coverage-{validation.id}"),
        "systems": {system.key: system for system in validation.systems},
        "program_case_studies": facts.case_studies[validation.program],
        "case_study_count": len(facts.case_studies[validation.program]),
        "predecessor": site.validations.get(validation.predecessor or ""),
        "partners": facts.partners[validation.id],
        "successors": facts.successors.get(validation.id, []),
        "sources": sources(
            site,
            validation,
            *([suite] if suite else []),
            *(c for c, _, _ in derived.reconciliation.candidates),
            extra=derive.caveat_sources(derived),
        ),
    }


def trial_checklist_view(site: Site, facts: SiteFacts, validation: Validation) -> dict[str, Any]:
    """What a result's printable checklist adds to its result's view: the items the result
    closes, the checklists' sources and the sources the result itself cites."""
    derived = facts.derived[validation.id]
    cited = (
        *derive.caveat_sources(derived),
        *(c.source for c in validation.caveats),
        # The figures to reproduce cite their sources as the result's page does.
        *dict.fromkeys(f.measurement.source for f in derived.figures),
    )
    own = {s.id for s in sources(site, validation)}
    return {
        "closed": derived.closed_items,
        "sources": sources(site, *checklists(site), extra=cited),
        # A list's source that the result does not cite is said to be about the list, not the
        # result (an analysis of another provider's announcement, on Nebius's checklist).
        "about_list_only": {c.id: c.source not in own for c in checklists(site)},
    }


def pair_label(facts: SiteFacts, validation: Validation) -> str:
    """A column head on a side-by-side page: provider and program, which tell apart two
    results of one provider."""
    row = facts.rows[validation.id]
    return f"{row.provider}, {row.program}"


def flagged(facts: SiteFacts) -> list[tuple[Validation, list[tuple[str, str, str | None]]]]:
    """The results the home page flags, each with its reasons as (kind, words, the id of the
    result a reason names, if one)."""
    found: list[tuple[Validation, list[tuple[str, str, str | None]]]] = []
    for v, flags in facts.flagged:
        newer = facts.replaced_by.get(v.id)
        label = facts.rows[newer.id].program if newer else None
        found.append(
            (v, [(f, page_words.flag(f, facts.policy, label),
                  newer.id if newer and f == "superseded" else None) for f in flags])
        )  # fmt: skip
    return found


def measurements(facts: SiteFacts, validations: list[Validation]) -> list[tuple[Any, ...]]:
    """Every figure of the results, each with the result it belongs to."""
    return [(v, row) for v in validations for row in facts.derived[v.id].figures]


def questions(site: Site) -> list[Any]:
    return sorted(site.questions.values(), key=lambda q: (q.order, q.id))


def answer_counts(site: Site, facts: SiteFacts) -> list[tuple[Any, list[Any]]]:
    """For each question, how many results give each answer word, in the order pages list the
    words; the compare page's script counts the rows it shows the same way."""
    asked = questions(site)
    counted = [Counter[str]() for _ in asked]
    for v in facts.validations:
        for i, answered in enumerate(facts.derived[v.id].answers):
            counted[i][answered.word] += 1
    return [
        (q, [(word, counts[word]) for word in SHOWN_MEANINGS if counts[word]])
        for q, counts in zip(asked, counted, strict=True)
    ]


def checklist_groups(site: Site, facts: SiteFacts) -> dict[str, Any]:
    """The checklists page: the items that apply to each program's results, worded for no one
    result, and each result's own checklist under its program."""
    lists = checklists(site)
    programs = sorted(site.programs.values(), key=lambda p: (p.name, p.id))
    items = [(c, item) for c in lists for item in c.items]
    return {
        "checklists": lists,
        "by_program": [
            (
                program,
                [(c, [i for i in c.items if derive.for_program(i, program.id)]) for c in lists],
                facts.by_program[program.id],
            )
            for program in programs
        ],
        "wordings": {
            (c.id, item.id): wording.general_wording(item, site.questions) for c, item in items
        },
        "why_open": {
            (c.id, item.id): page_words.why_open(item, site.questions) for c, item in items
        },
        "sources": sources(site, *lists),
    }


def pairs_index(facts: SiteFacts) -> dict[str, Any]:
    """The index of the side-by-side pages, by the chip family of the pair's first result."""
    by_chip: dict[str, list[workloads.Pair]] = {}
    for pair in facts.pairs:
        by_chip.setdefault(facts.rows[pair.first.id].chip, []).append(pair)
    labels = {v.id: pair_label(facts, v) for v in facts.validations}
    names = {}
    for pair in facts.pairs:
        first, second = labels[pair.first.id], labels[pair.second.id]
        # Two results of one provider and program read alike: their titles tell them apart.
        if first == second:
            first, second = facts.titles[pair.first.id], facts.titles[pair.second.id]
        names[pair.id] = (first, second)
    return {
        "by_chip": sorted(by_chip.items()),
        "names": names,
        "shared_words": {p.id: plural("workload", len(p.shared)) for p in facts.pairs},
        "partners": workloads.PARTNERS,
    }


def pair_view(facts: SiteFacts, pair: workloads.Pair) -> dict[str, Any]:
    """A side-by-side page, but for each result's own view (the renderer's, made once)."""
    first, second = pair.first, pair.second
    return {
        "pair": pair,
        "answer_pairs": list(
            zip(facts.derived[first.id].answers, facts.derived[second.id].answers, strict=True)
        ),
        "labels": [pair_label(facts, first), pair_label(facts, second)],
    }


def provider_view(site: Site, facts: SiteFacts, provider_id: str) -> dict[str, Any]:
    provider = site.providers[provider_id]
    own = facts.by_provider[provider_id]
    covered = facts.concerns[provider_id]
    return {
        "provider": provider,
        "is_cloud": provider_id in facts.clouds,
        "sources": sources(site, provider),
        "validations": own,
        "results": plural("result", len(own)),
        "without": facts.programs_without[provider_id],
        "conflicts": facts.conflicts[provider_id],
        "measurements": measurements(facts, own),
        "concerns": covered,
        "concern_count": len(covered),
        "covered": concerns.covered_count(covered),
    }


def program_view(site: Site, facts: SiteFacts, program: Program) -> dict[str, Any]:
    program_suites = facts.suites[program.id]
    own = facts.by_program[program.id]
    read = rounds.rounds_read(site, program.id, own)
    answers = [
        (c, c.answers[program.id]) for c in concerns.ordered(site) if program.id in c.answers
    ]
    return {
        "program": program,
        "suites": [(s, suites.suite_counts(s)) for s in program_suites],
        "changes": suites.release_changes(program_suites),
        "validations": own,
        "held": rounds.releases_held(own),
        "rounds": read,
        "typed": rounds.typed_rounds(site, program.id, own),
        "typed_words": rounds.TYPED,
        "left_out": rounds.left_out(site, program.id),
        "case_studies": facts.case_studies[program.id],
        "answers": answers,
        "criteria_count": len(program.catalogue.criteria) if program.catalogue else 0,
        "sources": sources(
            site,
            program,
            *program_suites,
            extra=(
                *(r.source for r in read if r.source),
                *dict.fromkeys(a.source for _, a in answers),
            ),
        ),
    }


def platforms_by_chip(site: Site) -> dict[str, list[Platform]]:
    """The platforms of each chip family, by name: sources name one chip as a system (HGX B200)
    or as the accelerator (B200-SXM-180GB), and the site keeps each as written."""
    found: dict[str, list[Platform]] = {}
    for platform in sorted(site.platforms.values(), key=lambda p: (p.name, p.id)):
        found.setdefault(platform.chip, []).append(platform)
    return found


def chip_slugs(facts: SiteFacts) -> dict[str, str]:
    """Each measured chip family's workloads page name."""
    return {view.chip: view.slug for view in facts.chips}


def platforms_index(site: Site, facts: SiteFacts) -> list[tuple[str, str | None, list[Platform]]]:
    slugs = chip_slugs(facts)
    return [
        (chip, slugs.get(chip), platforms)
        for chip, platforms in sorted(platforms_by_chip(site).items())
    ]


def platform_view(
    site: Site,
    facts: SiteFacts,
    platform: Platform,
    by_chip: dict[str, list[Platform]],
    slugs: dict[str, str],
) -> dict[str, Any]:
    """A platform's page; `by_chip` and `slugs` are made once for all of them."""
    return {
        "platform": platform,
        "siblings": [p for p in by_chip[platform.chip] if p.id != platform.id],
        "chip_slug": slugs.get(platform.chip),
        "validations": facts.by_platform[platform.id],
        "sources": sources(site, platform),
    }
