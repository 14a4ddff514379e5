"""A hand-written analysis adds to its result and replaces nothing."""

from __future__ import annotations

from generator.checks.rules.context import Context
from generator.checks.rules.walk import resubmitted_workloads
from generator.checks.schema import suggest
from generator.derive.caveats.rules import GENERATIONAL, RULES
from generator.model.validation import Analysis, Validation


def check_analysis(ctx: Context, analysis: Analysis) -> None:
    """An analysis adds to its validation and never contradicts what that file states."""
    validation = ctx.records.get("validations", {}).get(analysis.id)
    if not isinstance(validation, Validation):
        if analysis.id not in ctx.present.get("validations", set()):
            ctx.report(
                "analyses",
                analysis.id,
                ("id",),
                f"expected the id of a record in content/validations/, found {analysis.id!r}"
                + suggest(analysis.id, sorted(ctx.present.get("validations", set()))),
            )
        return
    own = {caveat.id for caveat in validation.caveats}
    for index, caveat in enumerate(analysis.caveats):
        if caveat.id in RULES or caveat.id in own:
            where = (
                "the site derives by rule"
                if caveat.id in RULES
                else (f"content/validations/{validation.id}.yaml has")
            )
            ctx.report(
                "analyses",
                analysis.id,
                ("caveats", index, "id"),
                f"expected an id of your own, found {caveat.id!r}, which {where}",
            )
    for question_id in analysis.evidence:
        stated = validation.evidence.get(question_id)
        if stated is not None and stated.answer != "not-stated":
            ctx.report(
                "analyses",
                analysis.id,
                ("evidence", question_id),
                f"expected answers only to questions that content/validations/"
                f"{validation.id}.yaml answers not-stated, found one to {question_id!r}, "
                f"which it answers {stated.answer!r}: an analysis never overwrites a fact",
                key=True,
            )
    repeated = resubmitted_workloads(validation)
    answer = analysis.evidence.get(GENERATIONAL)
    every = len(repeated) == len({m.workload for m in validation.measurements})
    if repeated and every and answer is not None and answer.answer in ("yes", "partial"):
        ctx.report(
            "analyses",
            analysis.id,
            ("evidence", GENERATIONAL, "answer"),
            f"expected not-stated or no, found {answer.answer}: every figure of "
            f"{validation.id} is an earlier round's submitted again, which compares nothing",
        )
