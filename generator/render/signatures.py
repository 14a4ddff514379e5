"""Page signatures: a hash of every input of a generated page, so that a rebuild (as under
`mkdocs serve`) reuses each page whose inputs are unchanged and renders again only the others.

Every value a page's view hands its template is in the signature as it is, so a field added
to a view cannot leave a page stale. What a template reads beyond its view (the site's shared
records, other results' titles and rows) a page names: a record (`"providers:ID"`), everything
one result's pages may show (`"facts:ID"`), the records every result's facts may read
(`"references"`), or all of it (`"*"`, the default).
"""

from __future__ import annotations

import hashlib
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

from pydantic_core import to_json

from generator.derive.site_facts import SiteFacts
from generator.model.site import Site

# Kinds whose records any result's page may read, through its derived facts or its citations.
SHARED_KINDS = {
    "sources",
    "programs",
    "suites",
    "case-studies",
    "checklists",
    "questions",
    "concerns",
}


def _hash(parts: list[Any]) -> str:
    return hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()


class Signatures:
    """The signatures of one render's pages: from the records' digests, the facts derived across
    results, and the templates folder with the build's options."""

    def __init__(
        self, site: Site, facts: SiteFacts, templates_dir: Path, options: list[Any]
    ) -> None:
        self.site = site
        self.facts = facts
        self.templates = _hash(
            [
                (path.relative_to(templates_dir).as_posix(), path.read_bytes().hex())
                for path in sorted(templates_dir.rglob("*"))
                if path.is_file()
            ]
            + options
        )
        self._facts: dict[str, str] = {}
        # The text of each view value, once a render: pages share values (a result's derived
        # facts are on its page, its checklist and each side-by-side page). Held with the value,
        # so its id is not reused while the render lasts.
        self._shown: dict[int, tuple[object, str]] = {}
        self._references: str | None = None
        self._everything: str | None = None

    def references(self) -> str:
        """A hash of the records every result's derived facts may read: programs, suites, case
        studies, checklists, questions, and the sources any page may cite."""
        if self._references is None:
            shared = sorted(
                (key, digest) for key, digest in self.site.digests.items() if key[0] in SHARED_KINDS
            )
            self._references = _hash(shared)
        return self._references

    def result_facts(self, validation_id: str) -> str:
        """A hash of all a page may show of a result: its record and its analysis, its provider
        and platform, the shared records, and what is derived across results (its title, its
        row, a newer release, its partners, successors and predecessor)."""
        found = self._facts.get(validation_id)
        if found is None:
            v = self.site.validations[validation_id]
            digests = self.site.digests
            facts = self.facts
            titles = facts.titles
            found = self._facts[validation_id] = _hash(
                [
                    self.references(),
                    digests.get(("validations", v.id)),
                    digests.get(("providers", v.provider)),
                    digests.get(("platforms", v.platform or "")),
                    titles[v.id],
                    facts.platform_labels[v.id],
                    facts.rows[v.id],
                    facts.newer.get(v.id),
                    [(pair_id, other.id, titles[other.id]) for other, pair_id in
                     facts.partners[v.id]],
                    [(s.id, titles[s.id]) for s in facts.successors.get(v.id, [])],
                    [v.predecessor, titles.get(v.predecessor or "")],
                ]
            )  # fmt: skip
        return found

    def everything(self) -> str:
        if self._everything is None:
            every = [sorted(self.site.digests.items())]
            validations = self.facts.validations
            self._everything = _hash(every + [self.result_facts(v.id) for v in validations])
        return self._everything

    def page(
        self, uri: str, template: str, edit_path: str | None, deps: list[str], view: dict[str, Any]
    ) -> str:
        """A hash of every input of a page: its template folder, the build's options, its view
        (every value the renderer hands the template, as it is: a field added to a view is in
        the signature without being named here), and the records and results it reads beyond
        its view (`"*"` for every one of them)."""
        versions: list[str | None] = []
        for dep in deps:
            kind, _, record_id = dep.partition(":")
            if dep == "*":
                versions.append(self.everything())
            elif dep == "references":
                versions.append(self.references())
            elif kind == "facts":
                versions.append(self.result_facts(record_id))
            else:
                versions.append(self.site.digests.get((kind, record_id)))
        shown = [(name, self._text(value)) for name, value in view.items()]
        return _hash([self.templates, uri, template, edit_path, deps, versions, shown])

    def _text(self, value: object) -> str:
        # A hash of the value as JSON, by pydantic's serializer: every field of every record
        # (repr leaves out a dataclass field marked repr=False), at a tenth of repr's cost; it
        # writes a set in its own order, and the views hold none, so a signature is the same in
        # every process. What it cannot write, it writes as repr does. The hash, not the text,
        # goes into the page's: an index page's view is megabytes at 1,000 validations. Held
        # with the value, so its id is not reused while the render lasts.
        found = self._shown.get(id(value))
        if found is None:
            found = self._shown[id(value)] = (value, self._digest(value))
        return found[1]

    def _digest(self, value: object) -> str:
        # A list, tuple, mapping or dataclass is hashed from its parts' hashes, each part once a
        # render: a side-by-side page's view is a new list of two results' views, and a new
        # pair of two records; written whole for each of 1,964 pages, they were half of an
        # edit's rendering at 1,000 validations.
        parts: list[str]
        if isinstance(value, list | tuple):
            parts = [type(value).__name__, *(self._text(item) for item in value)]
        elif isinstance(value, dict):
            parts = ["dict"]
            for key, item in value.items():
                parts += [to_json(key, fallback=repr).decode("utf-8"), self._text(item)]
        elif is_dataclass(value) and not isinstance(value, type):
            parts = [type(value).__qualname__]
            for field in fields(value):
                parts += [field.name, self._text(getattr(value, field.name))]
        else:
            return hashlib.sha256(to_json(value, fallback=repr)).hexdigest()
        return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()
