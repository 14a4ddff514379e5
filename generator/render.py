"""Rendering the checked `Site` into Markdown pages, through the Jinja templates in `templates/`.

Each page is a Markdown file: headings in Markdown, so the table of contents sees them, and bodies
in HTML blocks, which Markdown leaves alone. Content text is always data passed to a template,
never part of one: `{{ }}` in a YAML record prints as written. Views are built here, so templates
only show.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from . import api, charts, derive, markup, workloads
from .api import APPLIES_WORDS
from .data import build_data, csv_text
from .links import record_uri, relative_file, relative_url, safe_path
from .model import GRADE_MEANINGS, KINDS, SHOWN_MEANINGS, Record, Validation
from .output import Output, Page
from .site import Site
from .svg import SvgStore

# How many results the home page lists as the latest.
LATEST = 10

VALIDITY_WORDS = {
    "valid": "valid",
    "expiring": "near its validity end",
    "expired": "past its validity end",
    "unknown": "validity end unknown",
    "no-expiry": "no validity period stated",
}


BASIS_WORDS = {
    "stated": "named by the provider",
    "stated-release": "identified by the provider's stated recipe release",
    "inferred-from-counts": "inferred from the reported counts",
    "ambiguous": "ambiguous: several recorded suites match the counts",
    "not-found": "not found: no recorded suite matches the counts",
    "no-counts": "not known: the provider stated neither a suite nor counts to match one",
    "not-applicable": "not applicable",
}
FIT_WORDS = {
    "matches": "the reported counts match it",
    "exceeds": "the reported counts exceed it, so it cannot be the suite that ran",
    "below": "the reported counts are fewer than it holds: a partial run of it",
    "unknown": "there are no reported counts to compare",
}


def _number(value: float) -> str:
    """A number as a reader writes it: 5.0 as 5, 12.5 as 12.5."""
    return f"{value:g}"


def _slug(text: str) -> str:
    """Text as an HTML id fragment: lower-case letters, digits and single hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


# Kinds whose records any result's page may read, through its derived facts or its citations.
SHARED_KINDS = {"sources", "programs", "suites", "case-studies", "checklists", "questions"}


def _hash(parts: list[Any]) -> str:
    return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()


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
    )
    env.filters.update(
        md=markup.block,
        md_inline=markup.inline,
        heading=markup.heading,
        number=_number,
        slug=_slug,
        zip=lambda first, second: zip(first, second, strict=True),
    )
    env.globals.update(
        grade_meanings=GRADE_MEANINGS,
        answer_meanings=SHOWN_MEANINGS,
        validity_words=VALIDITY_WORDS,
        basis_words=BASIS_WORDS,
        fit_words=FIT_WORDS,
        applies_words=APPLIES_WORDS,
    )
    return env


class Renderer:
    def __init__(
        self,
        site: Site,
        templates_dir: Path,
        *,
        directory_urls: bool,
        policy: derive.Policy,
        previous: dict[str, tuple[str, Page]] | None = None,
    ) -> None:
        self.site = site
        # The last render's pages by path, each with its signature: a page whose signature is
        # unchanged is reused, not rendered again (as under `mkdocs serve`).
        self.previous = previous or {}
        self.signatures: dict[str, str] = {}
        self.reused = 0
        self._facts: dict[str, str] = {}
        self._references: str | None = None
        self._everything: str | None = None
        self.templates = _hash(
            [
                (path.relative_to(templates_dir).as_posix(), path.read_bytes().hex())
                for path in sorted(templates_dir.rglob("*"))
                if path.is_file()
            ]
            + [policy, directory_urls]
        )
        self.directory_urls = directory_urls
        self.policy = policy
        self.env = environment(templates_dir)
        # What this site's pages read besides their own view: passed with each render, so the
        # environment, and the templates it has compiled, serve every site and every rebuild.
        self.context: dict[str, Any] = {
            "site": site,
            "policy": policy,
            "rules": [(rule_id, rule.doc) for rule_id, rule in derive.RULES.items()],
        }
        self.questions = sorted(site.questions.values(), key=lambda q: (q.order, q.id))
        self.checklists = list(site.checklists.values())
        self.validations = derive.newest_first(list(site.validations.values()))
        self.titles = {v.id: self.title(v) for v in self.validations}
        self.platform_labels = {v.id: self.platform_label(v) for v in self.validations}
        suites = list(site.suites.values())
        self.case_studies = list(site.case_studies.values())
        self.derived = {
            v.id: derive.derive_validation(
                v,
                program=site.programs[v.program],
                platform=site.platforms.get(v.platform or ""),
                provider_name=site.providers[v.provider].name,
                suites=suites,
                case_studies=self.case_studies,
                checklists=self.checklists,
                policy=policy,
                questions=site.questions,
            )
            for v in self.validations
        }
        self.newer = derive.newer_releases(self.validations)
        self.chips = workloads.by_chip(site, self.derived, self.validations)
        chosen = workloads.partners(self.derived, self.validations)
        self.pairs = workloads.pairs(site, chosen)
        # A result's page links the pairs it chose, at most PARTNERS: a result that many others
        # chose is reached from their pages, and its own list stays short.
        self.partners = {
            v_id: [(other, workloads.pair_id(v_id, other.id)) for other in others]
            for v_id, others in chosen.items()
        }
        self.rows = {v.id: self.result_row(v) for v in self.validations}
        # Each result's successors, found once: a scan per page would make the build quadratic.
        self.successors: dict[str, list[Validation]] = {}
        for v in self.validations:
            if v.predecessor is not None:
                self.successors.setdefault(v.predecessor, []).append(v)
        self.views: dict[str, dict[str, Any]] = {}
        self.context.update(
            titles=self.titles,
            platform_labels=self.platform_labels,
            derived=self.derived,
            newer=self.newer,
            rows=self.rows,
        )
        self.charts = charts.site_charts(
            self.validations,
            self.derived,
            self.titles,
            site.programs,
            self.case_studies,
            {p.id: p.name for p in site.providers.values()},
        )

    def references(self) -> str:
        """A hash of the records every result's derived facts may read: programs, suites, case
        studies, checklists, questions, and the sources any page may cite."""
        if self._references is None:
            shared = sorted(
                (key, digest) for key, digest in self.site.digests.items() if key[0] in SHARED_KINDS
            )
            self._references = _hash(shared)
        return self._references

    def facts(self, validation_id: str) -> str:
        """A hash of all a page may show of a result: its record and its analysis, its provider
        and platform, the shared records, and what is derived across results (its title, its
        row, a newer release, its partners, successors and predecessor)."""
        found = self._facts.get(validation_id)
        if found is None:
            v = self.site.validations[validation_id]
            digests = self.site.digests
            found = self._facts[validation_id] = _hash(
                [
                    self.references(),
                    digests.get(("validations", v.id)),
                    digests.get(("providers", v.provider)),
                    digests.get(("platforms", v.platform or "")),
                    self.titles[v.id],
                    self.platform_labels[v.id],
                    sorted(self.rows[v.id].items()),
                    self.newer.get(v.id),
                    [(pair_id, other.id, self.titles[other.id]) for other, pair_id in
                     self.partners[v.id]],
                    [(s.id, self.titles[s.id]) for s in self.successors.get(v.id, [])],
                    [v.predecessor, self.titles.get(v.predecessor or "")],
                ]
            )  # fmt: skip
        return found

    def signature(self, uri: str, template: str, edit_path: str | None, deps: list[str]) -> str:
        """A hash of every input of a page: its template folder, the build's options, and the
        records and results it depends on (`"*"` for every one of them)."""
        versions: list[str | None] = []
        for dep in deps:
            kind, _, record_id = dep.partition(":")
            if dep == "*":
                versions.append(self.everything())
            elif dep == "references":
                versions.append(self.references())
            elif kind == "facts":
                versions.append(self.facts(record_id))
            else:
                versions.append(self.site.digests.get((kind, record_id)))
        return _hash([self.templates, uri, template, edit_path, deps, versions])

    def everything(self) -> str:
        if self._everything is None:
            every = [sorted(self.site.digests.items())]
            self._everything = _hash(every + [self.facts(v.id) for v in self.validations])
        return self._everything

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
        signature = self.signatures[path] = self.signature(
            uri, template, edit_path, depends_on or ["*"]
        )
        last = self.previous.get(path)
        if last is not None and last[0] == signature:
            self.reused += 1
            return last[1]

        def href(target: str) -> str:
            return relative_url(uri, target, self.directory_urls)

        def link(kind: str, record_id: str) -> str:
            return href(record_uri(kind, record_id))

        def download(path: str) -> str:
            return relative_file(uri, path, self.directory_urls)

        text = self.env.get_template(template).render(
            **self.context, href=href, link=link, download=download, here=uri, **view
        )
        return Page(path, text, edit_path)

    def only_file(self, kind: str) -> str | None:
        """The edit target of a page built from a whole kind: its file, when there is just one."""
        files = [path for (file_kind, _), path in self.site.files.items() if file_kind == kind]
        return files[0] if len(files) == 1 else None

    def platform_label(self, validation: Validation) -> str:
        """What a result is for: its platform, the chip family it names without one, or the
        whole cloud."""
        if validation.platform is not None:
            return self.site.platforms[validation.platform].name
        if validation.chip is not None:
            return f"{validation.chip} (no platform stated)"
        return "whole cloud"

    def title(self, validation: Validation) -> str:
        site = self.site
        if validation.platform is not None:
            platform = site.platforms[validation.platform].name
        else:
            platform = validation.chip or "whole cloud"
        program = site.programs[validation.program].name
        release = f" {validation.program_release}" if validation.program_release else ""
        return f"{site.providers[validation.provider].name} {platform}: {program}{release}"

    def sources(self, *records: Record, extra: tuple[str, ...] = ()) -> list[Any]:
        cited = derive.cited_sources(*records, extra=extra)
        return [self.site.sources[source_id] for source_id in cited]

    def validation_view(self, validation: Validation) -> dict[str, Any]:
        """What a result's pages show of it, built once: its page, its printable checklist and
        each side-by-side page it is on read the same view."""
        if validation.id not in self.views:
            self.views[validation.id] = self._validation_view(validation)
        return self.views[validation.id]

    def _validation_view(self, validation: Validation) -> dict[str, Any]:
        site = self.site
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
            "closed": {
                c.id: derived.applicable_items[c.id] - len(derived.open_items[c.id])
                for c in self.checklists
            },
            "coverage_chart": self.charts.get(f"coverage-{validation.id}"),
            "systems": {system.key: system for system in validation.systems},
            "program_case_studies": [
                c for c in site.case_studies.values() if c.program == validation.program
            ],
            "predecessor": site.validations.get(validation.predecessor or ""),
            "partners": self.partners[validation.id],
            "successors": self.successors.get(validation.id, []),
            "sources": self.sources(
                validation,
                *([suite] if suite else []),
                *(c for c, _, _ in derived.reconciliation.candidates),
                extra=derive.caveat_sources(derived),
            ),
        }

    def result_row(self, validation: Validation) -> dict[str, Any]:
        """What a table of results shows of one: each cell decided here, so templates only show."""
        site = self.site
        derived = self.derived[validation.id]
        words = [a.word for a in derived.answers]
        applicable = sum(word != "not-applicable" for word in words)
        yes = words.count("yes")
        program = site.programs[validation.program]
        release = f" {validation.program_release}" if validation.program_release else ""
        chip = self.derived[validation.id].reconciliation.chip
        return {
            "provider": site.providers[validation.provider].name,
            "program": f"{program.name}{release}",
            "chip": chip or "whole cloud",
            "gpus": derive.largest_gpus(validation),
            "yes": yes,
            "applicable": applicable,
        }

    def pair_label(self, validation: Validation) -> str:
        """A column head on a side-by-side page: provider and program, which tell apart two
        results of one provider."""
        row = self.rows[validation.id]
        return f"{row['provider']}, {row['program']}"

    def latest(self) -> dict[str, Any]:
        """The home page's latest results: the dated ones newest first, then the undated ones,
        LATEST in all, and how many results are undated."""
        dated = [v for v in self.validations if v.announced is not None][:LATEST]
        undated = [v for v in self.validations if v.announced is None]
        return {
            "dated": dated,
            "undated": undated[: LATEST - len(dated)],
            "undated_total": len(undated),
        }

    @staticmethod
    def system_name(validation: Validation, measurement: Any) -> str | None:
        """The name of the system a measurement ran on, where it names one."""
        names = {system.key: system.name for system in validation.systems}
        return names.get(measurement.system or "")

    def flagged(self) -> list[tuple[Validation, list[tuple[str, str]]]]:
        """Validations the home page flags, each with its reasons as (kind, words): near or past
        its end, an unknown end, a stale review, a program with a newer release since."""
        found = []
        for v in self.validations:
            d = self.derived[v.id]
            reasons: list[tuple[str, str]] = []
            if d.validity_status in ("expiring", "expired", "unknown"):
                reasons.append((d.validity_status, VALIDITY_WORDS[d.validity_status]))
            if d.review_stale:
                days = self.policy.review_max_age_days
                reasons.append(("stale", f"review older than {days} days"))
            if v.id in self.newer:
                reasons.append(("superseded", f"a newer release is on record: {self.newer[v.id]}"))
            if reasons:
                found.append((v, reasons))
        return found

    def render(self, examples: list[api.Example]) -> dict[str, Page]:
        site = self.site
        validations = self.validations
        programs = list(site.programs.values())
        pages = [
            self.page(
                "index.md",
                "home.md.j2",
                None,
                **self.latest(),
                flagged=self.flagged(),
                timeline=self.charts["timeline"],
            ),
            self.page("validations/index.md", "validations.md.j2", None, validations=validations),
            self.page(
                "providers/index.md",
                "providers.md.j2",
                None,
                providers=list(site.providers.values()),
            ),
            self.page("programs/index.md", "programs.md.j2", None, programs=programs),
            self.page(
                "platforms/index.md",
                "platforms.md.j2",
                None,
                platforms=list(site.platforms.values()),
            ),
            self.page(
                "case-studies.md",
                "case-studies.md.j2",
                self.only_file("case-studies"),
                case_studies=self.case_studies,
                sources=self.sources(*site.case_studies.values()),
                chart=self.charts.get("case-studies"),
            ),
            self.page(
                "compare.md",
                "compare.md.j2",
                None,
                validations=validations,
                questions=self.questions,
                matrix=self.charts["evidence"],
                fired={
                    rule: sum(
                        rule in {c.rule for c in self.derived[v.id].standard_caveats}
                        for v in validations
                    )
                    for rule in derive.RULES
                },
            ),
            self.page(
                "data.md",
                "data.md.j2",
                None,
                kinds=list(KINDS),
                endpoints=api.endpoints(),
                examples=examples,
                charts=sorted(self.charts.values(), key=lambda c: c.id),
                validations=validations,
                checklists=self.checklists,
            ),
            self.page(
                "checklist.md",
                "checklist.md.j2",
                self.only_file("checklists"),
                checklists=self.checklists,
                questions=site.questions,
                validations=validations,
                wordings={
                    (c.id, item.id): derive.item_wording(item, None)
                    for c in self.checklists
                    for item in c.items
                },
                slots=[
                    (name, " ".join((fill.__doc__ or "").split()))
                    for name, fill in derive.SLOTS.items()
                ],
                sources=self.sources(*self.checklists),
            ),
        ]
        pages.append(
            self.page(
                "workloads/index.md",
                "workloads.md.j2",
                None,
                chips=self.chips,
                whole_cloud=[
                    v for v in validations if self.derived[v.id].reconciliation.chip is None
                ],
            )
        )
        for chip in self.chips:
            pages.append(
                self.page(
                    f"workloads/{chip.slug}.md",
                    "workload-chip.md.j2",
                    None,
                    chip=chip,
                    kind_words=workloads.KIND_WORDS,
                )
            )
        for pair in self.pairs:
            pages.append(
                self.page(
                    f"pairs/{pair.id}.md",
                    "pair.md.j2",
                    None,
                    depends_on=[f"facts:{pair.first.id}", f"facts:{pair.second.id}"],
                    pair=pair,
                    views=[self.validation_view(pair.first), self.validation_view(pair.second)],
                    labels=[self.pair_label(pair.first), self.pair_label(pair.second)],
                )
            )
        for validation in validations:
            edit = site.file_of("validations", validation.id)
            view = self.validation_view(validation)
            pages.append(
                self.page(
                    record_uri("validations", validation.id),
                    "validation.md.j2",
                    edit,
                    depends_on=[f"facts:{validation.id}"],
                    **view,
                )
            )
            derived = self.derived[validation.id]
            cited = (*derive.caveat_sources(derived), *(c.source for c in validation.caveats))
            trial_sources = self.sources(*self.checklists, extra=cited)
            pages.append(
                self.page(
                    f"trial-checklists/{validation.id}.md",
                    "trial-checklist.md.j2",
                    edit,
                    depends_on=[f"facts:{validation.id}"],
                    **{**view, "sources": trial_sources},
                )
            )
        for provider in site.providers.values():
            own = [v for v in validations if v.provider == provider.id]
            pages.append(
                self.page(
                    record_uri("providers", provider.id),
                    "provider.md.j2",
                    site.file_of("providers", provider.id),
                    depends_on=[f"providers:{provider.id}", "references"]
                    + [f"facts:{v.id}" for v in own],
                    provider=provider,
                    sources=self.sources(provider),
                    validations=own,
                    without=[
                        p for p, results in derive.program_coverage(own, programs) if not results
                    ],
                    conflicts=derive.conflicts(own),
                    measurements=[
                        (
                            v,
                            m,
                            self.system_name(v, m),
                            derive.measurement_gpus(v, m),
                            workloads.value_words(m.value, m.unit),
                        )
                        for v in own
                        for m in v.measurements
                    ],
                )
            )
        for program in programs:
            suites = sorted(
                (s for s in site.suites.values() if s.program == program.id),
                key=lambda s: (s.chip, s.id),
            )
            own = [v for v in validations if v.program == program.id]
            pages.append(
                self.page(
                    record_uri("programs", program.id),
                    "program.md.j2",
                    site.file_of("programs", program.id),
                    depends_on=["references", *(f"facts:{v.id}" for v in own)],
                    program=program,
                    suites=[(s, derive.suite_counts(s)) for s in suites],
                    validations=own,
                    case_studies=[c for c in site.case_studies.values() if c.program == program.id],
                    sources=self.sources(program, *suites),
                )
            )
        for platform in site.platforms.values():
            own = [v for v in validations if v.platform == platform.id]
            pages.append(
                self.page(
                    record_uri("platforms", platform.id),
                    "platform.md.j2",
                    site.file_of("platforms", platform.id),
                    depends_on=[f"platforms:{platform.id}", "references"]
                    + [f"facts:{v.id}" for v in own],
                    platform=platform,
                    validations=own,
                    sources=self.sources(platform),
                )
            )
        by_uri = {page.uri: page for page in pages}
        if len(by_uri) != len(pages):  # one page would silently replace another
            counts = Counter(page.uri for page in pages)
            twice = sorted(uri for uri, count in counts.items() if count > 1)
            raise ValueError(f"two generated pages share a path: {', '.join(twice)}")
        return by_uri

    def chart_files(self, store: SvgStore) -> dict[str, bytes]:
        """Each chart as a light and a dark SVG, and its data as CSV."""
        drawings = {}
        files = {}
        for chart in self.charts.values():
            drawings[f"charts/{chart.id}.svg"] = charts.drawing(chart, "light")
            drawings[f"charts/{chart.id}.dark.svg"] = charts.drawing(chart, "dark")
            table = chart.table
            files[f"charts/{chart.id}.csv"] = csv_text(table.columns, list(table.rows)).encode()
        return files | store.render(drawings)


def render(
    site: Site,
    templates_dir: Path,
    *,
    policy: derive.Policy,
    directory_urls: bool = True,
    svg_store: SvgStore | None = None,
    site_url: str | None = None,
    previous: dict[str, tuple[str, Page]] | None = None,
) -> Output:
    """Every generated page and data file of the site, by its path in the output. `site_url`,
    the published address, makes the feeds' and the calendar's links absolute. `previous`, the
    last render's `signed` pages, lets each page whose inputs are unchanged be reused."""
    renderer = Renderer(
        site, templates_dir, directory_urls=directory_urls, policy=policy, previous=previous
    )
    data = build_data(
        site,
        renderer.derived,
        renderer.titles,
        policy=policy,
        directory_urls=directory_urls,
        site_url=site_url,
    )
    store = svg_store or SvgStore(None)
    data |= renderer.chart_files(store)
    store.prune()  # this is the whole site: what it did not use, no build needs
    pages = renderer.render(api.examples(data))
    signed = {uri: (renderer.signatures[uri], page) for uri, page in pages.items()}
    return Output(pages, {safe_path(uri): content for uri, content in data.items()}, signed)
