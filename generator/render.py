"""Rendering the checked `Site` into Markdown pages, through the Jinja templates in `templates/`.

Each page is a Markdown file: headings in Markdown, so the table of contents sees them, and bodies
in HTML blocks, which Markdown leaves alone. Content text is always data passed to a template,
never part of one: `{{ }}` in a YAML record prints as written. Views are built here, so templates
only show.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from . import derive, markup
from .model import ANSWERS, GRADES, Record, Validation
from .site import Site

# The section folder of each record kind that has its own pages.
SECTIONS = {
    "validations": "validations",
    "providers": "providers",
    "programs": "programs",
    "platforms": "platforms",
}
GRADE_MEANINGS = {
    "independent": "Measured or confirmed by a party other than the provider and program owner.",
    "program-owner": "Stated by the program owner, e.g. NVIDIA's own documents.",
    "provider-reported": "Stated by the provider about itself.",
    "secondary": "Reached through someone else's summary.",
    "not-published": "The figure exists, but nobody has published it.",
    "not-established": "Does not follow from the published evidence; the reason is given.",
}
ANSWER_MEANINGS = {
    "yes": "The sources publish it.",
    "partial": "The sources publish part of it.",
    "no": "The sources show it is not so, or cannot be.",
    "not-published": "It exists, but the sources do not publish it.",
    "not-stated": "The sources we hold are silent.",
}
assert set(GRADE_MEANINGS) == set(GRADES) and set(ANSWER_MEANINGS) == set(ANSWERS)


@dataclass(frozen=True)
class Page:
    """One generated page: where it goes, its Markdown, and the content file it comes from."""

    uri: str
    markdown: str
    edit_path: str | None


def record_uri(kind: str, record_id: str) -> str:
    return f"{SECTIONS[kind]}/{record_id}.md"


def page_url(uri: str, directory_urls: bool) -> str:
    """The URL path a Markdown page is served at, as MkDocs lays it out."""
    stem = uri.removesuffix(".md")
    if not directory_urls:
        return stem + ".html"
    if stem == "index" or stem.endswith("/index"):
        return stem.removesuffix("index")
    return stem + "/"


def relative_url(here: str, target: str, directory_urls: bool) -> str:
    """A link from page `here` to page `target`, relative so the site works under any base path."""
    here_url, target_url = page_url(here, directory_urls), page_url(target, directory_urls)
    base = here_url if here_url.endswith("/") or not here_url else posixpath.dirname(here_url)
    relative = posixpath.relpath(target_url or ".", base.rstrip("/") or ".")
    if target_url.endswith("/") or not target_url:
        relative = "./" if relative == "." else relative + "/"
    return relative


def _safe_uri(uri: str) -> str:
    """Refuse any page path that could land outside the output folder."""
    normal = posixpath.normpath(uri)
    if normal != uri or uri.startswith(("/", "../")) or "\\" in uri or not uri.endswith(".md"):
        raise ValueError(f"unsafe page path {uri!r}")
    return uri


class Renderer:
    def __init__(self, site: Site, templates_dir: Path, *, directory_urls: bool = True) -> None:
        self.site = site
        self.directory_urls = directory_urls
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(templates_dir),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
            keep_trailing_newline=True,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.filters.update(md=markup.block, md_inline=markup.inline, heading=markup.heading)
        self.env.globals.update(
            grade_meanings=GRADE_MEANINGS, answer_meanings=ANSWER_MEANINGS, site=site
        )
        self.questions = sorted(site.questions.values(), key=lambda q: (q.order, q.id))

    def page(self, uri: str, template: str, edit_path: str | None, **view: Any) -> Page:
        def href(target: str) -> str:
            return relative_url(uri, target, self.directory_urls)

        def link(kind: str, record_id: str) -> str:
            return href(record_uri(kind, record_id))

        text = self.env.get_template(template).render(href=href, link=link, here=uri, **view)
        return Page(_safe_uri(uri), text, edit_path)

    def only_file(self, kind: str) -> str | None:
        """The edit target of a page built from a whole kind: its file, when there is just one."""
        files = [path for (file_kind, _), path in self.site.files.items() if file_kind == kind]
        return files[0] if len(files) == 1 else None

    def title(self, validation: Validation) -> str:
        site = self.site
        platform = (
            site.platforms[validation.platform].name if validation.platform else "whole cloud"
        )
        program = site.programs[validation.program].name
        release = f" {validation.program_release}" if validation.program_release else ""
        return f"{site.providers[validation.provider].name} {platform}: {program}{release}"

    def sources(self, *records: Record) -> list[Any]:
        return [self.site.sources[source_id] for source_id in derive.cited_sources(*records)]

    def validation_view(self, validation: Validation) -> dict[str, Any]:
        site = self.site
        suite = site.suites.get(validation.suite or "")
        program = site.programs[validation.program]
        return {
            "validation": validation,
            "title": self.title(validation),
            "provider": site.providers[validation.provider],
            "platform": site.platforms.get(validation.platform or ""),
            "program": program,
            "suite": suite,
            "coverage": derive.coverage(validation, suite),
            "other_suites": [
                (other, derive.suite_counts(other))
                for other in sorted(site.suites.values(), key=lambda s: s.id)
                if suite is not None
                and other.id != suite.id
                and (other.program, other.chip) == (suite.program, suite.chip)
            ],
            "validity_end": derive.validity_end(validation, program),
            "established": derive.established_claims(validation),
            "unestablished": derive.unestablished_claims(validation),
            "answers": [(q, validation.evidence.get(q.id)) for q in self.questions],
            "checklists": [
                (checklist, derive.open_items(validation, checklist))
                for checklist in sorted(site.checklists.values(), key=lambda c: c.id)
            ],
            "program_case_studies": [
                c for c in site.case_studies.values() if c.program == validation.program
            ],
            "predecessor": site.validations.get(validation.predecessor or ""),
            "successors": [v for v in site.validations.values() if v.predecessor == validation.id],
            "sources": self.sources(validation),
            "titles": {v.id: self.title(v) for v in site.validations.values()},
        }

    def render(self) -> dict[str, Page]:
        site = self.site
        validations = derive.newest_first(list(site.validations.values()))
        titles = {v.id: self.title(v) for v in validations}
        pages = [
            self.page("index.md", "home.md.j2", None, validations=validations, titles=titles),
            self.page(
                "validations/index.md",
                "validations.md.j2",
                None,
                validations=validations,
                titles=titles,
            ),
            self.page(
                "providers/index.md",
                "providers.md.j2",
                None,
                providers=sorted(site.providers.values(), key=lambda p: p.id),
            ),
            self.page(
                "programs/index.md",
                "programs.md.j2",
                None,
                programs=sorted(site.programs.values(), key=lambda p: p.id),
            ),
            self.page(
                "platforms/index.md",
                "platforms.md.j2",
                None,
                platforms=sorted(site.platforms.values(), key=lambda p: p.id),
            ),
            self.page(
                "case-studies.md",
                "case-studies.md.j2",
                self.only_file("case-studies"),
                case_studies=sorted(site.case_studies.values(), key=lambda c: c.id),
                sources=self.sources(*site.case_studies.values()),
            ),
            self.page(
                "compare.md",
                "compare.md.j2",
                None,
                validations=validations,
                titles=titles,
                questions=self.questions,
            ),
            self.page(
                "checklist.md",
                "checklist.md.j2",
                self.only_file("checklists"),
                checklists=sorted(site.checklists.values(), key=lambda c: c.id),
                questions=site.questions,
                sources=self.sources(*site.checklists.values()),
            ),
        ]
        for validation in validations:
            pages.append(
                self.page(
                    record_uri("validations", validation.id),
                    "validation.md.j2",
                    site.file_of("validations", validation.id),
                    **self.validation_view(validation),
                )
            )
        for provider in site.providers.values():
            own = [v for v in validations if v.provider == provider.id]
            pages.append(
                self.page(
                    record_uri("providers", provider.id),
                    "provider.md.j2",
                    site.file_of("providers", provider.id),
                    provider=provider,
                    validations=own,
                    titles=titles,
                    gaps={v.id: derive.gaps(v, self.questions) for v in own},
                    questions=self.questions,
                )
            )
        for program in site.programs.values():
            suites = sorted(
                (s for s in site.suites.values() if s.program == program.id),
                key=lambda s: (s.chip, s.id),
            )
            pages.append(
                self.page(
                    record_uri("programs", program.id),
                    "program.md.j2",
                    site.file_of("programs", program.id),
                    program=program,
                    suites=[(s, derive.suite_counts(s)) for s in suites],
                    validations=[v for v in validations if v.program == program.id],
                    titles=titles,
                    case_studies=[c for c in site.case_studies.values() if c.program == program.id],
                    sources=self.sources(program, *suites),
                )
            )
        for platform in site.platforms.values():
            pages.append(
                self.page(
                    record_uri("platforms", platform.id),
                    "platform.md.j2",
                    site.file_of("platforms", platform.id),
                    platform=platform,
                    validations=[v for v in validations if v.platform == platform.id],
                    titles=titles,
                    sources=self.sources(platform),
                )
            )
        return {page.uri: page for page in pages}


def render(site: Site, templates_dir: Path, *, directory_urls: bool = True) -> dict[str, Page]:
    """Every generated page of the site, by its path under the docs folder."""
    return Renderer(site, templates_dir, directory_urls=directory_urls).render()
