"""The one schema: strict types, no extra fields, committed JSON Schemas in step with the models."""

from __future__ import annotations

import json

import pytest
from conftest import ROOT
from pydantic import ValidationError

from generator.checks.record_files import modeline
from generator.model.kinds import KINDS
from generator.model.providers import Provider
from generator.model.schemas import json_schemas
from generator.model.validation import Scope


def test_committed_schemas_are_current() -> None:
    committed = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "schemas").glob("*.json")}
    assert committed == json_schemas(), "schemas/ is stale: run `cloudqual schema`"


def test_schemas_forbid_undeclared_fields() -> None:
    for name, text in json_schemas().items():
        assert json.loads(text)["additionalProperties"] is False, name


def test_every_content_file_starts_with_its_modeline() -> None:
    for kind in KINDS:
        for path in (ROOT / "content" / kind).glob("*.yaml"):
            first = path.read_text(encoding="utf-8").splitlines()[0]
            assert first == modeline(kind), path


@pytest.mark.parametrize(
    "count",
    [True, "512", 512.0, 0, -8],
)
def test_scope_rejects_loose_or_impossible_counts(count: object) -> None:
    fields = {
        "source": "s",
        "grade": "provider-reported",
        "framework": None,
        "recipe_release": None,
        "models": None,
        "configurations": None,
        "precisions": [],
        "architectures": [],
    }
    assert Scope.model_validate({**fields, "accelerators": 512}).accelerators == 512
    with pytest.raises(ValidationError, match="accelerators"):
        Scope.model_validate({**fields, "accelerators": count})


def test_undeclared_field_is_rejected() -> None:
    with pytest.raises(ValidationError) as raised:
        Provider.model_validate(
            {"id": "p", "name": "n", "url": None, "summary": "s", "website": "x"}
        )
    assert raised.value.errors()[0]["type"] == "extra_forbidden"


def test_nullable_fields_must_still_be_written() -> None:
    with pytest.raises(ValidationError) as raised:
        Provider.model_validate({"id": "p", "name": "n", "summary": "s"})
    assert raised.value.errors()[0]["loc"] == ("url",)
