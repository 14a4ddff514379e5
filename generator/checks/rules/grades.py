"""Grades: a provider's or program owner's own document is graded as theirs, and nothing else is."""

from __future__ import annotations

from generator.checks.rules.context import Context
from generator.checks.rules.walk import sourced
from generator.model.base import Record
from generator.model.case_studies import CaseStudy
from generator.model.grades import REPORTING_KINDS, UNESTABLISHED
from generator.model.programs import Program, Suite
from generator.model.providers import Provider
from generator.model.sources import Source
from generator.model.validation import Analysis, Validation


def roles(ctx: Context, kind: str, record: Record) -> tuple[str | None, str | None]:
    """The provider and the program a record speaks of, whose own words it may cite."""
    if isinstance(record, Validation):
        return record.provider, record.program
    if isinstance(record, Analysis):
        analysed = ctx.records.get("validations", {}).get(record.id)
        if isinstance(analysed, Validation):
            return analysed.provider, analysed.program
    if isinstance(record, Provider):
        return record.id, None
    if isinstance(record, Program):
        return None, record.id
    if isinstance(record, Suite | CaseStudy):
        return None, record.program
    return None, None


def _same_owner(ctx: Context, program: str | None, source_program: str) -> bool:
    """Whether a document of `source_program` is its owner's word for `program`: the same
    program, or another of the same owner (MLCommons' general submission rules speak for both
    MLPerf Training and MLPerf Inference)."""
    if program in (None, source_program):
        return True
    programs = ctx.records.get("programs", {})
    mine, theirs = programs.get(program or ""), programs.get(source_program)
    return isinstance(mine, Program) and isinstance(theirs, Program) and mine.owner == theirs.owner


def check_grades(ctx: Context, kind: str, record: Record) -> None:
    """A grade says whose words a fact is, so the cited source must be able to carry it."""
    provider, program = roles(ctx, kind, record)
    # A reference to a record that is not there is reported once, as dangling.
    provider = provider if provider in ctx.records.get("providers", {}) else None
    program = program if program in ctx.records.get("programs", {}) else None
    for part, loc in sourced(record):
        source = ctx.records.get("sources", {}).get(part.source)
        if not isinstance(source, Source):
            continue  # a dangling or invalid source is reported on its own
        where = (*loc, "grade")
        if source.kind in REPORTING_KINDS and part.grade not in ("secondary", *UNESTABLISHED):
            ctx.report(
                kind,
                record.id,
                where,
                f"expected secondary or an unestablished grade for source {source.id!r}, of "
                f"kind {source.kind}, found {part.grade}: it reports or reasons about others' "
                "statements, so cite the provider's or program owner's own document for what "
                "they state",
            )
        elif part.grade == "provider-reported" and (
            source.provider is None or provider not in (None, source.provider)
        ):
            owner = provider or "a provider"
            ctx.report(
                kind,
                record.id,
                where,
                f"expected a source that is {owner}'s own statement (provider: {owner}) for "
                f"grade provider-reported, found {source.id!r}, which is "
                + (f"{source.provider}'s" if source.provider else "no provider's own"),
            )
        elif part.grade == "program-owner" and (
            source.program is None or not _same_owner(ctx, program, source.program)
        ):
            owner = program or "a program"
            ctx.report(
                kind,
                record.id,
                where,
                f"expected a document by the owner of {owner} (program: {owner}) for grade "
                f"program-owner, found {source.id!r}, which is "
                + (f"by the owner of {source.program}" if source.program else "not"),
            )
        elif part.grade == "independent" and (
            source.program is not None
            or (source.provider is not None and provider in (None, source.provider))
        ):
            ctx.report(
                kind,
                record.id,
                where,
                f"expected a source by neither the provider nor the program owner for grade "
                f"independent, found {source.id!r}, which is one of theirs",
            )
