"""A result's dates: sourced, and never implying progress the data does not show."""

from __future__ import annotations

from generator.checks.rules.context import Context
from generator.checks.rules.walk import resubmitted_workloads
from generator.derive.caveats.rules import GENERATIONAL
from generator.model.validation import Validation


def check_dating(ctx: Context, validation: Validation) -> None:
    """A date is a fact like any other: it says where it comes from."""
    if validation.announced is not None and validation.dating is None:
        ctx.report(
            "validations",
            validation.id,
            ("announced",),
            f"expected a dating (source, grade and basis) beside the date "
            f"{validation.announced.isoformat()}, found none: a date cites its source",
        )
    if validation.announced is None and validation.dating is not None:
        ctx.report(
            "validations",
            validation.id,
            ("dating",),
            "expected no dating while announced is null, found one",
        )


def check_progress(ctx: Context, validation: Validation) -> None:
    """A result submitted again is no progress: no record follows it as its predecessor, nor
    answers that it compares generations, as if its figures were new."""
    validations = ctx.records.get("validations", {})
    predecessor = validations.get(validation.predecessor or "")
    if isinstance(predecessor, Validation):
        repeated = resubmitted_workloads(predecessor)
        measured = {m.workload for m in validation.measurements}
        shared = sorted(measured & repeated.keys()) if measured else sorted(repeated)
        if shared and all(name in repeated for name in shared):
            first = shared[0]
            ctx.report(
                "validations",
                validation.id,
                ("predecessor",),
                f"expected a result whose figures were measured for its round, found "
                f"{predecessor.id}, whose {first} figures are round {repeated[first]}'s "
                f"results submitted again: follow the result of round {repeated[first]} "
                "that first published them, or say in a claim what the comparison spans",
            )
    own = resubmitted_workloads(validation)
    if own and len(own) == len({m.workload for m in validation.measurements}):
        answer = validation.evidence.get(GENERATIONAL)
        if answer is not None and answer.answer in ("yes", "partial"):
            ctx.report(
                "validations",
                validation.id,
                ("evidence", GENERATIONAL, "answer"),
                f"expected not-stated or no, found {answer.answer}: every figure of this "
                "result is an earlier round's submitted again, which compares nothing",
            )
