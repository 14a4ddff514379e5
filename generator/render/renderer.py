"""Rendering the checked `Site` into Markdown pages, through the Jinja templates in `templates/`.

Each page is a Markdown file: headings in Markdown, so the table of contents sees them, and bodies
in HTML blocks, which Markdown leaves alone. Content text is always data passed to a template,
never part of one: `{{ }}` in a YAML record prints as written. Every fact a page shows is derived
before rendering, by `facts.derive_site`; views are built here from those facts, and templates only
show them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from generator.changes.compare import moved
from generator.changes.history import History, Step
from generator.derive import concerns, page_words, rounds, suites, wording, workloads
from generator.derive import validation as derive
from generator.derive.caveats import rules as caveat_rules
from generator.derive.evidence import lowered
from generator.derive.glossary import glossary
from generator.derive.site_facts import SiteFacts, derive_site
from generator.english import listed, plural
from generator.escape import visible
from generator.model.base import Record
from generator.model.concerns import COVER_MEANINGS
from generator.model.grades import GRADE_MEANINGS, SHOWN_MEANINGS
from generator.model.kinds import KINDS
from generator.model.links import (
    checklist_download,
    record_uri,
    relative_file,
    relative_url,
    safe_path,
    slug,
    source_file,
    source_link,
)
from generator.model.policy import Policy
from generator.model.providers import Platform
from generator.model.site import Site
from generator.model.validation import Validation
from generator.publish import api
from generator.publish.files import csv_text
from generator.render import charts, markup
from generator.render.bytecode import SealedBytecode
from generator.render.output import Page
from generator.render.signatures import Signatures
from generator.render.svg import SvgStore


def _shown(value: object) -> object:
    """Every value a template prints: plain text shows its invisible characters as code points
    (U+202E would turn the rest of a line around); rendered Markdown has already done so."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return visible(value)
    return value


def _number(value: float) -> str:
    """A number as a reader writes it: 5.0 as 5, 12.5 as 12.5."""
    return f"{value:g}"


@cache
def environment(templates_dir: Path) -> jinja2.Environment:
    """The Jinja environment of a templates folder, made once a process: it keeps each template
    compiled, and compiles it again only when its file changes, as under `mkdocs serve`."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=_shown,
    )
    env.filters.update(
        md=markup.block,
        md_inline=markup.inline,
        heading=markup.heading,
        number=_number,
        slug=slug,
        listed=listed,
        spelled=page_words.spelled,
        lowered=lowered,
    )
    env.globals.update(
        grade_meanings=GRADE_MEANINGS,
        answer_meanings=SHOWN_MEANINGS,
        validity_words=page_words.VALIDITY_WORDS,
        basis_words=page_words.BASIS_WORDS,
        fit_words=page_words.FIT_WORDS,
        checklist_download=checklist_download,
        near_end=page_words.near_end,
        categories_words=page_words.categories_words,
    )
    return env


def _step_note(step: Step, changed: bool) -> str | None:
    """What the changelog says of a commit in place of its changes, when it lists none."""
    if step.unread == "checks":
        return (
            "made to records that do not pass today's checks (the schema has changed since), so "
            "not compared"
        )
    if step.results is None:  # step.unread == "error"
        return "made to records today's code cannot read, so not compared"
    if step.base is None:
        return (
            f"the first whose records pass today's checks, with "
            f"{plural('result', step.results)}; comparisons start here."
        )
    if not changed:
        return "that changed nothing a buyer reads of a result (a page's text, a comment)"
    return None


# The glossary's page: grades and answers link to their entries there at first use on a page.
GLOSSARY = "glossary.md"


class Renderer:
    """The site's pages: each a template given a view, and each view only selects and formats
    what `derive_site` derived. Every page carries a signature of its inputs, so a rebuild
    reuses each page whose inputs are unchanged."""

    def __init__(
        self,
        site: Site,
        templates_dir: Path,
        *,
        directory_urls: bool,
        policy: Policy,
        previous: dict[str, tuple[str, Page]] | None = None,
        site_facts: SiteFacts | None = None,
        source_links: bool = False,
        history: History | None = None,
        code: str = "",
        compiled: SealedBytecode | None = None,
    ) -> None:
        self.site = site
        self.history = history
        self.site_facts = known = site_facts or derive_site(site, policy)
        # Facts judged on another day would disagree with the pages' own dates and windows.
        assert known.policy == policy, "the site's facts were derived under another policy"
        # The facts pages read most, under their own names.
        self.validations = known.validations
        self.derived = known.derived
        self.titles = known.titles
        self.charts = known.charts
        # The last render's pages by path, each with its signature: a page whose signature is
        # unchanged is reused, not rendered again (as under `mkdocs serve`).
        self.previous = previous or {}
        # The code's version too: a page may be reused from the build of another process.
        options = [policy, directory_urls, source_links, code]
        self.signer = Signatures(site, known, templates_dir, options)
        self.signatures: dict[str, str] = {}
        self.reused = 0
        self.directory_urls = directory_urls
        # Links written from one Markdown file to another, for Zensical (links.source_link).
        self.source_links = source_links
        self.policy = policy
        self.env = environment(templates_dir)
        # The environment serves every render of the process; this one's compiled code is
        # read from, and kept in, its own store.
        self.env.bytecode_cache = compiled
        self.questions = sorted(site.questions.values(), key=lambda q: (q.order, q.id))
        self.checklists = list(site.checklists.values())
        self.views: dict[str, dict[str, Any]] = {}
        # What this site's pages read besides their own view: passed with each render, so the
        # environment, and the templates it has compiled, serve every site and every rebuild.
        self.context: dict[str, Any] = {
            "site": site,
            "policy": policy,
            "rules": [(rule_id, rule.doc) for rule_id, rule in caveat_rules.RULES.items()],
            "stale_words": page_words.stale(policy),
            "titles": known.titles,
            "platform_labels": known.platform_labels,
            "derived": known.derived,
            "newer": known.newer,
            "rows": known.rows,
            "checklist_sizes": {c.id: len(c.items) for c in self.checklists},
        }

    def page(
        self,
        uri: str,
        template: str,
        edit_path: str | None,
        *,
        depends_on: list[str] | None = None,
        **view: Any,
    ) -> Page:
        """A page, rendered; or the last render's page, when no input of it has changed."""
        path = safe_path(uri, ".md")
        signature = self.signatures[path] = self.signer.page(
            uri, template, edit_path, depends_on or ["*"], view
        )
        last = self.previous.get(path)
        if last is not None and last[0] == signature:
            self.reused += 1
            return last[1]

        def href(target: str) -> str:
            if self.source_links:
                return source_link(uri, target)
            return relative_url(uri, target, self.directory_urls)

        def link(kind: str, record_id: str) -> str:
            return href(record_uri(kind, record_id))

        def download(path: str) -> str:
            if self.source_links:
                return source_file(uri, path)
            return relative_file(uri, path, self.directory_urls)

        used: set[str] = set()

        def term(anchor: str) -> str:
            """The glossary entry's address at the term's first use on this page, else ""."""
            if anchor in used or uri == GLOSSARY:
                return ""
            used.add(anchor)
            return f"{href(GLOSSARY)}#{anchor}"

        # Each cited source's number, its place in the page's list: a citation reads it once,
        # where a search of the list would cost each citation the list's length.
        numbers = {s.id: n for n, s in enumerate(view.get("sources") or [], 1)}
        text = self.env.get_template(template).render(
            **self.context,
            href=href,
            link=link,
            download=download,
            term=term,
            source_numbers=numbers,
            here=uri,
            **view,
        )
        return Page(path, text, edit_path)

    # --- views: what a page shows, selected and formatted ----------------------------------------

    def only_file(self, kind: str) -> str | None:
        """The edit target of a page built from a whole kind: its file, when there is just one."""
        files = [path for (file_kind, _), path in self.site.files.items() if file_kind == kind]
        return files[0] if len(files) == 1 else None

    def sources(self, *records: Record, extra: tuple[str, ...] = ()) -> list[Any]:
        return derive.cited_sources(self.site.sources, *records, extra=extra)

    def validation_view(self, validation: Validation) -> dict[str, Any]:
        """What a result's pages show of it, built once: its page, its printable checklist and
        each side-by-side page it is on read the same view."""
        if validation.id not in self.views:
            self.views[validation.id] = self._validation_view(validation)
        return self.views[validation.id]

    def _validation_view(self, validation: Validation) -> dict[str, Any]:
        site = self.site
        known = self.site_facts
        derived = self.derived[validation.id]
        suite = derived.reconciliation.suite
        return {
            "validation": validation,
            "title": self.titles[validation.id],
            "provider": site.providers[validation.provider],
            "platform": site.platforms.get(validation.platform or ""),
            "program": site.programs[validation.program],
            "suite": suite,
            "d": derived,
            "checklists": [(c, derived.open_items[c.id]) for c in self.checklists],
            "applicable": derived.applicable_items,
            "closed": derived.closed_items,
            "validity": page_words.validity(
                derived.validity_end, site.programs[validation.program]
            ),
            "offer": None if validation.offer is None else page_words.offer(validation.offer),
            "other_suites": page_words.other_suites(suite),
            "coverage_chart": self.charts.get(f"coverage-{validation.id}"),
            "systems": {system.key: system for system in validation.systems},
            "program_case_studies": known.case_studies[validation.program],
            "case_study_count": len(known.case_studies[validation.program]),
            "predecessor": site.validations.get(validation.predecessor or ""),
            "partners": known.partners[validation.id],
            "successors": known.successors.get(validation.id, []),
            "sources": self.sources(
                validation,
                *([suite] if suite else []),
                *(c for c, _, _ in derived.reconciliation.candidates),
                extra=derive.caveat_sources(derived),
            ),
        }

    def pair_label(self, validation: Validation) -> str:
        """A column head on a side-by-side page: provider and program, which tell apart two
        results of one provider."""
        row = self.site_facts.rows[validation.id]
        return f"{row.provider}, {row.program}"

    def flagged(self) -> list[tuple[Validation, list[tuple[str, str, str | None]]]]:
        """The results the home page flags, each with its reasons as (kind, words, the id of
        the result a reason names, if one)."""
        replaced_by = self.site_facts.replaced_by
        found: list[tuple[Validation, list[tuple[str, str, str | None]]]] = []
        for v, flags in self.site_facts.flagged:
            newer = replaced_by.get(v.id)
            label = self.site_facts.rows[newer.id].program if newer else None
            found.append(
                (v, [(f, page_words.flag(f, self.policy, label),
                      newer.id if newer and f == "superseded" else None) for f in flags])
            )  # fmt: skip
        return found

    def measurements(self, validations: list[Validation]) -> list[tuple[Any, ...]]:
        """Every figure of the results, each with the result it belongs to."""
        return [(v, row) for v in validations for row in self.derived[v.id].figures]

    # --- pages -----------------------------------------------------------------------------------

    def render(self, examples: list[api.Example]) -> dict[str, Page]:
        """Every page, by its path; `examples` are the API requests the data page shows."""
        pages = [
            self.home_page(),
            *self.index_pages(),
            self.case_studies_page(),
            self.compare_page(),
            self.concerns_page(),
            self.glossary_page(),
            self.data_page(examples),
            self.changelog_page(),
            self.checklist_page(),
            self.workloads_page(),
            *self.chip_pages(),
            self.figures_page(),
            *self.chip_figures_pages(),
            self.pairs_page(),
            *self.pair_pages(),
            *self.result_pages(),
            *self.provider_pages(),
            *self.program_pages(),
            *self.platform_pages(),
        ]
        by_uri = {page.uri: page for page in pages}
        if len(by_uri) != len(pages):  # one page would silently replace another
            counts = Counter(page.uri for page in pages)
            twice = sorted(uri for uri, count in counts.items() if count > 1)
            raise ValueError(f"two generated pages share a path: {', '.join(twice)}")
        return by_uri

    def home_page(self) -> Page:
        latest = page_words.latest(self.validations, self.policy.as_of)
        return self.page(
            "index.md", "home.md.j2", None, **vars(latest), flagged=self.flagged(),
            timeline=self.charts["timeline"], scorecard=self.site_facts.scorecard,
        )  # fmt: skip

    def index_pages(self) -> list[Page]:
        views = self.chip_views
        site = self.site
        return [
            self.page(
                "validations/index.md", "validations.md.j2", None, validations=self.validations
            ),
            self.page(
                "providers/index.md",
                "providers.md.j2",
                None,
                clouds=[site.providers[p] for p in self.site_facts.clouds],
                submitters=[site.providers[p] for p in self.site_facts.submitters],
                scorecard=self.site_facts.scorecard,
            ),
            self.page(
                "programs/index.md", "programs.md.j2", None, programs=list(site.programs.values())
            ),
            self.page(
                "platforms/index.md",
                "platforms.md.j2",
                None,
                by_chip=[
                    (chip, views[chip].slug if chip in views else None, platforms)
                    for chip, platforms in sorted(self.platforms_by_chip.items())
                ],
            ),
        ]

    def case_studies_page(self) -> Page:
        case_studies = list(self.site.case_studies.values())
        return self.page(
            "case-studies.md",
            "case-studies.md.j2",
            self.only_file("case-studies"),
            case_studies=case_studies,
            gaps=self.site_facts.gaps,
            sources=self.sources(*case_studies),
            chart=self.charts.get("case-studies"),
        )

    def glossary_page(self) -> Page:
        return self.page(
            GLOSSARY, "glossary.md.j2", None, sections=glossary(self.site, self.policy)
        )

    def compare_page(self) -> Page:
        return self.page(
            "compare.md",
            "compare.md.j2",
            None,
            validations=self.validations,
            questions=self.questions,
            matrix=self.charts["evidence"],
            fired=self.site_facts.fired,
            result_count=len(self.validations),
            shown_words=list(SHOWN_MEANINGS),
            shown_answers=self.answer_counts(self.validations),
        )

    def concerns_page(self) -> Page:
        """What each program checks of a buyer's concerns: concerns down, programs across."""
        listed = concerns.ordered(self.site)
        programs = list(self.site.programs.values())
        answers = [a for c in listed for a in c.answers.values()]
        return self.page(
            "concerns.md",
            "concerns.md.j2",
            None,
            concerns=listed,
            programs=programs,
            cover_meanings=COVER_MEANINGS,
            sources=self.sources(extra=tuple(dict.fromkeys(a.source for a in answers))),
        )

    def answer_counts(self, validations: list[Validation]) -> list[tuple[Any, list[Any]]]:
        """For each question, how many of `validations` give each answer word, in the order
        pages list the words; the compare page's script counts the rows it shows the same way."""
        counted = [Counter[str]() for _ in self.questions]
        for v in validations:
            for i, answered in enumerate(self.derived[v.id].answers):
                counted[i][answered.word] += 1
        return [
            (q, [(word, counts[word]) for word in SHOWN_MEANINGS if counts[word]])
            for q, counts in zip(self.questions, counted, strict=True)
        ]

    def data_page(self, examples: list[api.Example]) -> Page:
        return self.page(
            "data.md",
            "data.md.j2",
            None,
            kinds=list(KINDS),
            endpoints=api.endpoints(),
            # A path with "{id}" in it stands for one per record: no one file to link.
            fetchable={e.path: "{id}" not in e.path for e in api.endpoints()},
            measurement_columns=api.MEASUREMENT_COLUMNS,
            examples=examples,
            charts=sorted(self.charts.values(), key=lambda c: c.id),
            validations=self.validations,
            checklists=self.checklists,
        )

    def changelog_page(self) -> Page:
        """What each commit of the content changed, by day, linked to the results still on the
        site. Without a history, the page says why there is none."""
        days = []
        for day, steps in self.history.days() if self.history is not None else []:
            # A buyer reads what changed; the changes that changed nothing a buyer reads, or
            # could not be compared, are counted under the day, not listed one by one.
            shown, quiet = [], Counter[str]()
            for step in steps:
                groups: dict[str, list[Any]] = {}
                for change in step.changes:
                    groups.setdefault(change.result, []).append((change, moved(change)))
                results = [
                    (result_id, changes[0][0].title, result_id in self.site.validations, changes)
                    for result_id, changes in groups.items()
                ]
                note = _step_note(step, bool(results))
                if results or step.earlier or (step.base is None and step.results is not None):
                    shown.append((step, note, results))
                else:
                    quiet[note or ""] += 1
            days.append((day, shown, [(n, plural("change", c)) for n, c in quiet.items()]))
        why = (
            self.history.why
            if self.history is not None
            else "this build was not given the content's history"
        )
        return self.page("changelog.md", "changelog.md.j2", None, days=days, why=why)

    def checklist_page(self) -> Page:
        """The checklists by program: the items that apply to each program's results, worded for
        no one result, and each result's own checklist linked under its program."""
        known = self.site_facts
        programs = sorted(self.site.programs.values(), key=lambda p: (p.name, p.id))
        return self.page(
            "checklist.md",
            "checklist.md.j2",
            self.only_file("checklists"),
            checklists=self.checklists,
            by_program=[
                (
                    program,
                    [
                        (c, [i for i in c.items if derive.for_program(i, program.id)])
                        for c in self.checklists
                    ],
                    known.by_program[program.id],
                )
                for program in programs
            ],
            wordings={
                (c.id, item.id): wording.general_wording(item, self.site.questions)
                for c in self.checklists
                for item in c.items
            },
            why_open={
                (c.id, item.id): page_words.why_open(item, self.site.questions)
                for c in self.checklists
                for item in c.items
            },
            sources=self.sources(*self.checklists),
        )

    def workloads_page(self) -> Page:
        known = self.site_facts
        return self.page(
            "workloads/index.md",
            "workloads.md.j2",
            None,
            chips=known.chips,
            whole_cloud=known.whole_cloud,
        )

    def chip_pages(self) -> Iterator[Page]:
        measured = {chip.chip for chip in self.site_facts.figures}
        for chip in self.site_facts.chips:
            yield self.page(
                f"workloads/{chip.slug}.md",
                "workload-chip.md.j2",
                None,
                chip=chip,
                kind_words=workloads.KIND_WORDS,
                has_figures=chip.chip in measured,
            )

    def figures_page(self) -> Page:
        return self.page("figures/index.md", "figures.md.j2", None, chips=self.site_facts.figures)

    def chip_figures_pages(self) -> Iterator[Page]:
        for chip in self.site_facts.figures:
            yield self.page(f"figures/{chip.slug}.md", "figures-chip.md.j2", None, chip=chip)

    def pairs_page(self) -> Page:
        """The index of the side-by-side pages, by the chip family of the pair's first result."""
        by_chip: dict[str, list[workloads.Pair]] = {}
        for pair in self.site_facts.pairs:
            by_chip.setdefault(self.site_facts.rows[pair.first.id].chip, []).append(pair)
        labels = {v.id: self.pair_label(v) for v in self.validations}
        names = {}
        for pair in self.site_facts.pairs:
            first, second = labels[pair.first.id], labels[pair.second.id]
            # Two results of one provider and program read alike: their titles tell them apart.
            if first == second:
                first, second = self.titles[pair.first.id], self.titles[pair.second.id]
            names[pair.id] = (first, second)
        return self.page(
            "pairs/index.md",
            "pairs.md.j2",
            None,
            by_chip=sorted(by_chip.items()),
            names=names,
            shared_words={p.id: plural("workload", len(p.shared)) for p in self.site_facts.pairs},
            partners=workloads.PARTNERS,
        )

    def pair_pages(self) -> Iterator[Page]:
        for pair in self.site_facts.pairs:
            yield self.page(
                f"pairs/{pair.id}.md",
                "pair.md.j2",
                None,
                depends_on=[f"facts:{pair.first.id}", f"facts:{pair.second.id}"],
                pair=pair,
                views=[self.validation_view(pair.first), self.validation_view(pair.second)],
                answer_pairs=list(
                    zip(
                        self.derived[pair.first.id].answers,
                        self.derived[pair.second.id].answers,
                        strict=True,
                    )
                ),
                labels=[self.pair_label(pair.first), self.pair_label(pair.second)],
            )

    def result_pages(self) -> Iterator[Page]:
        """Each result's page, then its printable trial checklist."""
        for validation in self.validations:
            edit = self.site.file_of("validations", validation.id)
            depends_on = [f"facts:{validation.id}"]
            view = self.validation_view(validation)
            yield self.page(
                record_uri("validations", validation.id),
                "validation.md.j2",
                edit,
                depends_on=depends_on,
                **view,
            )
            derived = self.derived[validation.id]
            cited = (*derive.caveat_sources(derived), *(c.source for c in validation.caveats))
            trial_sources = self.sources(*self.checklists, extra=cited)
            yield self.page(
                f"trial-checklists/{validation.id}.md",
                "trial-checklist.md.j2",
                edit,
                depends_on=depends_on,
                # The sources the result itself cites: a list's source that is not among them
                # is said to be about the list, not the result (an analysis of another
                # provider's announcement, on Nebius's checklist).
                about_list_only={
                    c.id: c.source not in {s.id for s in self.sources(validation)}
                    for c in self.checklists
                },
                **{**view, "sources": trial_sources},
            )

    def provider_pages(self) -> Iterator[Page]:
        known = self.site_facts
        for provider in self.site.providers.values():
            own = known.by_provider[provider.id]
            yield self.page(
                record_uri("providers", provider.id),
                "provider.md.j2",
                self.site.file_of("providers", provider.id),
                depends_on=[f"providers:{provider.id}", "references"]
                + [f"facts:{v.id}" for v in own],
                provider=provider,
                is_cloud=provider.id in known.clouds,
                sources=self.sources(provider),
                validations=own,
                results=plural("result", len(own)),
                without=known.programs_without[provider.id],
                conflicts=known.conflicts[provider.id],
                measurements=self.measurements(own),
                concerns=known.concerns[provider.id],
                concern_count=len(known.concerns[provider.id]),
                covered=concerns.covered_count(known.concerns[provider.id]),
            )

    def program_pages(self) -> Iterator[Page]:
        known = self.site_facts
        for program in self.site.programs.values():
            program_suites = known.suites[program.id]
            own = known.by_program[program.id]
            read = rounds.rounds_read(self.site, program.id, own)
            answers = [
                (c, c.answers[program.id])
                for c in concerns.ordered(self.site)
                if program.id in c.answers
            ]
            yield self.page(
                record_uri("programs", program.id),
                "program.md.j2",
                self.site.file_of("programs", program.id),
                depends_on=["references", *(f"facts:{v.id}" for v in own)],
                program=program,
                suites=[(s, suites.suite_counts(s)) for s in program_suites],
                changes=suites.release_changes(program_suites),
                validations=own,
                held=rounds.releases_held(own),
                rounds=read,
                typed=rounds.typed_rounds(self.site, program.id, own),
                typed_words=rounds.TYPED,
                left_out=rounds.left_out(self.site, program.id),
                case_studies=known.case_studies[program.id],
                answers=answers,
                criteria_count=len(program.catalogue.criteria) if program.catalogue else 0,
                sources=self.sources(
                    program,
                    *program_suites,
                    extra=(
                        *(r.source for r in read if r.source),
                        *dict.fromkeys(a.source for _, a in answers),
                    ),
                ),
            )

    @property
    def platforms_by_chip(self) -> dict[str, list[Platform]]:
        """The platforms of each chip family, by name: sources name one chip as a system (HGX
        B200) or as the accelerator (B200-SXM-180GB), and the site keeps each as written."""
        found: dict[str, list[Platform]] = {}
        for platform in sorted(self.site.platforms.values(), key=lambda p: (p.name, p.id)):
            found.setdefault(platform.chip, []).append(platform)
        return found

    @property
    def chip_views(self) -> dict[str, workloads.ChipView]:
        return {view.chip: view for view in self.site_facts.chips}

    def platform_pages(self) -> Iterator[Page]:
        known = self.site_facts
        by_chip, views = self.platforms_by_chip, self.chip_views
        for platform in self.site.platforms.values():
            own = known.by_platform[platform.id]
            siblings = [p for p in by_chip[platform.chip] if p.id != platform.id]
            yield self.page(
                record_uri("platforms", platform.id),
                "platform.md.j2",
                self.site.file_of("platforms", platform.id),
                depends_on=[f"platforms:{platform.id}", "references"]
                + [f"facts:{v.id}" for v in own],
                platform=platform,
                siblings=siblings,
                chip_slug=views[platform.chip].slug if platform.chip in views else None,
                validations=own,
                sources=self.sources(platform),
            )

    def chart_files(self, store: SvgStore, *, later: bool = False) -> dict[str, bytes]:
        """Each chart as a light and a dark SVG, and its data as CSV; `later`, the SVGs the
        store does not hold are left to `store.finish()`."""
        drawings = {}
        files = {}
        for chart in self.charts.values():
            drawings[f"charts/{chart.id}.svg"] = charts.drawing(chart, "light")
            drawings[f"charts/{chart.id}.dark.svg"] = charts.drawing(chart, "dark")
            table = chart.table
            files[f"charts/{chart.id}.csv"] = csv_text(table.columns, list(table.rows)).encode()
        return files | store.render(drawings, later=later)
