"""A result's own rules: its answers, its chip, its words, its suite."""

from __future__ import annotations

from generator.checks.rules.context import Context
from generator.checks.rules.statements import check_not_silent
from generator.checks.rules.suites import check_stated_suite
from generator.checks.rules.walk import DATED
from generator.checks.schema import suggest
from generator.derive.caveats.rules import DEPLOYMENT, RULES
from generator.load.document import Path_
from generator.model.validation import Validation


def check_validation(ctx: Context, validation: Validation) -> None:
    program = ctx.records.get("programs", {}).get(validation.program)
    outcomes = list(getattr(program, "outcomes", []))
    if program is not None and validation.outcome.result not in outcomes:
        ctx.report(
            "validations",
            validation.id,
            ("outcome", "result"),
            f"expected one of the outcomes of {validation.program} "
            f"({', '.join(outcomes)}), found {validation.outcome.result!r}"
            + suggest(validation.outcome.result, outcomes),
        )
    check_stated_suite(ctx, validation)
    for index, caveat in enumerate(validation.caveats):
        if caveat.id in RULES:
            ctx.report(
                "validations",
                validation.id,
                ("caveats", index, "id"),
                f"expected an id of your own, found {caveat.id!r}, which the site "
                "derives by rule; remove this caveat, the site adds it when it applies",
            )
    check_answers(ctx, validation)
    check_chip(ctx, validation)
    check_dated_words(ctx, validation)
    if validation.predecessor == validation.id:
        ctx.report(
            "validations",
            validation.id,
            ("predecessor",),
            "expected an earlier validation, found this record itself",
        )
    for question_id in sorted(ctx.records.get("questions", {})):
        if question_id not in validation.evidence:
            ctx.report(
                "validations",
                validation.id,
                ("evidence",),
                key=True,
                message=f"expected an answer to the evidence question {question_id!r}, found "
                "none (answer not-stated if no source says)",
                severity="warning",
            )


def check_answers(ctx: Context, validation: Validation) -> None:
    """Each answer claims no more than the record's own facts and sources bear out."""
    for question_id, answer in validation.evidence.items():
        loc: Path_ = ("evidence", question_id)
        if answer.answer == "not-published" and answer.detail is not None:
            check_not_silent(ctx, "validations", validation.id, (*loc, "detail"), answer.detail)
    tested = validation.evidence.get(DEPLOYMENT)
    deployment = validation.deployment
    unknown = [name for name in ("location", "environment") if getattr(deployment, name) is None]
    if tested is not None and tested.answer == "yes" and unknown:
        ctx.report(
            "validations",
            validation.id,
            ("evidence", DEPLOYMENT, "answer"),
            f"expected partial while deployment.{unknown[0]} is null, found yes: a "
            "deployment whose " + " and ".join(unknown) + " no source states is known only in part",
        )


def check_chip(ctx: Context, validation: Validation) -> None:
    """A chip family stands in for a platform the sources do not name, never beside one."""
    if validation.platform is not None and validation.accelerator_noun is not None:
        ctx.report(
            "validations",
            validation.id,
            ("accelerator_noun",),
            f"expected no accelerator_noun beside platform {validation.platform!r}, found "
            f"{validation.accelerator_noun!r}: the platform gives it",
        )
    if validation.platform is not None and validation.chip is not None:
        ctx.report(
            "validations",
            validation.id,
            ("chip",),
            f"expected no chip beside platform {validation.platform!r}, found "
            f"{validation.chip!r}: the platform gives the chip",
        )


def check_dated_words(ctx: Context, validation: Validation) -> None:
    """A suite or release is named by what a source read it at, never as current or latest."""
    texts: list[tuple[Path_, str]] = [(("summary",), validation.summary)]
    for index, claim in enumerate(validation.claims):
        texts.append((("claims", index, "text"), claim.text))
        if claim.reason is not None:
            texts.append((("claims", index, "reason"), claim.reason))
    for index, caveat in enumerate(validation.caveats):
        texts.append((("caveats", index, "text"), caveat.text))
    for question_id, answer in validation.evidence.items():
        if answer.detail is not None:
            texts.append((("evidence", question_id, "detail"), answer.detail))
    for loc, text in texts:
        dated = DATED.search(text)
        if dated is not None:
            ctx.report(
                "validations",
                validation.id,
                loc,
                f"expected a suite or release named by its commit or tag, found "
                f"{dated[0]!r}: what is current goes stale, and no source says it still is",
            )
