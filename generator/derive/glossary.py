"""The glossary: every word the pages use in a sense of their own, with what it means here.

Grades and answers come from the one vocabulary the records, the pages and the JSON Schema share
(`GRADE_MEANINGS`, `SHOWN_MEANINGS`); the other terms are the site's own, defined once here.
Pages link a grade or an answer to its entry at its first use on the page (the renderer's `term`).
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.derive.page_words import VALIDITY_WORDS
from generator.derive.workloads import KIND_WORDS
from generator.model.grades import GRADE_MEANINGS, SHOWN_MEANINGS
from generator.model.policy import Policy
from generator.model.site import Site


@dataclass(frozen=True)
class Term:
    anchor: str  # the entry's id on the glossary page: "grade-program-owner"
    term: str
    meaning: str
    source: str | None = None  # the id of the program document the meaning is read from


@dataclass(frozen=True)
class Section:
    title: str
    lead: str
    terms: tuple[Term, ...]


# What each validity word means, for the policy the build judges by.
def validity_meanings(policy: Policy) -> dict[str, str]:
    return {
        "valid": "Inside the validity period its program states.",
        "expiring": f"Within {policy.expiry_warning_days} days of the end of its program's "
        "validity period.",
        "expired": "Past the end of its program's validity period.",
        "unknown": "Its program states a validity period, but the result's date is not stated, "
        "so its end cannot be worked out.",
        "no-expiry": "Its program states no validity period.",
    }


COVERAGE_MEANINGS = {
    "measured": "The result publishes a figure for the workload.",
    "stated": "The provider names the suite that ran, and every workload in it ran.",
    "inferred": "The site inferred the suite from the counts the provider reports; which of "
    "its workloads ran is not published.",
}
assert set(COVERAGE_MEANINGS) == set(KIND_WORDS)


INFERENCE_RULES = "mlperf-inference-rules"
SUBMISSION_RULES = "mlperf-submission-rules"

MLPERF_TERMS = (
    Term(
        "scenario",
        "scenario",
        "How MLPerf Inference sends its queries, and so what its figure measures: Offline, "
        "Server or Interactive for most figures here, and SingleStream (one query at a time, "
        "the figure its latency) for a few; MultiStream is the fifth. Figures of different "
        "scenarios are never set side by side.",
        INFERENCE_RULES,
    ),
    Term(
        "scenario-offline",
        "Offline",
        "Every sample is sent at once, and the figure is the throughput measured, with no "
        "latency bound: the most a system can do when nobody waits for an answer.",
        INFERENCE_RULES,
    ),
    Term(
        "scenario-server",
        "Server",
        "Queries arrive at random (a Poisson process), and the figure is the highest rate at "
        "which the benchmark's latency bound still holds; for a language model, a time to the "
        "first token and a time per output token.",
        INFERENCE_RULES,
    ),
    Term(
        "scenario-interactive",
        "Interactive",
        "As Server, under tighter latency bounds, for the language models that have it.",
        INFERENCE_RULES,
    ),
    Term(
        "accuracy-target",
        "accuracy target",
        "The accuracy a closed-division result must reach, as a share of the reference "
        "model's: '99% of the FP32 reference' or '99.9%' where a benchmark offers both. Two "
        "figures held to different targets are not the same measurement.",
        INFERENCE_RULES,
    ),
    Term(
        "division",
        "closed division",
        "The model must be equivalent to the benchmark's reference implementation (no "
        "retraining) and meet its accuracy target; closed results are the ones comparable "
        "with each other.",
        INFERENCE_RULES,
    ),
    Term(
        "division-open",
        "open division",
        "Any model, retrained or another one altogether, held to no accuracy or latency "
        "target: the submission reports what it reached. An open figure is never the closed "
        "division's of the same benchmark, so pages name the model that ran ('Llama 3.1 8B, "
        "run in Llama 2 70B's place') and say it is open.",
        INFERENCE_RULES,
    ),
    Term(
        "availability-available",
        "available (Available cloud)",
        "MLCommons' category for a system a buyer can rent when it is measured: priced "
        "(publicly or on request), rented by at least one third party, with public evidence "
        "that it is available, and reasonably available for rent by others by the submission "
        "date.",
        SUBMISSION_RULES,
    ),
    Term(
        "availability-preview",
        "preview",
        "A system not yet available when measured: MLCommons requires it to be available for "
        "rent or purchase in time for the next submission, or after 140 days, whichever is "
        "longer. Pages say 'preview: not available when measured'.",
        SUBMISSION_RULES,
    ),
    Term(
        "rescored",
        "rescored (the same runs as an earlier round)",
        "A figure a round publishes from an earlier round's runs, submitted again and scored "
        "under the new round's rules. It measures nothing new, so pages never count it as "
        "progress.",
    ),
    Term(
        "against-the-maker",
        "against the chip maker's own",
        "A cloud's figure as a share of the chip maker's own closed-division result of the "
        "same round, benchmark, scenario, accuracy target and number of accelerators: 100% "
        "matches the maker, more is better. A time's share is of the maker's speed. Where the "
        "maker published no such result, there is no share, and the page says so.",
    ),
    Term(
        "strongest-of",
        "strongest of N",
        "On the home page's table, a cell shows one of a provider's results under a program: "
        "the one at the largest scale a source states, then the newest. 'Strongest of 3' says "
        "the provider has three results there; the provider's page lists them all.",
    ),
)


def _site_terms(site: Site, policy: Policy) -> list[Term]:
    """The site's own words, whose meanings name the site's programs and policy."""
    owners = sorted({(p.owner, p.name) for p in site.programs.values()})
    owned = "; ".join(f"{owner} for {name}" for owner, name in owners)
    return [
        Term(
            "analysis",
            "the analysis",
            "An analysis the site started from, a source of the kind 'analysis': it reasons "
            "about other documents, so what it concludes is graded secondary (or not "
            "established, with the reason) and cited to it.",
        ),
        Term(
            "program-owner",
            "program owner",
            "Who defines a program and its criteria"
            + (f": {owned}." if owned else ".")
            + " What the owner states about a result is graded program-owner.",
        ),
        Term(
            "evidence-question",
            "evidence question",
            "One of the questions each result is asked: is a figure a buyer needs published? "
            "The answers are listed below; a question that does not apply to a program is "
            "not applicable, never a gap.",
        ),
        Term(
            "scale",
            "scale",
            "How many accelerators (GPUs, TPU chips) a result ran on, as its source states it; a "
            "range where the result has systems of several sizes.",
        ),
        Term(
            "suite",
            "suite",
            "The list of workloads, each in its precisions, that a program's qualification runs "
            "on one chip at one release.",
        ),
        Term(
            "submitter",
            "submitter",
            "Who submitted an MLPerf result: the cloud itself, a partner whose system "
            "description names the cloud, or a submitter whose system description names no "
            "cloud ('its description names no cloud'), whether a cloud or a chip maker.",
        ),
        Term(
            "needs-attention",
            "needs attention",
            "A result the home page flags: near or past its validity end, a validity end that "
            "cannot be computed because no source dates the result, a review overdue "
            f"(last reviewed more than {policy.review_max_age_days} days ago), or replaced by a "
            "newer result of the same provider, program and chip whose outcome the program "
            "owner states (an earlier round's runs submitted again replace nothing).",
        ),
        Term(
            "open-check",
            "open check",
            "A trial-checklist item that a result's published evidence leaves open, for a "
            "trial or a contract to settle.",
        ),
    ]


def _mlperf_terms(site: Site) -> tuple[Term, ...]:
    # MLPerf's words are read from its rules: where the content holds neither, they are left out.
    cited = {t.source for t in MLPERF_TERMS if t.source is not None}
    return MLPERF_TERMS if cited <= set(site.sources) else ()


def glossary(site: Site, policy: Policy) -> list[Section]:
    """The glossary's sections, each term with its meaning."""
    terms = _site_terms(site, policy)
    mlperf = _mlperf_terms(site)
    sections = [
        Section(
            "MLPerf's words",
            "Words MLPerf's results tables use, as MLCommons' own rules define them (each cites "
            "the rules, read at the commit its source names), and the site's words for how it "
            "sets MLPerf figures side by side.",
            mlperf,
        ),
        Section(
            "Terms",
            "Words the pages use in a sense of their own.",
            tuple(sorted(terms, key=lambda t: t.term)),
        ),
        Section(
            "Evidence grades",
            "How directly a figure or a claim is known. Every one the site shows carries one.",
            tuple(Term(f"grade-{g}", g, m) for g, m in GRADE_MEANINGS.items()),
        ),
        Section(
            "Answers",
            "What a result's sources say to an evidence question. 'not-published' and "
            "'not-stated' differ: the first says the figure exists but is not published, the "
            "second that the sources are silent.",
            tuple(Term(f"answer-{a}", a, m) for a, m in SHOWN_MEANINGS.items()),
        ),
        Section(
            "Validity",
            "Where a result stands against its program's validity period on the build's date.",
            tuple(
                Term(f"validity-{v}", VALIDITY_WORDS[v], m)
                for v, m in validity_meanings(policy).items()
            ),
        ),
        Section(
            "Workload coverage",
            "How a result covers a workload on a chip's page.",
            tuple(Term(f"coverage-{k}", KIND_WORDS[k], m) for k, m in COVERAGE_MEANINGS.items()),
        ),
    ]
    return [section for section in sections if section.terms]
