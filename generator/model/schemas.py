"""The JSON Schema of every content file: each record kind's, and each import mapping's, by the
file name committed under `schemas/` (and published with the site)."""

from __future__ import annotations

import json
from functools import cache

from generator.model.base import Strict
from generator.model.imports import MAPPINGS
from generator.model.kinds import KINDS


def json_schemas() -> dict[str, str]:
    """The JSON Schema of each record kind and import mapping, by file name."""
    return dict(_json_schemas())


@cache
def _json_schemas() -> dict[str, str]:
    # Made from the models alone: once a process, however often `mkdocs serve` rebuilds.
    named: dict[str, type[Strict]] = dict(KINDS)
    named |= {f"imports-{program}": model for program, model in MAPPINGS.items()}
    return {
        f"{name}.schema.json": json.dumps(model.model_json_schema(), indent=2, sort_keys=True)
        + "\n"
        for name, model in named.items()
    }
