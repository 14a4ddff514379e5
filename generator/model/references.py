"""Which fields name another record: the `Ref` mark on a field's type, and the walk that
finds every reference a validated record makes through those marks, with no list of them kept
by hand (the reference check in checks/rules/references.py reads it)."""

from __future__ import annotations

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
        for name, info in type(value).model_fields.items():
            field_refs = [m for m in info.metadata if isinstance(m, Ref)]
            child = getattr(value, name)
            if field_refs and isinstance(child, str):
                yield field_refs[0].kind, child, (*loc, name)
            else:
                yield from references(child, info.annotation, (*loc, name))
    elif isinstance(value, list) and get_origin(annotation) is list:
        for index, item in enumerate(value):
            yield from references(item, get_args(annotation)[0], (*loc, index))
    elif isinstance(value, dict) and get_origin(annotation) is dict:
        key_type, value_type = get_args(annotation)
        for key, item in value.items():
            yield from references(key, key_type, (*loc, key))
            yield from references(item, value_type, (*loc, key))
