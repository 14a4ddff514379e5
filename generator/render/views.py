"""One typed view per page template: what each template is given, field by field.

A view holds what derive made (derive/site_facts.py, derive/page_views.py), the changelog's
days, and for the data page the API's endpoints and examples; besides those, only the model's
fixed word lists. The renderer builds it, resolves its template (`TEMPLATE`) and renders.
Each field says what it holds; tests/render/test_typed_views.py holds every field to a
description, every field to a template that reads it, and every name a template reads to its
view or to what every page is given (the renderer's `context` and `PAGE_NAMES`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from generator.changes.changelog import Day
    from generator.derive.answers import Answered
    from generator.derive.case_study_gaps import Gap
    from generator.derive.chart_tables import Chart
    from generator.derive.concerns import ConcernCoverage
    from generator.derive.figures import ChipFigures
    from generator.derive.glossary import Section
    from generator.derive.page_words import OfferWords, Words
    from generator.derive.provider_results import Conflict
    from generator.derive.rounds import RoundRead
    from generator.derive.scorecard import Scorecard
    from generator.derive.suites import SuiteChange, SuiteCounts
    from generator.derive.validation import Derived, OpenItem
    from generator.derive.workloads import ChipView, Pair
    from generator.model.case_studies import CaseStudy
    from generator.model.checklists import Checklist, ChecklistItem, Question
    from generator.model.concerns import Concern, ConcernAnswer
    from generator.model.measurements import System
    from generator.model.programs import Program, Suite
    from generator.model.providers import Platform, Provider
    from generator.model.sources import Source
    from generator.model.validation import Validation
    from generator.publish.api import Example
    from generator.publish.documents import Endpoint


def shows(what: str) -> Any:
    """A view's field, with what it holds, as the test of views reads it."""
    return field(metadata={"shows": what})


# What a page's `sources` field holds, on every page that cites.
CITED = "the sources the page cites, numbered in this order"


@dataclass(frozen=True)
class View:
    """What one page's template is given; `TEMPLATE` is the template's file."""

    TEMPLATE: ClassVar[str]

    def given(self) -> dict[str, Any]:
        """The fields by name, as the template reads them (not copied: a view only shows)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class HomeView(View):
    TEMPLATE = "home.md.j2"
    dated: list[Validation] = shows("the latest dated results, newest first")
    undated: list[Validation] = shows("the latest results with no date, after the dated")
    undated_words: str | None = shows("what is said of the undated results, if any")
    newest: Validation | None = shows("the newest dated result")
    freshness: str = shows("how old the newest evidence is on the build's date, in a sentence")
    flagged: list[tuple[Validation, list[tuple[str, str, str | None]]]] = shows(
        "the results flagged, each with (kind, words, the id of a result a reason names)"
    )
    timeline: Chart = shows("the chart of results by date")
    scorecard: Scorecard = shows("each cloud's strongest result under each program")


@dataclass(frozen=True)
class ValidationsView(View):
    TEMPLATE = "validations.md.j2"
    validations: list[Validation] = shows("every result, newest first")


@dataclass(frozen=True)
class ProvidersView(View):
    TEMPLATE = "providers.md.j2"
    clouds: list[Provider] = shows("the clouds, by name")
    submitters: list[Provider] = shows("the submitters whose every result names no cloud")
    scorecard: Scorecard = shows("each cloud's strongest result under each program")


@dataclass(frozen=True)
class ProgramsView(View):
    TEMPLATE = "programs.md.j2"
    programs: list[Program] = shows("every program, in the order the site holds them")


@dataclass(frozen=True)
class PlatformsView(View):
    TEMPLATE = "platforms.md.j2"
    by_chip: list[tuple[str, str | None, list[Platform]]] = shows(
        "each chip family with its workloads page's name (if measured) and its platforms"
    )


@dataclass(frozen=True)
class CaseStudiesView(View):
    TEMPLATE = "case-studies.md.j2"
    case_studies: list[CaseStudy] = shows("every case study")
    gaps: dict[str, list[Gap]] = shows("by case study id, a gap per finding")
    sources: list[Source] = shows(CITED)
    chart: Chart | None = shows("the chart of the case studies' findings, if any")


@dataclass(frozen=True)
class GlossaryView(View):
    TEMPLATE = "glossary.md.j2"
    sections: list[Section] = shows("the glossary's sections, each term with its meaning")


@dataclass(frozen=True)
class CompareView(View):
    TEMPLATE = "compare.md.j2"
    validations: list[Validation] = shows("every result, newest first: the table's rows")
    questions: list[Question] = shows("the evidence questions, in order: the table's columns")
    matrix: Chart = shows("the chart of every result's answers")
    fired: dict[str, int] = shows("by caveat rule, how many results it fires on")
    result_count: int = shows("how many results the table holds")
    shown_words: list[str] = shows("the answer words, in the order pages list them")
    shown_answers: list[tuple[Question, list[tuple[str, int]]]] = shows(
        "each question with how many results give each answer word"
    )


@dataclass(frozen=True)
class ConcernsView(View):
    TEMPLATE = "concerns.md.j2"
    concerns: list[Concern] = shows("the buyer's concerns, in order: the table's rows")
    programs: list[Program] = shows("the programs: the table's columns")
    cover_meanings: Mapping[str, str] = shows("what each word of coverage means")
    sources: list[Source] = shows(CITED)


@dataclass(frozen=True)
class DataView(View):
    TEMPLATE = "data.md.j2"
    kinds: list[str] = shows("the kinds of record, as the API names them")
    endpoints: list[Endpoint] = shows("every endpoint the API serves")
    fetchable: dict[str, bool] = shows("by endpoint path, whether it is one file to link")
    measurement_columns: tuple[str, ...] = shows("the columns of the measurements download")
    examples: list[Example] = shows("requests a script makes, with the start of each answer")
    charts: list[Chart] = shows("every chart, by id: its data is a download")
    validations: list[Validation] = shows("every result, newest first")
    checklists: list[Checklist] = shows("the trial checklists")


@dataclass(frozen=True)
class ChangelogView(View):
    TEMPLATE = "changelog.md.j2"
    days: list[Day] = shows("what the content's commits changed, a day at a time, newest first")
    why: str | None = shows("why the page lists what it lists, or that there is no history")


@dataclass(frozen=True)
class ChecklistView(View):
    TEMPLATE = "checklist.md.j2"
    checklists: list[Checklist] = shows("the trial checklists")
    by_program: list[
        tuple[Program, list[tuple[Checklist, list[ChecklistItem]]], list[Validation]]
    ] = shows("each program, its checklists' items that apply to its results, and its results")
    wordings: dict[tuple[str, str], str] = shows(
        "by (checklist, item), its words for no one result"
    )
    why_open: dict[tuple[str, str], str] = shows("by (checklist, item), why it may stay open")
    sources: list[Source] = shows(CITED)


@dataclass(frozen=True)
class WorkloadsView(View):
    TEMPLATE = "workloads.md.j2"
    chips: list[ChipView] = shows("each chip family's workloads")
    whole_cloud: list[Validation] = shows("the results that name no chip, so no workload")


@dataclass(frozen=True)
class WorkloadChipView(View):
    TEMPLATE = "workload-chip.md.j2"
    chip: ChipView = shows("one chip family: who has results on it, and its workloads")
    kind_words: Mapping[str, str] = shows("what each kind of workload is called")
    has_figures: bool = shows("whether the chip has a figures page")


@dataclass(frozen=True)
class FiguresView(View):
    TEMPLATE = "figures.md.j2"
    chips: list[ChipFigures] = shows("each chip family's figures, every cloud side by side")


@dataclass(frozen=True)
class FiguresChipView(View):
    TEMPLATE = "figures-chip.md.j2"
    chip: ChipFigures = shows("one chip family's figures, every cloud side by side")


@dataclass(frozen=True)
class PairsView(View):
    TEMPLATE = "pairs.md.j2"
    by_chip: list[tuple[str, list[Pair]]] = shows("the pairs, by their first result's chip")
    names: dict[str, tuple[str, str]] = shows("by pair id, the words that tell its two apart")
    shared_words: dict[str, str] = shows("by pair id, how many workloads the two share")
    partners: int = shows("how many partners a result is paired with at most")


@dataclass(frozen=True)
class ResultView(View):
    """What a result's page and its printable checklist both show of the result."""

    validation: Validation = shows("the result")
    title: str = shows("its title")
    d: Derived = shows("what derive made of it: coverage, validity, caveats, figures")
    checklists: list[tuple[Checklist, list[OpenItem]]] = shows(
        "each trial checklist with its items this result leaves open"
    )
    applicable: dict[str, int] = shows("by checklist, how many of its items apply")

    def of_result(self) -> dict[str, Any]:
        """The fields every view of the result shows, by name, for another of its views."""
        return {f.name: getattr(self, f.name) for f in fields(ResultView)}


@dataclass(frozen=True)
class ValidationView(ResultView):
    TEMPLATE = "validation.md.j2"
    provider: Provider = shows("its provider")
    platform: Platform | None = shows("its platform, if it names one")
    program: Program = shows("its program")
    suite: Suite | None = shows("the suite its coverage is reconciled with, if one")
    validity: Words = shows("its validity, in words")
    offer: OfferWords | None = shows("what the provider offers on it, in words, if stated")
    other_suites: str = shows("the word that heads the program's other suites: Recorded or Other")
    coverage_chart: Chart | None = shows("its coverage chart, if it has one")
    systems: dict[str, System] = shows("its systems, by key")
    program_case_studies: list[CaseStudy] = shows("the case studies of its program")
    case_study_count: int = shows("how many case studies its program has")
    predecessor: Validation | None = shows("the result it repeats, if one")
    partners: list[tuple[Validation, str]] = shows("the results it is side by side with")
    successors: list[Validation] = shows("the results that repeat it")
    sources: list[Source] = shows(CITED)


@dataclass(frozen=True)
class TrialChecklistView(ResultView):
    TEMPLATE = "trial-checklist.md.j2"
    closed: dict[str, int] = shows("by checklist, how many that apply its evidence closes")
    sources: list[Source] = shows("the checklists' sources and the result's, numbered in order")
    about_list_only: dict[str, bool] = shows(
        "by checklist, whether its source is about the list and not the result"
    )


@dataclass(frozen=True)
class PairView(View):
    TEMPLATE = "pair.md.j2"
    pair: Pair = shows("the two results and the workloads they share")
    views: list[ValidationView] = shows("each result's own view, as its page has it")
    answer_pairs: list[tuple[Answered, Answered]] = shows(
        "each evidence answer of the two, side by side"
    )
    labels: list[str] = shows("each result's column head: provider and program")


@dataclass(frozen=True)
class ProviderView(View):
    TEMPLATE = "provider.md.j2"
    provider: Provider = shows("the provider")
    is_cloud: bool = shows("whether it is a cloud, not only a submitter")
    sources: list[Source] = shows(CITED)
    validations: list[Validation] = shows("its results, newest first")
    results: str = shows("how many results it has, in words")
    without: list[Program] = shows("the programs it has no result under")
    conflicts: list[Conflict] = shows("where its results disagree with each other")
    measurements: list[tuple[Any, ...]] = shows("every figure of its results, with its result")
    concerns: list[ConcernCoverage] = shows("each buyer's concern against its results")
    concern_count: int = shows("how many concerns there are")
    covered: int = shows("how many concerns one of its results covers")


@dataclass(frozen=True)
class ProgramView(View):
    TEMPLATE = "program.md.j2"
    program: Program = shows("the program")
    suites: list[tuple[Suite, SuiteCounts]] = shows("its suites, each with its counts")
    changes: list[SuiteChange] = shows("what changed from one release of a suite to the next")
    validations: list[Validation] = shows("its results, newest first")
    held: list[str] = shows("the releases its results are under")
    rounds: list[RoundRead] = shows("the rounds imported, each with what was read")
    typed: list[str] = shows("the rounds whose records are typed by hand")
    typed_words: str = shows("what is said of a round typed by hand")
    left_out: list[tuple[str, str, str]] = shows("each result an import left out, with why")
    case_studies: list[CaseStudy] = shows("its case studies")
    answers: list[tuple[Concern, ConcernAnswer]] = shows(
        "each buyer's concern with what it checks of it"
    )
    criteria_count: int = shows("how many criteria its catalogue holds")
    sources: list[Source] = shows(CITED)


@dataclass(frozen=True)
class PlatformView(View):
    TEMPLATE = "platform.md.j2"
    platform: Platform = shows("the platform")
    siblings: list[Platform] = shows("the other platforms of its chip family")
    chip_slug: str | None = shows("its chip family's workloads page name, if measured")
    validations: list[Validation] = shows("its results, newest first")
    sources: list[Source] = shows(CITED)


def _pages(view: type[View]) -> list[type[View]]:
    """`view` and the views below it that name a template: a view of a page, not a base."""
    below = [found for sub in view.__subclasses__() for found in _pages(sub)]
    return ([view] if "TEMPLATE" in vars(view) else []) + below


# Every page's view, for the test that holds each to its template.
VIEWS: tuple[type[View], ...] = tuple(_pages(View))
