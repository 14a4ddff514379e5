"""Which fields name another record: the `Ref` mark on a field's type, and the walk that
finds every reference a validated record makes through those marks, with no list of them kept
by hand (the reference check in checks/rules/references.py reads it)."""

from __future__ import annotations

import functools
import types
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel


@dataclass(frozen=True)
class Ref:
    """Marks a field whose value is the id of a record of `kind`."""

    kind: str


def unwrap(annotation: Any) -> Any:
    """Strip Annotated and Optional from a type, leaving the type that holds the value."""
    while True:
        origin = get_origin(annotation)
        if origin is Annotated:
            annotation = get_args(annotation)[0]
        elif origin in (Union, types.UnionType):
            options = [arg for arg in get_args(annotation) if arg is not type(None)]
            if len(options) != 1:
                return annotation
            annotation = options[0]
        else:
            return annotation


def _may_refer(annotation: Any, seen: frozenset[type] = frozenset()) -> bool:
    """Whether a value of this type can hold a reference anywhere inside it."""
    if any(isinstance(m, Ref) for m in getattr(annotation, "__metadata__", ())):
        return True
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        if annotation in seen:
            return False  # a model that nests itself: its own fields answer for it
        inside = seen | {annotation}
        return any(
            any(isinstance(m, Ref) for m in info.metadata) or _may_refer(info.annotation, inside)
            for info in annotation.model_fields.values()
        )
    return any(_may_refer(arg, seen) for arg in get_args(annotation))


@functools.cache
def _fields(model: type[BaseModel]) -> tuple[tuple[str, str | None, Any], ...]:
    """A model's fields that can hold a reference: each with the kind it names directly, or
    None where a reference may be inside it. A record's text, numbers and dates are never
    walked: most of a record, and most of the walk's time before."""
    fields: list[tuple[str, str | None, Any]] = []
    for name, info in model.model_fields.items():
        marks = [m for m in info.metadata if isinstance(m, Ref)]
        if marks:
            fields.append((name, marks[0].kind, info.annotation))
        elif _may_refer(info.annotation, frozenset({model})):
            fields.append((name, None, info.annotation))
    return tuple(fields)


def references(
    value: Any, annotation: Any, loc: tuple[str | int, ...] = ()
) -> Iterator[tuple[str, str, tuple[str | int, ...]]]:
    """Every `(kind, id, loc)` that a validated record refers to, found through `Ref` marks."""
    if get_origin(annotation) in (Union, types.UnionType) and value is not None:
        # An optional reference (`PlatformRef | None`) carries its mark inside the union.
        options = [arg for arg in get_args(annotation) if arg is not type(None)]
        if len(options) == 1:
            annotation = options[0]
    refs = [m for m in getattr(annotation, "__metadata__", ()) if isinstance(m, Ref)]
    if refs and isinstance(value, str):
        yield refs[0].kind, value, loc
        return
    annotation = unwrap(annotation)
    if isinstance(value, BaseModel):
        for name, kind, child_annotation in _fields(type(value)):
            child = getattr(value, name)
            if kind is not None and isinstance(child, str):
                yield kind, child, (*loc, name)
            else:
                yield from references(child, child_annotation, (*loc, name))
    elif isinstance(value, list) and get_origin(annotation) is list:
        for index, item in enumerate(value):
            yield from references(item, get_args(annotation)[0], (*loc, index))
    elif isinstance(value, dict) and get_origin(annotation) is dict:
        key_type, value_type = get_args(annotation)
        for key, item in value.items():
            yield from references(key, key_type, (*loc, key))
            yield from references(item, value_type, (*loc, key))
