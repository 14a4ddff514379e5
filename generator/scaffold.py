"""`cloudqual new`: a record file written from the schema, for a contributor to fill in.

Every required field is written with its description as a comment and a placeholder that
`cloudqual check` rejects until it is filled: empty text, `null` where null is not allowed, an
empty list where one item is needed. Nothing is guessed: the only values filled in are the id
and today's review date.
"""

from __future__ import annotations

import json
import textwrap
from datetime import date
from typing import Any

from generator.checks.record_files import modeline
from generator.model.kinds import KINDS

_WIDTH = 98


class _Writer:
    def __init__(self, schema: dict[str, Any], record_id: str, questions: list[str]) -> None:
        self.defs = schema.get("$defs", {})
        self.record_id = record_id
        self.questions = questions
        self.lines: list[str] = []

    def resolve(self, node: dict[str, Any]) -> dict[str, Any]:
        if "$ref" in node:
            return dict(self.defs[node["$ref"].rsplit("/", 1)[-1]])
        return node

    def comment(self, indent: str, node: dict[str, Any]) -> None:
        notes = []
        if node.get("description"):
            notes.append(node["description"])
        options = self.options(node)
        if options:
            notes.append("One of: " + ", ".join(options) + ".")
        item = self.resolve(node.get("items", {}))
        if "properties" in item:
            required = item.get("required", [])
            parts = [
                f"{name}{'' if name in required else ' (optional)'}" for name in item["properties"]
            ]
            notes.append("Each item is a mapping of " + ", ".join(parts) + ".")
        for note in notes:
            for line in textwrap.wrap(note, _WIDTH - len(indent) - 2, break_on_hyphens=False):
                self.lines.append(f"{indent}# {line}")

    def options(self, node: dict[str, Any]) -> list[str]:
        node = self.resolve(node)
        for choice in node.get("anyOf", []):
            if choice.get("type") != "null" and (found := self.options(choice)):
                return found
        if "enum" in node:
            return [str(value) for value in node["enum"]]
        if "const" in node:
            return [str(node["const"])]
        return []

    def placeholder(self, name: str, node: dict[str, Any]) -> str:
        """An inline value for a leaf field."""
        if name == "id":
            return self.record_id
        if name == "last_reviewed":
            return date.today().isoformat()
        choices = [self.resolve(c) for c in node.get("anyOf", [])]
        if any(c.get("type") == "null" for c in choices):
            return "null"
        kind = node.get("type")
        if kind == "array":
            return "[]"
        if kind in ("integer", "number", "boolean") or node.get("format") == "date":
            return "null"
        return '""'

    def fields(self, node: dict[str, Any], indent: str) -> None:
        node = self.resolve(node)
        required = node.get("required", [])
        for name, field in node.get("properties", {}).items():
            if name not in required:
                continue
            field_node = self.resolve(field)
            self.comment(
                indent,
                {
                    **field_node,
                    "description": field.get("description") or field_node.get("description"),
                },
            )
            if "patternProperties" in field_node:
                self.mapping_of_answers(name, field_node, indent)
            elif field_node.get("type") == "object" and "properties" in field_node:
                self.lines.append(f"{indent}{name}:")
                self.fields(field_node, indent + "  ")
            else:
                self.lines.append(f"{indent}{name}: {self.placeholder(name, field_node)}")
        optional = [name for name in node.get("properties", {}) if name not in required]
        if optional and not indent:
            self.lines.append(f"# Optional fields: {', '.join(optional)}.")

    def mapping_of_answers(self, name: str, node: dict[str, Any], indent: str) -> None:
        """A mapping keyed by record ids (evidence answers): one entry per existing question."""
        entry = self.resolve(next(iter(node["patternProperties"].values())))
        if not self.questions:
            self.lines.append(f"{indent}{name}: {{}}")
            return
        self.lines.append(f"{indent}{name}:")
        for index, question in enumerate(self.questions):
            self.lines.append(f"{indent}  {question}:")
            start = len(self.lines)
            self.fields(entry, indent + "    ")
            if index:  # explain the fields once, on the first entry
                self.lines[start:] = [
                    line for line in self.lines[start:] if not line.lstrip().startswith("#")
                ]


def scaffold(kind: str, record_id: str, questions: list[str]) -> str:
    """The text of a new record of `kind`, from its JSON Schema."""
    schema = json.loads(json.dumps(KINDS[kind].model_json_schema()))
    writer = _Writer(schema, record_id, questions)
    writer.fields(schema, "")
    return "\n".join([modeline(kind), *writer.lines]) + "\n"
