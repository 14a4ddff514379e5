"""The context each rule runs in."""

from __future__ import annotations

from generator.load.document import Document, Path_
from generator.model.base import Record
from generator.problems import Problem


class Context:
    """What every rule reads (the records, their documents, the ids of every file) and where its
    problems go."""

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
