"""Checks on content: the files themselves, the schema, then the rules that span fields and
records.

Every check appends `Problem`s and carries on, so one run reports every mistake. Schema errors
from pydantic are translated here into `path:line:col: field: expected ..., found ...`, using the
positions the loader kept.
"""

from __future__ import annotations

import difflib
import re
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from generator.derive.caveats.rules import DEPLOYMENT, GENERATIONAL, RULES
from generator.derive.suites import fit, suite_counts
from generator.derive.wording import SLOT_PATTERN, SLOTS, slots_in
from generator.load.reader import Document, Path_
from generator.model.links import RESERVED_IDS, SECTIONS, chip_name, chip_slug
from generator.model.records import (
    ID_PATTERN,
    KINDS,
    PRECISION_PATTERN,
    REPORTING_KINDS,
    UNESTABLISHED,
    URL_PATTERN,
    Analysis,
    CaseStudy,
    Checklist,
    Platform,
    Program,
    Provider,
    Question,
    Record,
    Source,
    Sourced,
    Statement,
    Suite,
    Validation,
    references,
    unwrap,
)
from generator.problems import Position, Problem, describe

M = TypeVar("M", bound=BaseModel)

_TYPE_WORDS = {
    "int": "a whole number",
    "float": "a number",
    "string": "text",
    "bool": "true or false",
    "list": "a list",
    "dict": "a mapping",
    "model": "a mapping",
    "date": "a date as YYYY-MM-DD",
}
_PATTERN_WORDS = {
    ID_PATTERN: "a kebab-case id (lowercase letters and digits, single hyphens between)",
    URL_PATTERN: "an http or https address",
    PRECISION_PATTERN: "a precision name in capitals, e.g. FP8",
}


def modeline(kind: str) -> str:
    """The first line of every record file: it points an editor at the kind's JSON Schema."""
    return f"# yaml-language-server: $schema=../../schemas/{kind}.schema.json"


# --- files: where a record sits, how it starts, what it is named -------------------------------


def check_placement(
    files: list[Path], content_dir: Path, shown_root: Path
) -> tuple[list[tuple[str, Path, str]], list[Problem]]:
    """The record files among `files` as (kind, path, shown path), and misplaced files."""
    found: list[tuple[str, Path, str]] = []
    problems: list[Problem] = []
    for path in files:
        relative = path.relative_to(content_dir)
        shown = path.relative_to(shown_root).as_posix()
        kind = relative.parts[0]
        if len(relative.parts) != 2 or kind not in KINDS:
            problems.append(
                Problem(
                    shown,
                    Position(1, 1),
                    "",
                    "expected a record in one of "
                    f"content/{{{','.join(KINDS)}}}/, found a file elsewhere",
                )
            )
        elif path.suffix != ".yaml":
            problems.append(
                Problem(shown, Position(1, 1), "", f"expected a .yaml file, found {path.name}")
            )
        else:
            found.append((kind, path, shown))
    return found, problems


def check_modeline(kind: str, shown: str, raw: bytes) -> list[Problem]:
    """A record file starts with its kind's modeline, so an editor checks it as it is typed."""
    if raw.startswith(modeline(kind).encode() + b"\n"):
        return []
    return [
        Problem(
            shown,
            Position(1, 1),
            "",
            f"expected the first line to be "
            f"'{modeline(kind)}', so editors check this file as you type",
        )
    ]


def check_file_name(record: Record, path: Path, document: Document) -> list[Problem]:
    """A record's id is its file's name, so every reference to the id finds the file."""
    if re.match(ID_PATTERN, path.stem) and record.id == path.stem:
        return []
    return [
        Problem(
            document.path,
            document.position(("id",)),
            "id",
            f"expected the id to equal the file name {path.stem!r}, found {record.id!r}",
        )
    ]


def _type_at(model: type[BaseModel], loc: Path_) -> Any:
    """The annotation of the field at `loc`, walking down from `model`; None if there is none."""
    annotation: Any = model
    for part in loc:
        current = unwrap(annotation)
        if isinstance(current, type) and issubclass(current, BaseModel) and isinstance(part, str):
            if part not in current.model_fields:
                return None
            annotation = current.model_fields[part].annotation
        elif get_origin(current) in (list, dict):
            annotation = get_args(current)[-1]
        else:
            return None
    return annotation


def _nullable(annotation: Any) -> bool:
    return get_origin(annotation) in (Union, types.UnionType) and type(None) in get_args(annotation)


def _suggest(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def _schema_problem(model: type[BaseModel], document: Document, error: ErrorDetails) -> Problem:
    loc: Path_ = tuple(part for part in error["loc"] if part != "[key]")
    kind, found = error["type"], error.get("input")
    field_name = ".".join(str(part) for part in loc)
    position = document.position(loc)
    ctx = error.get("ctx", {})
    if kind == "missing":
        position = document.position(loc[:-1])
        hint = " (write null if no source states it)" if _nullable(_type_at(model, loc)) else ""
        message = f"expected this required field, found it missing{hint}"
    elif kind == "extra_forbidden":
        position = document.position(loc, key=True)
        holder = unwrap(_type_at(model, loc[:-1]))
        is_model = isinstance(holder, type) and issubclass(holder, BaseModel)
        known = sorted(holder.model_fields) if is_model else []
        message = (
            f"expected one of the fields {', '.join(known)}, found unknown field {loc[-1]!r}"
            + _suggest(str(loc[-1]), known)
        )
    elif kind == "literal_error":
        expected = str(ctx.get("expected", ""))
        options = [word.strip(" '") for word in expected.replace(" or ", ", ").split(",")]
        message = f"expected one of {expected}, found {describe(found)}" + _suggest(
            str(found), options
        )
    elif kind == "string_pattern_mismatch":
        wanted = _PATTERN_WORDS.get(str(ctx.get("pattern")), f"text matching {ctx.get('pattern')}")
        message = f"expected {wanted}, found {describe(found)}"
    elif kind.endswith("_type") and kind.removesuffix("_type") in _TYPE_WORDS:
        message = f"expected {_TYPE_WORDS[kind.removesuffix('_type')]}, found {describe(found)}"
    elif kind == "too_short" and isinstance(found, list | str):
        message = f"expected at least {ctx.get('min_length', 1)} item(s), found {len(found)}"
    elif kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
        message = (
            f"expected a number {error['msg'].removeprefix('Input should be ')}, found {found}"
        )
    elif kind == "string_too_short":
        message = f"expected non-empty text, found {describe(found)}"
    else:
        wanted = error["msg"].replace("Input should be ", "").replace("Value error, ", "")
        message = f"expected {wanted[0].lower() + wanted[1:]}, found {describe(found)}"
    return Problem(document.path, position, field_name, message)


def validate(model: type[M], document: Document) -> tuple[M | None, list[Problem]]:
    """Validate one loaded document against its kind's model."""
    try:
        return model.model_validate(document.value), []
    except ValidationError as error:
        return None, [_schema_problem(model, document, detail) for detail in error.errors()]


def statements(value: Any, loc: Path_ = ()) -> Iterator[tuple[Statement, Path_]]:
    """Every graded statement inside a record, with where it sits."""
    if isinstance(value, Statement):
        yield value, loc
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from statements(getattr(value, name), (*loc, name))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from statements(item, (*loc, index))


def sourced(value: Any, loc: Path_ = ()) -> Iterator[tuple[Sourced, Path_]]:
    """Every graded, sourced part of a record (the record itself included), with where it sits."""
    if isinstance(value, Sourced):
        yield value, loc
    if isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from sourced(getattr(value, name), (*loc, name))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from sourced(item, (*loc, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from sourced(item, (*loc, key))


# Words in a not-published reason or answer that say the sources are silent, which is what
# not-stated means: not-published says the figure exists and is withheld.
SILENCE = re.compile(
    r"\b(not stated|no source|sources we hold|silent|(?:does|do) not say|not known|unknown|"
    r"in passing|in what we (?:read|hold)|not in (?:the|what))\b",
    re.IGNORECASE,
)
# A suite or release called current or latest: it goes stale, and a source reads it at a commit.
DATED = re.compile(
    r"\b(?:current|latest|newest)\b(?:\s+[\w-]+){0,2}?\s+(?:suite|release)\b",
    re.IGNORECASE,
)
DIGITS = re.compile(r"\d+")


def duplicate_ids(items: list[Any], loc: Path_) -> Iterator[tuple[str, Path_]]:
    """Items of a list that repeat an earlier item's `id`."""
    seen: set[str] = set()
    for index, item in enumerate(items):
        if item.id in seen:
            yield item.id, (*loc, index, "id")
        seen.add(item.id)


def resubmitted_workloads(validation: Validation) -> dict[str, str]:
    """The workloads of a result whose every figure is an earlier round's submitted again, with
    that round."""
    rounds: dict[str, set[str | None]] = {}
    for m in validation.measurements:
        rounds.setdefault(m.workload, set()).add(m.resubmitted.round if m.resubmitted else None)
    found = {}
    for workload, repeated in rounds.items():
        if len(repeated) == 1 and (only := next(iter(repeated))) is not None:
            found[workload] = only
    return found


class Checker:
    """Rules across fields and records, run once every record has passed the schema."""

    def __init__(
        self,
        records: dict[str, dict[str, Record]],
        documents: dict[tuple[str, str], Document],
        present: dict[str, set[str]],
    ) -> None:
        self.records = records
        self.documents = documents
        # Ids of every record file, valid or not: a reference to a record that has its own errors
        # is not reported again as dangling.
        self.present = present
        self.problems: list[Problem] = []

    def report(
        self,
        kind: str,
        record_id: str,
        loc: Path_,
        message: str,
        *,
        key: bool = False,
        severity: str = "error",
    ) -> None:
        document = self.documents[(kind, record_id)]
        field_name = ".".join(str(part) for part in loc)
        position = document.position(loc, key=key)
        self.problems.append(Problem(document.path, position, field_name, message, severity))

    def run(self) -> list[Problem]:
        for kind, by_id in self.records.items():
            for record_id, record in by_id.items():
                self.check_references(kind, record)
                self.check_statements(kind, record)
                self.check_grades(kind, record)
                for name in ("caveats", "items"):
                    for repeated, loc in duplicate_ids(getattr(record, name, []), (name,)):
                        self.report(
                            kind, record_id, loc, f"expected unique ids, found {repeated!r} twice"
                        )
        for validation in self.records.get("validations", {}).values():
            assert isinstance(validation, Validation)
            self.check_validation(validation)
            self.check_systems(validation)
            self.check_dating(validation)
            self.check_progress(validation)
        for analysis in self.records.get("analyses", {}).values():
            assert isinstance(analysis, Analysis)
            self.check_analysis(analysis)
        for suite_id, suite in self.records.get("suites", {}).items():
            assert isinstance(suite, Suite)
            if suite.workloads is None and suite.stated_counts is None:
                self.report(
                    "suites",
                    suite_id,
                    ("workloads",),
                    "expected workloads or stated_counts, found neither",
                )
        for checklist in self.records.get("checklists", {}).values():
            assert isinstance(checklist, Checklist)
            self.check_checklist(checklist)
        self.check_outputs()
        for source in self.records.get("sources", {}).values():
            assert isinstance(source, Source)
            for role in ("provider", "program"):
                if source.kind in REPORTING_KINDS and getattr(source, role) is not None:
                    self.report(
                        "sources",
                        source.id,
                        (role,),
                        f"expected no {role} on a source of kind {source.kind}, found "
                        f"{getattr(source, role)!r}: {'an' if source.kind[0] in 'aeiou' else 'a'} "
                        f"{source.kind} reports others' words, so it "
                        "is never a provider's or program owner's own statement",
                    )
        return self.problems

    def check_references(self, kind: str, record: Record) -> None:
        for target_kind, target_id, loc in references(record, type(record)):
            known = self.present.get(target_kind, set())
            if target_id not in known:
                self.report(
                    kind,
                    record.id,
                    loc,
                    f"expected the id of a record in content/"
                    f"{target_kind}/, found {target_id!r}" + _suggest(target_id, sorted(known)),
                    key=loc[-1] == target_id,
                )

    def check_statements(self, kind: str, record: Record) -> None:
        for statement, loc in statements(record):
            if statement.grade == "not-established" and statement.reason is None:
                self.report(
                    kind,
                    record.id,
                    (*loc, "grade"),
                    "expected a reason beside grade not-established, found none",
                )
            if statement.grade == "not-published" and statement.reason is None:
                self.report(
                    kind,
                    record.id,
                    (*loc, "grade"),
                    "expected a reason beside grade not-published saying what shows that the "
                    "figure exists, found none (grade it not-stated if no source says it exists)",
                )
            if statement.grade == "not-published" and statement.reason is not None:
                self.check_not_silent(kind, record.id, (*loc, "reason"), statement.reason)
            if statement.grade not in UNESTABLISHED and statement.reason is not None:
                self.report(
                    kind,
                    record.id,
                    (*loc, "reason"),
                    "expected a reason only on a not-established, not-published or not-stated "
                    f"statement, found one on grade {statement.grade}; cite the source instead",
                )

    def check_not_silent(self, kind: str, record_id: str, loc: Path_, text: str) -> None:
        """A not-published figure exists: its reason may not say that the sources are silent."""
        silent = SILENCE.search(text)
        if silent is not None:
            self.report(
                kind,
                record_id,
                loc,
                "expected what shows that the figure exists, as not-published means, found "
                f"{silent[0]!r}, which says only that the sources are silent: use not-stated",
            )

    def roles(self, kind: str, record: Record) -> tuple[str | None, str | None]:
        """The provider and the program a record speaks of, whose own words it may cite."""
        if isinstance(record, Validation):
            return record.provider, record.program
        if isinstance(record, Analysis):
            analysed = self.records.get("validations", {}).get(record.id)
            if isinstance(analysed, Validation):
                return analysed.provider, analysed.program
        if isinstance(record, Provider):
            return record.id, None
        if isinstance(record, Program):
            return None, record.id
        if isinstance(record, Suite | CaseStudy):
            return None, record.program
        return None, None

    def check_grades(self, kind: str, record: Record) -> None:
        """A grade says whose words a fact is, so the cited source must be able to carry it."""
        provider, program = self.roles(kind, record)
        # A reference to a record that is not there is reported once, as dangling.
        provider = provider if provider in self.records.get("providers", {}) else None
        program = program if program in self.records.get("programs", {}) else None
        for part, loc in sourced(record):
            source = self.records.get("sources", {}).get(part.source)
            if not isinstance(source, Source):
                continue  # a dangling or invalid source is reported on its own
            where = (*loc, "grade")
            if source.kind in REPORTING_KINDS and part.grade not in ("secondary", *UNESTABLISHED):
                self.report(
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
                self.report(
                    kind,
                    record.id,
                    where,
                    f"expected a source that is {owner}'s own statement (provider: {owner}) for "
                    f"grade provider-reported, found {source.id!r}, which is "
                    + (f"{source.provider}'s" if source.provider else "no provider's own"),
                )
            elif part.grade == "program-owner" and (
                source.program is None or program not in (None, source.program)
            ):
                owner = program or "a program"
                self.report(
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
                self.report(
                    kind,
                    record.id,
                    where,
                    f"expected a source by neither the provider nor the program owner for grade "
                    f"independent, found {source.id!r}, which is one of theirs",
                )

    def check_stated_suite(self, validation: Validation) -> None:
        """A suite the provider names must be of its program and chip, and hold its counts.

        Counts that exceed a named suite are a contradiction in the record, so they are an error;
        counts that no suite explains, when none is named, are a fact about what was published,
        so the site states them as a caveat instead (see caveats.suite_not_reconciled).
        """
        suite = self.records.get("suites", {}).get(validation.stated_suite or "")
        if not isinstance(suite, Suite):
            return
        if suite.program != validation.program:
            self.report(
                "validations",
                validation.id,
                ("stated_suite",),
                f"expected a suite of {validation.program}, found one of {suite.program}",
            )
        platform = self.records.get("platforms", {}).get(validation.platform or "")
        if isinstance(platform, Platform) and platform.chip != suite.chip:
            self.report(
                "validations",
                validation.id,
                ("stated_suite",),
                f"expected a suite for the {platform.chip} chip of {platform.id}, found "
                f"one for {suite.chip}",
            )
        elif validation.chip is not None and validation.chip != suite.chip:
            self.report(
                "validations",
                validation.id,
                ("stated_suite",),
                f"expected a suite for the {validation.chip} chip, found one for {suite.chip}",
            )
        counts = suite_counts(suite)
        if fit(validation, counts) == "exceeds":
            scope = validation.scope
            self.report(
                "validations",
                validation.id,
                ("scope", "configurations"),
                f"expected at most {counts.models} models and {counts.configurations} "
                f"configurations in {', '.join(counts.precisions)}, as suite {suite.id} "
                f"has, found {scope.models} models and {scope.configurations} "
                f"configurations in {', '.join(scope.precisions)}",
            )

    def check_validation(self, validation: Validation) -> None:
        program = self.records.get("programs", {}).get(validation.program)
        outcomes = list(getattr(program, "outcomes", []))
        if program is not None and validation.outcome.result not in outcomes:
            self.report(
                "validations",
                validation.id,
                ("outcome", "result"),
                f"expected one of the outcomes of {validation.program} "
                f"({', '.join(outcomes)}), found {validation.outcome.result!r}"
                + _suggest(validation.outcome.result, outcomes),
            )
        self.check_stated_suite(validation)
        for index, caveat in enumerate(validation.caveats):
            if caveat.id in RULES:
                self.report(
                    "validations",
                    validation.id,
                    ("caveats", index, "id"),
                    f"expected an id of your own, found {caveat.id!r}, which the site "
                    "derives by rule; remove this caveat, the site adds it when it applies",
                )
        self.check_answers(validation)
        self.check_chip(validation)
        self.check_dated_words(validation)
        if validation.predecessor == validation.id:
            self.report(
                "validations",
                validation.id,
                ("predecessor",),
                "expected an earlier validation, found this record itself",
            )
        for question_id in sorted(self.records.get("questions", {})):
            if question_id not in validation.evidence:
                self.report(
                    "validations",
                    validation.id,
                    ("evidence",),
                    key=True,
                    message=f"expected an answer to the evidence question {question_id!r}, found "
                    "none (answer not-stated if no source says)",
                    severity="warning",
                )

    def check_answers(self, validation: Validation) -> None:
        """Each answer claims no more than the record's own facts and sources bear out."""
        for question_id, answer in validation.evidence.items():
            loc: Path_ = ("evidence", question_id)
            if answer.answer == "not-published" and answer.detail is not None:
                self.check_not_silent("validations", validation.id, (*loc, "detail"), answer.detail)
        tested = validation.evidence.get(DEPLOYMENT)
        deployment = validation.deployment
        unknown = [
            name for name in ("location", "environment") if getattr(deployment, name) is None
        ]
        if tested is not None and tested.answer == "yes" and unknown:
            self.report(
                "validations",
                validation.id,
                ("evidence", DEPLOYMENT, "answer"),
                f"expected partial while deployment.{unknown[0]} is null, found yes: a "
                "deployment whose "
                + " and ".join(unknown)
                + " no source states is known only in part",
            )

    def check_chip(self, validation: Validation) -> None:
        """A chip family stands in for a platform the sources do not name, never beside one."""
        if validation.platform is not None and validation.accelerator_noun is not None:
            self.report(
                "validations",
                validation.id,
                ("accelerator_noun",),
                f"expected no accelerator_noun beside platform {validation.platform!r}, found "
                f"{validation.accelerator_noun!r}: the platform gives it",
            )
        if validation.platform is not None and validation.chip is not None:
            self.report(
                "validations",
                validation.id,
                ("chip",),
                f"expected no chip beside platform {validation.platform!r}, found "
                f"{validation.chip!r}: the platform gives the chip",
            )

    def check_dated_words(self, validation: Validation) -> None:
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
                self.report(
                    "validations",
                    validation.id,
                    loc,
                    f"expected a suite or release named by its commit or tag, found "
                    f"{dated[0]!r}: what is current goes stale, and no source says it still is",
                )

    def check_outputs(self) -> None:
        """No two records name one output: a record may not take its section's own page, and two
        chips may not give one page name under workloads/ (a page is never renamed to make room,
        so a hostile record cannot move a real chip's page)."""
        for kind in SECTIONS:
            for record_id in sorted(self.records.get(kind, {})):
                if record_id in RESERVED_IDS:
                    self.report(
                        kind,
                        record_id,
                        ("id",),
                        f"expected an id other than {record_id!r}, which is the {kind} "
                        "section's own page, found it",
                    )
        named: dict[str, list[tuple[str, str, str]]] = {}  # slug -> (chip, kind, record id)
        for platform in self.records.get("platforms", {}).values():
            assert isinstance(platform, Platform)
            named.setdefault(chip_slug(platform.chip), []).append(
                (chip_name(platform.chip), "platforms", platform.id)
            )
        for validation in self.records.get("validations", {}).values():
            assert isinstance(validation, Validation)
            if validation.platform is None and validation.chip is not None:
                named.setdefault(chip_slug(validation.chip), []).append(
                    (chip_name(validation.chip), "validations", validation.id)
                )
        for slug, holders in sorted(named.items()):
            for chip, kind, record_id in holders:
                if slug in ("", *RESERVED_IDS):
                    why = "none" if not slug else f"workloads/{slug}, the section's own page"
                    self.report(
                        kind,
                        record_id,
                        ("chip",),
                        f"expected a chip name that gives a page name under workloads/, found "
                        f"{chip!r}, which gives {why}",
                    )
                    continue
                others = sorted({(c, k, r) for c, k, r in holders if c != chip})
                if others:
                    other, other_kind, other_id = others[0]
                    document = self.documents[(other_kind, other_id)]
                    at = document.position(("chip",))
                    where = f"{document.path}:{at.line}:{at.column}"
                    self.report(
                        kind,
                        record_id,
                        ("chip",),
                        f"expected a chip whose page name (workloads/{slug}) no other chip takes, "
                        f"found {chip!r}, whose page name is that of {other!r} ({where}): write "
                        "the chip as the other record does, or tell them apart",
                    )

    def check_dating(self, validation: Validation) -> None:
        """A date is a fact like any other: it says where it comes from."""
        if validation.announced is not None and validation.dating is None:
            self.report(
                "validations",
                validation.id,
                ("announced",),
                f"expected a dating (source, grade and basis) beside the date "
                f"{validation.announced.isoformat()}, found none: a date cites its source",
            )
        if validation.announced is None and validation.dating is not None:
            self.report(
                "validations",
                validation.id,
                ("dating",),
                "expected no dating while announced is null, found one",
            )

    def check_progress(self, validation: Validation) -> None:
        """A result submitted again is no progress: no record follows it as its predecessor, nor
        answers that it compares generations, as if its figures were new."""
        validations = self.records.get("validations", {})
        predecessor = validations.get(validation.predecessor or "")
        if isinstance(predecessor, Validation):
            repeated = resubmitted_workloads(predecessor)
            measured = {m.workload for m in validation.measurements}
            shared = sorted(measured & repeated.keys()) if measured else sorted(repeated)
            if shared and all(name in repeated for name in shared):
                first = shared[0]
                self.report(
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
                self.report(
                    "validations",
                    validation.id,
                    ("evidence", GENERATIONAL, "answer"),
                    f"expected not-stated or no, found {answer.answer}: every figure of this "
                    "result is an earlier round's submitted again, which compares nothing",
                )

    def check_systems(self, validation: Validation) -> None:
        """Each result names a system of the record, once per benchmark; and the documents the
        caveat rules for systems cite are there to be cited."""
        if validation.systems:
            sources = self.present.get("sources", set())
            for rule_id, rule in RULES.items():
                if rule.cites is not None and rule.cites not in sources:
                    self.report(
                        "validations",
                        validation.id,
                        ("systems",),
                        f"expected content/sources/{rule.cites}.yaml, which caveat rule "
                        f"{rule_id} cites for results on described systems, found none",
                    )
        keys: set[str] = set()
        for index, system in enumerate(validation.systems):
            if system.key in keys:
                self.report(
                    "validations",
                    validation.id,
                    ("systems", index, "key"),
                    f"expected unique system keys, found {system.key!r} twice",
                )
            keys.add(system.key)
        seen: set[tuple[str, str]] = set()
        results: list[tuple[Path_, str | None, str | None]] = []
        for i, m in enumerate(validation.measurements):
            results.append((("measurements", i), m.system, m.benchmark))
        for i, r in enumerate(validation.invalid):
            results.append((("invalid", i), r.system, r.benchmark))
        for loc, system_key, benchmark in results:
            if system_key is not None and system_key not in keys:
                self.report(
                    "validations",
                    validation.id,
                    (*loc, "system"),
                    f"expected the key of one of this record's systems "
                    f"({', '.join(sorted(keys)) or 'none'}), found {system_key!r}"
                    + _suggest(system_key, sorted(keys)),
                )
            if system_key is not None and benchmark is not None:
                if (system_key, benchmark) in seen:
                    self.report(
                        "validations",
                        validation.id,
                        (*loc, "benchmark"),
                        f"expected one result per system and benchmark, found {benchmark!r} on "
                        f"{system_key!r} twice",
                    )
                seen.add((system_key, benchmark))

    def check_analysis(self, analysis: Analysis) -> None:
        """An analysis adds to its validation and never contradicts what that file states."""
        validation = self.records.get("validations", {}).get(analysis.id)
        if not isinstance(validation, Validation):
            if analysis.id not in self.present.get("validations", set()):
                self.report(
                    "analyses",
                    analysis.id,
                    ("id",),
                    f"expected the id of a record in content/validations/, found {analysis.id!r}"
                    + _suggest(analysis.id, sorted(self.present.get("validations", set()))),
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
                self.report(
                    "analyses",
                    analysis.id,
                    ("caveats", index, "id"),
                    f"expected an id of your own, found {caveat.id!r}, which {where}",
                )
        for question_id in analysis.evidence:
            stated = validation.evidence.get(question_id)
            if stated is not None and stated.answer != "not-stated":
                self.report(
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
            self.report(
                "analyses",
                analysis.id,
                ("evidence", GENERATIONAL, "answer"),
                f"expected not-stated or no, found {answer.answer}: every figure of "
                f"{validation.id} is an earlier round's submitted again, which compares nothing",
            )

    def check_checklist(self, checklist: Checklist) -> None:
        """Each item keeps its point: only a published figure can close it, and its text carries
        every validation's own facts through slots, never one validation's numbers."""
        questions = self.records.get("questions", {})
        for index, item in enumerate(checklist.items):
            at: Path_ = ("items", index)
            for position, question_id in enumerate(item.closed_by):
                question = questions.get(question_id)
                if isinstance(question, Question) and question.about != "published-figure":
                    self.report(
                        "checklists",
                        checklist.id,
                        (*at, "closed_by", position),
                        f"expected a question about a published figure, found {question_id!r}, "
                        f"which is about the {question.about.replace('-', ' ')}: knowing what was "
                        "tested never settles what the buyer's own allocation will do, so it "
                        "cannot close this item",
                    )
            names = slots_in(item.text)
            for name in names:
                if name not in SLOTS:
                    self.report(
                        "checklists",
                        checklist.id,
                        (*at, "text"),
                        f"expected one of the slots {', '.join(SLOTS)}, found "
                        f"{{{name}}}" + _suggest(name, list(SLOTS)),
                    )
            if "missing" in names and not item.closed_by:
                self.report(
                    "checklists",
                    checklist.id,
                    (*at, "text"),
                    "expected {missing} only on an item with closing questions, found it on one "
                    "with closed_by: [], so it could name nothing",
                )
            number = DIGITS.search(SLOT_PATTERN.sub(" ", item.text))
            if number is not None:
                self.report(
                    "checklists",
                    checklist.id,
                    (*at, "text"),
                    f"expected a slot such as {{configurations}} for a validation's numbers, "
                    f"found {number[0]!r}: an item is worded for every validation",
                )
