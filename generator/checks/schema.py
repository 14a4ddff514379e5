"""Schema errors: pydantic's errors on a record, as `path:line:col: field: expected ..., found ...`,
from the positions the loader kept.
"""

from __future__ import annotations

import difflib
import types
from datetime import date
from typing import Any, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from generator.load.document import Document, Path_
from generator.model.fields import ID_PATTERN, PRECISION_PATTERN, URL_PATTERN
from generator.model.references import unwrap
from generator.problems import Problem, describe

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


def suggest(word: str, choices: list[str]) -> str:
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
            + suggest(str(loc[-1]), known)
        )
    elif kind == "literal_error":
        expected = str(ctx.get("expected", ""))
        options = [word.strip(" '") for word in expected.replace(" or ", ", ").split(",")]
        message = f"expected one of {expected}, found {describe(found)}" + suggest(
            str(found), options
        )
    elif kind == "string_pattern_mismatch":
        wanted = _PATTERN_WORDS.get(str(ctx.get("pattern")), f"text matching {ctx.get('pattern')}")
        message = f"expected {wanted}, found {describe(found)}"
    elif kind.endswith("_type") and kind.removesuffix("_type") in _TYPE_WORDS:
        message = f"expected {_TYPE_WORDS[kind.removesuffix('_type')]}, found {describe(found)}"
    elif kind == "too_short" and isinstance(found, list | str):
        message = f"expected at least {ctx.get('min_length', 1)} item(s), found {len(found)}"
    elif kind == "less_than_equal" and isinstance(found, date):
        message = f"expected a date on or before {ctx['le']}, found {found}"
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
