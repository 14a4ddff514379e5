"""The reference walk skips the fields that can hold no reference (model/references.py `_fields`):
it must still find every one a walk of every field finds, on every record of the real content."""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Iterator
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel

from generator.model.references import Ref, references, unwrap
from generator.model.site import Site


def every_field(value: Any, annotation: Any, loc: tuple[str | int, ...] = ()) -> Iterator[Any]:
    """The walk as it was before the skipping: every field of every model, every item."""
    if get_origin(annotation) in (Union, types.UnionType) and value is not None:
        options = [arg for arg in get_args(annotation) if arg is not type(None)]
        if len(options) == 1:
            annotation = options[0]
    marks = [m for m in getattr(annotation, "__metadata__", ()) if isinstance(m, Ref)]
    if marks and isinstance(value, str):
        yield marks[0].kind, value, loc
        return
    annotation = unwrap(annotation)
    if isinstance(value, BaseModel):
        for name, info in type(value).model_fields.items():
            field_marks = [m for m in info.metadata if isinstance(m, Ref)]
            child = getattr(value, name)
            if field_marks and isinstance(child, str):
                yield field_marks[0].kind, child, (*loc, name)
            else:
                yield from every_field(child, info.annotation, (*loc, name))
    elif isinstance(value, list) and get_origin(annotation) is list:
        for index, item in enumerate(value):
            yield from every_field(item, get_args(annotation)[0], (*loc, index))
    elif isinstance(value, dict) and get_origin(annotation) is dict:
        key_type, value_type = get_args(annotation)
        for key, item in value.items():
            yield from every_field(key, key_type, (*loc, key))
            yield from every_field(item, value_type, (*loc, key))


def test_the_walk_finds_what_a_walk_of_every_field_finds(real_site: Site) -> None:
    records = [
        record
        for field in dataclasses.fields(real_site)
        if isinstance(kind := getattr(real_site, field.name), dict)
        for record in kind.values()
        if isinstance(record, BaseModel)
    ]
    assert len(records) > 400
    found = [list(references(record, type(record))) for record in records]
    assert found == [list(every_field(record, type(record))) for record in records]
    kinds = {kind for refs in found for kind, _, _ in refs}
    assert {"sources", "providers", "programs", "platforms"} <= kinds
