"""Rendering the checked `Site` into Markdown pages, through the Jinja templates in `templates/`.

Each page is a Markdown file: headings in Markdown, so the table of contents sees them, and bodies
in HTML blocks, which Markdown leaves alone. Content text is always data passed to a template,
never part of one: `{{ }}` in a YAML record prints as written. Every fact a page shows is derived
before rendering: the site's facts by `derive.site_facts.derive_site`, each page's groupings and
labels by `derive.page_views`; the renderer picks each page's template and renders it, and
templates only show.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from generator.changes import changelog
from generator.changes.history import History
from generator.derive import concerns, page_views, page_words, workloads
from generator.derive.caveats import rules as caveat_rules
from generator.derive.glossary import glossary
from generator.derive.site_facts import SiteFacts, derive_site
from generator.model.concerns import COVER_MEANINGS
from generator.model.grades import SHOWN_MEANINGS
from generator.model.kinds import KINDS
from generator.model.links import (
    record_uri,
    relative_file,
    relative_url,
    safe_path,
    source_file,
    source_link,
)
from generator.model.options import Options
from generator.model.site import Site
from generator.model.validation import Validation
from generator.publish import api
from generator.publish.data_files import csv_text
from generator.render import charts
from generator.render.bytecode import SealedBytecode
from generator.render.environment import environment
from generator.render.output import Page
from generator.render.reuse import Reuse
from generator.render.signatures import Signatures
from generator.render.svg import SvgStore
from generator.render.views import (
    CaseStudiesView,
    ChangelogView,
    ChecklistView,
    CompareView,
    ConcernsView,
    DataView,
    FiguresChipView,
    FiguresView,
    GlossaryView,
    HomeView,
    PairsView,
    PairView,
    PlatformsView,
    PlatformView,
    ProgramsView,
    ProgramView,
    ProvidersView,
    ProviderView,
    TrialChecklistView,
    ValidationsView,
    ValidationView,
    View,
    WorkloadChipView,
    WorkloadsView,
)

# The glossary's page: grades and answers link to their entries there at first use on a page.
GLOSSARY = "glossary.md"
# What every page is given besides its view and the site's `context`, each made for the page:
# its links, each from its own address (`here`), and its sources' numbers.
PAGE_NAMES = ("href", "link", "download", "term", "source_numbers", "here")


class Renderer:
    """The site's pages: each a template given a view, and each view only selects and formats
    what `derive_site` derived. Every page carries a signature of its inputs, so a rebuild
    reuses each page whose inputs are unchanged."""

    def __init__(
        self,
        site: Site,
        options: Options,
        *,
        facts: SiteFacts | None = None,
        history: History | None = None,
        reuse: Reuse | None = None,
        code: str = "",
    ) -> None:
        """`code`, the generator's version: a page is reused only from a build of the same."""
        policy = options.policy
        self.site = site
        self.history = history
        self.facts = facts = facts or derive_site(site, policy)
        # Facts judged on another day would disagree with the pages' own dates and windows.
        assert facts.policy == policy, "the site's facts were derived under another policy"
        # The facts pages read most, under their own names.
        self.validations = facts.validations
        self.charts = facts.charts
        reuse = reuse or Reuse()
        # The last render's pages by path, each with its signature: a page whose signature is
        # unchanged is reused, not rendered again (as under `mkdocs serve`).
        self.previous = reuse.previous
        # The code's version too: a page may be reused from the build of another process.
        signed = [policy, options.directory_urls, options.source_links, code]
        self.signer = Signatures(site, facts, options.templates_dir, signed)
        self.signatures: dict[str, str] = {}
        # How pages are written: their links (for Zensical, from one Markdown file to another,
        # links.source_link) and the date they are judged on.
        self.options = options
        self.env = environment(options.templates_dir)
        # The environment serves every render of the process; this one's compiled code is
        # read from, and kept in, its own store.
        self.compiled = SealedBytecode(reuse.code) if reuse.code is not None else None
        self.env.bytecode_cache = self.compiled
        self.views: dict[str, ValidationView] = {}
        # What this site's pages read besides their own view: passed with each render, so the
        # environment, and the templates it has compiled, serve every site and every rebuild.
        self.context: dict[str, Any] = {
            "site": site,
            "policy": policy,
            "rules": [(rule_id, rule.doc) for rule_id, rule in caveat_rules.RULES.items()],
            "stale_words": page_words.stale(policy),
            "titles": facts.titles,
            "platform_labels": facts.platform_labels,
            "derived": facts.derived,
            "newer": facts.newer,
            "rows": facts.rows,
            "checklist_sizes": {c.id: len(c.items) for c in site.checklists.values()},
        }

    def keep_code(self) -> None:
        """Keep the templates this render compiled, for the next process's (render/bytecode)."""
        if self.compiled is not None:
            self.compiled.save()

    def page(
        self,
        uri: str,
        shown: View,
        edit_path: str | None,
        *,
        depends_on: list[str] | None = None,
    ) -> Page:
        """A page: its view's template, rendered with the view; or the last render's page, when
        no input of it has changed."""
        path = safe_path(uri, ".md")
        template, view = shown.TEMPLATE, shown.given()
        signature = self.signatures[path] = self.signer.page(
            uri, template, edit_path, depends_on or ["*"], view
        )
        last = self.previous.get(path)
        if last is not None and last[0] == signature:
            return last[1]

        def href(target: str) -> str:
            if self.options.source_links:
                return source_link(uri, target)
            return relative_url(uri, target, self.options.directory_urls)

        def link(kind: str, record_id: str) -> str:
            return href(record_uri(kind, record_id))

        def download(path: str) -> str:
            if self.options.source_links:
                return source_file(uri, path)
            return relative_file(uri, path, self.options.directory_urls)

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
        own = dict(zip(PAGE_NAMES, (href, link, download, term, numbers, uri), strict=True))
        text = self.env.get_template(template).render(**self.context, **own, **view)
        return Page(path, text, edit_path)

    # --- views: what a page shows, selected and formatted ----------------------------------------

    def only_file(self, kind: str) -> str | None:
        """The edit target of a page built from a whole kind: its file, when there is just one."""
        files = [path for (file_kind, _), path in self.site.files.items() if file_kind == kind]
        return files[0] if len(files) == 1 else None

    def validation_view(self, validation: Validation) -> ValidationView:
        """A result's view, made once: its page, its printable checklist and each side-by-side
        page it is on read the same one."""
        if validation.id not in self.views:
            self.views[validation.id] = ValidationView(
                **page_views.validation_view(self.site, self.facts, validation)
            )
        return self.views[validation.id]

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
        latest = page_words.latest(self.validations, self.options.policy.as_of)
        view = HomeView(
            **vars(latest),
            flagged=page_views.flagged(self.facts),
            timeline=self.charts["timeline"],
            scorecard=self.facts.scorecard,
        )
        return self.page("index.md", view, None)

    def index_pages(self) -> list[Page]:
        site, facts = self.site, self.facts
        return [
            self.page("validations/index.md", ValidationsView(self.validations), None),
            self.page(
                "providers/index.md",
                ProvidersView(
                    clouds=[site.providers[p] for p in facts.clouds],
                    submitters=[site.providers[p] for p in facts.submitters],
                    scorecard=facts.scorecard,
                ),
                None,
            ),
            self.page("programs/index.md", ProgramsView(list(site.programs.values())), None),
            self.page(
                "platforms/index.md", PlatformsView(page_views.platforms_index(site, facts)), None
            ),
        ]

    def case_studies_page(self) -> Page:
        case_studies = list(self.site.case_studies.values())
        view = CaseStudiesView(
            case_studies=case_studies,
            gaps=self.facts.gaps,
            sources=page_views.sources(self.site, *case_studies),
            chart=self.charts.get("case-studies"),
        )
        return self.page("case-studies.md", view, self.only_file("case-studies"))

    def glossary_page(self) -> Page:
        return self.page(GLOSSARY, GlossaryView(glossary(self.site, self.options.policy)), None)

    def compare_page(self) -> Page:
        view = CompareView(
            validations=self.validations,
            questions=page_views.questions(self.site),
            matrix=self.charts["evidence"],
            fired=self.facts.fired,
            result_count=len(self.validations),
            shown_words=list(SHOWN_MEANINGS),
            shown_answers=page_views.answer_counts(self.site, self.facts),
        )
        return self.page("compare.md", view, None)

    def concerns_page(self) -> Page:
        """What each program checks of a buyer's concerns: concerns down, programs across."""
        listed = concerns.ordered(self.site)
        answers = [a for c in listed for a in c.answers.values()]
        view = ConcernsView(
            concerns=listed,
            programs=list(self.site.programs.values()),
            cover_meanings=COVER_MEANINGS,
            sources=page_views.sources(
                self.site, extra=tuple(dict.fromkeys(a.source for a in answers))
            ),
        )
        return self.page("concerns.md", view, None)

    def data_page(self, examples: list[api.Example]) -> Page:
        view = DataView(
            kinds=list(KINDS),
            endpoints=api.endpoints(),
            # A path with "{id}" in it stands for one per record: no one file to link.
            fetchable={e.path: "{id}" not in e.path for e in api.endpoints()},
            measurement_columns=api.MEASUREMENT_COLUMNS,
            examples=examples,
            charts=sorted(self.charts.values(), key=lambda c: c.id),
            validations=self.validations,
            checklists=page_views.checklists(self.site),
        )
        return self.page("data.md", view, None)

    def changelog_page(self) -> Page:
        """What each commit of the content changed, by day, linked to the results still on the
        site. Without a history, the page says why there is none."""
        days = changelog.days(self.history, set(self.site.validations))
        view = ChangelogView(days=days, why=changelog.why_none(self.history))
        return self.page("changelog.md", view, None)

    def checklist_page(self) -> Page:
        view = ChecklistView(**page_views.checklist_groups(self.site, self.facts))
        return self.page("checklist.md", view, self.only_file("checklists"))

    def workloads_page(self) -> Page:
        view = WorkloadsView(chips=self.facts.chips, whole_cloud=self.facts.whole_cloud)
        return self.page("workloads/index.md", view, None)

    def chip_pages(self) -> Iterator[Page]:
        measured = {chip.chip for chip in self.facts.figures}
        for chip in self.facts.chips:
            view = WorkloadChipView(
                chip=chip, kind_words=workloads.KIND_WORDS, has_figures=chip.chip in measured
            )
            yield self.page(f"workloads/{chip.slug}.md", view, None)

    def figures_page(self) -> Page:
        return self.page("figures/index.md", FiguresView(self.facts.figures), None)

    def chip_figures_pages(self) -> Iterator[Page]:
        for chip in self.facts.figures:
            yield self.page(f"figures/{chip.slug}.md", FiguresChipView(chip), None)

    def pairs_page(self) -> Page:
        return self.page("pairs/index.md", PairsView(**page_views.pairs_index(self.facts)), None)

    def pair_pages(self) -> Iterator[Page]:
        for pair in self.facts.pairs:
            # The views of both results are made once, for their own pages too.
            view = PairView(
                **page_views.pair_view(self.facts, pair),
                views=[self.validation_view(pair.first), self.validation_view(pair.second)],
            )
            depends_on = [f"facts:{pair.first.id}", f"facts:{pair.second.id}"]
            yield self.page(f"pairs/{pair.id}.md", view, None, depends_on=depends_on)

    def result_pages(self) -> Iterator[Page]:
        """Each result's page, then its printable trial checklist."""
        for validation in self.validations:
            edit = self.site.file_of("validations", validation.id)
            depends_on = [f"facts:{validation.id}"]
            view = self.validation_view(validation)
            uri = record_uri("validations", validation.id)
            yield self.page(uri, view, edit, depends_on=depends_on)
            trial = TrialChecklistView(
                **view.of_result(),
                **page_views.trial_checklist_view(self.site, self.facts, validation),
            )
            uri = f"trial-checklists/{validation.id}.md"
            yield self.page(uri, trial, edit, depends_on=depends_on)

    def provider_pages(self) -> Iterator[Page]:
        own = self.facts.by_provider
        for provider in self.site.providers.values():
            view = ProviderView(**page_views.provider_view(self.site, self.facts, provider.id))
            yield self.page(
                record_uri("providers", provider.id),
                view,
                self.site.file_of("providers", provider.id),
                depends_on=[f"providers:{provider.id}", "references"]
                + [f"facts:{v.id}" for v in own[provider.id]],
            )

    def program_pages(self) -> Iterator[Page]:
        own = self.facts.by_program
        for program in self.site.programs.values():
            view = ProgramView(**page_views.program_view(self.site, self.facts, program))
            yield self.page(
                record_uri("programs", program.id),
                view,
                self.site.file_of("programs", program.id),
                depends_on=["references", *(f"facts:{v.id}" for v in own[program.id])],
            )

    def platform_pages(self) -> Iterator[Page]:
        facts = self.facts
        by_chip = page_views.platforms_by_chip(self.site)
        slugs = page_views.chip_slugs(facts)
        for platform in self.site.platforms.values():
            view = PlatformView(
                **page_views.platform_view(self.site, facts, platform, by_chip, slugs)
            )
            yield self.page(
                record_uri("platforms", platform.id),
                view,
                self.site.file_of("platforms", platform.id),
                depends_on=[f"platforms:{platform.id}", "references"]
                + [f"facts:{v.id}" for v in facts.by_platform[platform.id]],
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
