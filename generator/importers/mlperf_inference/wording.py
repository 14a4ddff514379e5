"""The sentences an Inference round's records say of their results, apart from the records
they go in: whose cloud, in which scenarios, what has no valid figure, and what a preview is."""

from __future__ import annotations

from typing import Any

from generator.english import listed
from generator.escape import markdown_literal as md
from generator.importers.core import round_builder as core

# The reasoning behind the import's answers and claims, in content/sources/.
INFERENCE_RULES = "mlperf-inference-rules"
SCENARIO_ORDER = ("Offline", "Server", "Interactive", "SingleStream", "MultiStream")


def cloud_words(provider_name: str) -> str:
    """A provider's cloud by name: "Crusoe's cloud", but "IBM Cloud", never "IBM Cloud's cloud"."""
    if provider_name.casefold().endswith("cloud"):
        return md(provider_name)
    return f"{md(provider_name)}'s cloud"


def preview_words(preview: bool) -> str:
    """What a preview system is, where a result has one; else ""."""
    if not preview:
        return ""
    return (
        " A preview system was not generally available when it was measured: MLCommons' "
        "rules require it to be available by a later round."
    )


def invalid_words(count: int) -> str:
    """The results with no valid figure, or "" for none."""
    if not count:
        return ""
    several = count != 1
    return (
        f" {count} submitted result{'s have' if several else ' has'} no "
        f"valid figure and {'are' if several else 'is'} listed apart."
    )


def scenarios_words(scenarios: set[str]) -> str:
    """The scenarios a result's figures were measured in, in MLCommons' order."""
    found = sorted(scenarios, key=SCENARIO_ORDER.index)
    if not found:
        return "in no scenario"
    return f"in the scenario{'s' if len(found) != 1 else ''} {listed(found)}"


def whose_cloud_claims(
    submission: dict[str, Any], provider_name: str, first: str
) -> list[dict[str, Any]]:
    """What a submission leaves unstated of the cloud: that the cloud it names ran the systems,
    or, where it names none, whose cloud it was."""
    if submission["cloud"] == "named":
        return [
            core.unstated_claim(
                f"That {md(provider_name)} ran or checked the systems. The submitter "
                f"{md(submission['submitter'])} names {cloud_words(provider_name)} in its "
                "system description; the cloud is not the submitter.",
                submission.get("note"),
                "The system descriptions name the cloud; they do not say who ran it.",
                first,
            )
        ]
    if submission["cloud"] == "not-named":
        return [
            core.unstated_claim(
                "Whose cloud ran the systems.",
                submission.get("note"),
                "The system descriptions do not name the cloud the systems ran on.",
                first,
            )
        ]
    return []


def answers(valid: bool, read_from: str, first: str) -> dict[str, dict[str, Any]]:
    """The evidence questions an Inference round's published results answer; `read_from` says
    what the figures were read from."""
    return {
        "per-model-throughput": core.figures_answer(
            valid,
            f"A figure for each benchmark and scenario on each system, {read_from}.",
            "No submitted result has a valid figure.",
            first,
        ),
        "independent-reproduction": core.not_reproduced(
            "MLCommons audits up to two submissions a round; an audit is not a reproduction "
            "of every result.",
            INFERENCE_RULES,
        ),
    }
