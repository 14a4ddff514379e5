"""The site's own claims stay exact: every checklist item keeps its meaning and its numbers on every
validation page, printable page and download, and no grade or citation says more than its source.

The items are the analysis's closing list. Each is checked against the analysis's own words (quoted
below) and against the facts of the validation it is worded for.
"""

from __future__ import annotations

import csv
import difflib
import html
import io
import re
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import pytest

from generator.derive import validation as derive
from generator.derive import wording
from generator.derive.caveats import rules as caveat_rules
from generator.model.policy import Policy
from generator.model.site import Site
from generator.model.validation import Validation

# The analysis's six checks, word for word, as it wrote them for Crusoe's HGX B300 validation.
ANALYSIS = {
    "request-matrix": "Request the tested model-and-precision matrix, and identify whether the "
    "planned model and numerical format correspond to one of the 13 validated configurations.",
    "confirm-deployment": "Confirm the proposed deployment's region, GPU count and execution "
    "environment, rather than assuming every HGX B300 allocation reproduces the Iceland "
    "validation.",
    "trial-own-workload": "Use the offered trial to measure the intended workload in its actual "
    "container and software configuration; NVIDIA's case studies show that successful host-level "
    "tests can miss application-level performance gaps.",
    "price-performance": "Compare measured training performance with the quoted price, because "
    "the announcement provides neither per-model throughput nor pricing sufficient to establish "
    "value.",
    "reliability": "Establish reliability and recovery expectations separately, since the "
    "published validation does not supply failure-rate, checkpoint-recovery or long-running "
    "availability measurements.",
    "energy": "Keep renewable-electricity requirements separate from energy-efficiency claims, "
    "and request the evidence appropriate to the environmental objective being evaluated.",
}

# What each item must say on every validation it appears for: its point, and its reason.
MEANING = {
    "request-matrix": [
        "Request the tested model-and-precision matrix",
        "whether the planned model and numerical format correspond to one of the",
        "validated configurations",
    ],
    "confirm-deployment": [
        "Confirm the proposed deployment's region, ",
        " count and execution environment",
        "rather than assuming every",
        "allocation reproduces the",
    ],
    "trial-own-workload": [
        "to measure the intended workload in its actual container and software configuration",
        "NVIDIA's case studies show that successful host-level tests can miss application-level "
        "performance gaps",
    ],
    "price-performance": [
        "Compare measured training performance with the quoted price, because",
        "sufficient to establish value",
    ],
    "reliability": [
        "Establish reliability and recovery expectations separately, since",
        "failure-rate, checkpoint-recovery or long-running availability measurements",
    ],
    "energy": [
        "Keep renewable-electricity requirements separate from energy-efficiency claims",
        "request the evidence appropriate to the environmental objective being evaluated",
    ],
}

# Words the site puts where the analysis named Crusoe's own source, and the platform in full.
SITE_WORDS = {
    "the announcement provides": "the sources we hold provide",
    "the published validation does not supply": "the sources we hold provide no",
    "every HGX B300 allocation": "every NVIDIA HGX B300 allocation",
}


@pytest.fixture(scope="module")
def real(real_site: Site) -> Site:
    return real_site


def collapse(text: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(text)).strip()


class _Items(HTMLParser):
    """The text of every `<li id="item-...">` on a page, by item id."""

    def __init__(self) -> None:
        super().__init__()
        self.items: dict[str, str] = {}
        self.current: str | None = None
        self.depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs).get("id") or ""
        if tag == "li" and self.current is None and found.startswith("item-"):
            self.current, self.depth = found.removeprefix("item-"), 0
            self.items[self.current] = ""
        elif tag == "li" and self.current is not None:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "li" and self.current is not None:
            if self.depth == 0:
                self.current = None
            else:
                self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.current is not None:
            self.items[self.current] += data


def page_items(built: Path, uri: str) -> dict[str, str]:
    source = (built / uri / "index.html").read_text(encoding="utf-8")
    article = source[source.index("<article") : source.index("</article>")]
    parser = _Items()
    parser.feed(article)
    return {item: collapse(text) for item, text in parser.items.items()}


def csv_items(built: Path, validation_id: str) -> dict[str, str]:
    text = (built / "downloads" / validation_id / "trial-checklist.csv").read_text()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["validation", "item", "check", "open_because", "as_of"]
    assert {row[0] for row in rows[1:]} <= {validation_id}
    # Every row carries the one date the build judged the items open on.
    assert len({date.fromisoformat(row[4]) for row in rows[1:]}) <= 1
    return {row[1]: row[2] for row in rows[1:]}


def markdown_items(built: Path, validation_id: str) -> list[str]:
    text = (built / "downloads" / validation_id / "trial-checklist.md").read_text()
    return [line.removeprefix("- [ ] ") for line in text.splitlines() if line.startswith("- [ ] ")]


def expected_items(validation: Validation) -> list[str]:
    """The items the analysis's reasoning leaves open for a validation, read from its raw facts:
    every item whose check no published figure settles, plus each whose figures are not all
    published; the matrix only for an Exemplar result (no other program's results are a
    model-and-precision suite), the training price-performance only for training results, and
    the energy item only where the record states an energy source."""
    answers = {q: a.answer for q, a in validation.evidence.items()}
    items = []
    exemplar = validation.program == "nvidia-exemplar-cloud"
    if exemplar and answers.get("matrix-published") != "yes":
        items.append("request-matrix")
    items += ["confirm-deployment", "trial-own-workload"]
    priced = {answers.get("per-model-throughput"), answers.get("pricing-published")} == {"yes"}
    if (exemplar or validation.program == "mlperf-training") and not priced:
        items.append("price-performance")
    if answers.get("reliability-published") != "yes":
        items.append("reliability")
    if validation.deployment.energy_source is not None:
        items.append("energy")
    return items


def facts_of(real: Site, validation: Validation, item: str) -> list[str]:
    """The validation's own facts that its wording of `item` must carry."""
    facts: list[str] = []
    if item == "request-matrix" and validation.scope.configurations is not None:
        facts.append(f"one of the {validation.scope.configurations} validated configurations")
    if item == "confirm-deployment":
        # The analysis says "GPU count"; a TPU result's item counts TPU chips.
        platform = real.platforms.get(validation.platform or "")
        noun = platform.accelerator_noun if platform else validation.accelerator_noun
        facts.append(f"region, {noun or 'accelerator'} count and")
        if validation.platform is not None:
            facts.append(f"every {real.platforms[validation.platform].name} allocation")
        if validation.deployment.location is not None:
            facts.append(f"reproduces the {validation.deployment.location} validation")
    if item == "trial-own-workload":
        offered = validation.offer is not None and validation.offer.trial_before_commitment
        facts.append("Use the offered trial" if offered else "Use a trial")
    if item == "price-performance":
        answers = {q: validation.evidence[q].answer for q in ("per-model-throughput",)}
        if answers["per-model-throughput"] == "partial":
            facts.append("only part of the per-model throughput")
    return facts


def test_every_checklist_item_keeps_its_meaning_everywhere(built: Path, real: Site) -> None:
    for validation in real.validations.values():
        expected = expected_items(validation)
        downloaded = csv_items(built, validation.id)
        assert list(downloaded) == expected, validation.id
        markdown = markdown_items(built, validation.id)
        assert len(markdown) == len(expected), validation.id
        for uri in (f"validations/{validation.id}", f"trial-checklists/{validation.id}"):
            shown = page_items(built, uri)
            assert list(shown) == expected, uri
            for item, text in downloaded.items():
                assert shown[item].lstrip("☐ ").startswith(text), (uri, item)
        for line, (item, text) in zip(markdown, downloaded.items(), strict=True):
            assert line.startswith(f"{text} ("), (validation.id, item)
            for phrase in [*MEANING[item], *facts_of(real, validation, item)]:
                assert phrase in text, (validation.id, item, phrase)


def test_the_crusoe_b300_checklist_holds_all_six_items_in_the_analysis_words(
    built: Path, real: Site
) -> None:
    downloaded = csv_items(built, "crusoe-hgx-b300-exemplar")
    assert list(downloaded) == list(ANALYSIS)
    assert "13" in downloaded["request-matrix"]
    assert "Iceland" in downloaded["confirm-deployment"]
    assert "offered trial" in downloaded["trial-own-workload"]
    for item, words in ANALYSIS.items():
        for analysis_words, site_words in SITE_WORDS.items():
            words = words.replace(analysis_words, site_words)
        assert downloaded[item] == words, item


def test_no_item_says_more_than_a_validations_answers(built: Path, real: Site) -> None:
    """Where per-model throughput is partly published, no item says it is not published."""
    for validation in real.validations.values():
        downloaded = csv_items(built, validation.id)
        throughput = validation.evidence["per-model-throughput"].answer
        text = downloaded.get("price-performance", "")
        if throughput == "partial":
            assert "neither per-model throughput" not in text, validation.id
            assert "no per-model throughput" not in text, validation.id


def test_item_wording_stays_close_to_the_analysis(real: Site) -> None:
    """The generic wording, its slots filled with Crusoe's facts, reads as the analysis wrote it."""
    crusoe = real.validations["crusoe-hgx-b300-exemplar"]
    platform = real.platforms["hgx-b300"]
    for item in real.checklists["trial-checklist"].items:
        facts = wording.Wording(crusoe, platform, real.questions, tuple(item.closed_by))
        filled = wording.item_wording(item, facts)
        ratio = difflib.SequenceMatcher(None, filled, ANALYSIS[item.id]).ratio()
        assert ratio > 0.85, (item.id, filled)


def test_no_checklist_item_is_closed_by_what_was_tested(real: Site) -> None:
    for checklist in real.checklists.values():
        for item in checklist.items:
            for question in item.closed_by:
                assert real.questions[question].about == "published-figure", (item.id, question)
    for validation in real.validations.values():
        assert "confirm-deployment" in expected_items(validation)


def test_derived_reasoning_is_cited_to_the_analysis(real: Site) -> None:
    """Reasoning the analysis does ("not every region", "not an SLA") is never cited to the
    provider or the program owner: every derived caveat with a reasoning question cites it."""
    for validation in real.validations.values():
        derived = derive.derive_validation(
            validation,
            program=real.programs[validation.program],
            platform=real.platforms.get(validation.platform or ""),
            provider_name=real.providers[validation.provider].name,
            suites=list(real.suites.values()),
            program_case_studies=[
                c for c in real.case_studies.values() if c.program == validation.program
            ],
            checklists=list(real.checklists.values()),
            policy=Policy(as_of=validation.last_reviewed),
            questions=real.questions,
        )
        for caveat in derived.standard_caveats:
            if caveat_rules.RULES[caveat.rule].reasoning is not None:
                assert caveat.reasoning_source == "crusoe-b300-analysis", caveat
                assert caveat.reasoning_grade == "secondary", caveat


def test_not_published_is_kept_for_figures_a_source_says_exist(real: Site) -> None:
    """The grade not-published appears only where its reason says why the figure exists."""
    for validation in real.validations.values():
        for claim in validation.claims:
            if claim.grade == "not-published":
                assert claim.reason is not None
                assert re.search(r"\b(exist|submitted|used|offers|quoted)", claim.reason), claim


def test_the_program_page_quotes_each_statement_of_the_bar(built: Path) -> None:
    source = (built / "programs" / "nvidia-exemplar-cloud" / "index.html").read_text()
    text = collapse(re.sub(r"<[^>]+>", " ", source))
    for quote, cited in [
        (
            "> 95% baseline performance for all workloads in a given test suite",
            "NVIDIA/exemplar-performance",
        ),
        ("Achieve performance within 5% of an NVIDIA-provided target", "Requirement BM01"),
        ("95% of reference-architecture throughput", "as the analysis reports it"),
    ]:
        assert quote in text
        # Cited beside it: a source by its note's title (the number's hover and accessible
        # name), a reference or a reading in words.
        raw = collapse(html.unescape(source))
        assert cited in raw[raw.index(quote) : raw.index(quote) + 1200], quote
    assert "within 5% of an NVIDIA-provided target" in text
    assert "of reference program-owner" not in text
    assert "no source we hold says that the baseline, the target and the" in text


def test_case_study_csv_leaves_an_unknown_lower_bound_empty(built: Path) -> None:
    rows = list(csv.DictReader(io.StringIO((built / "charts" / "case-studies.csv").read_text())))
    dense = next(row for row in rows if row["finding"] == "Dense Llama 3 70B recipes")
    assert (dense["gap_low_percent"], dense["gap"]) == ("", "within 3%")
