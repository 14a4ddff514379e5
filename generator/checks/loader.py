"""From a content folder to a checked `Site`: the whole core, with no MkDocs in sight."""

from __future__ import annotations

import contextlib
import hashlib
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from generator.checks import rules
from generator.checks.budget import check_record
from generator.checks.pages import check_pages
from generator.checks.record_files import (
    check_file_name,
    check_mappings,
    check_modeline,
    check_placement,
)
from generator.checks.rules.context import Context
from generator.checks.schema import validate
from generator.load import snapshot
from generator.load.document import Document
from generator.load.reader import load_text
from generator.load.snapshot import Store
from generator.load.tree import content_files
from generator.model.base import Record
from generator.model.kinds import KINDS
from generator.model.site import Site
from generator.model.validation import Analysis, Validation
from generator.problems import ContentError, Problem

PAGES_FOLDER = "pages"  # hand-written Markdown, not records
IMPORTS_FOLDER = "imports"  # what each import maps, read by `cloudqual import`, not records


def with_analysis(validation: Validation, analysis: Analysis) -> Validation:
    """A validation with its hand-written analysis added: claims and caveats after its own, and
    answers where its own say not-stated (the checks guarantee nothing else is replaced)."""
    return validation.model_copy(
        update={
            "claims": [*validation.claims, *analysis.claims],
            "caveats": [*validation.caveats, *analysis.caveats],
            "evidence": {**validation.evidence, **analysis.evidence},
        }
    )


# A file's document and record, or None where it failed, and the problems found in it alone.
Read = tuple[Document | None, Record | None, list[Problem]]


def _read(
    kind: str,
    path: Path,
    shown: str,
    raw: bytes,
    parsed: Document | None = None,
    clean: bool = False,
) -> Read:
    """A file's reading; `parsed`, its document when a snapshot of it was kept, is checked as
    a document parsed now is, but for its Markdown's budget when its reading was `clean`: no
    check found a problem in the same bytes."""
    problems: list[Problem] = []
    document = parsed
    if document is None:
        document, problems = load_text(shown, raw)
        if document is None:
            return None, None, problems
    problems = problems + check_modeline(kind, shown, raw)
    if not clean:
        problems += check_record(document)
    record, schema_problems = validate(KINDS[kind], document)
    problems += schema_problems
    if record is None:
        return document, None, problems
    misnamed = check_file_name(record, path, document)
    return document, (None if misnamed else record), problems + misnamed


# From this many files to read, they are read in parallel processes: each costs a few
# milliseconds (walking its events, checking and validating it; libyaml parses most of them),
# and starting a process about half a second. Measured with libyaml: 1,198 files in 3.6 s in two
# processes against 4.4 s in one; 298 files in 0.54 s against 0.45 s. The whole load, each in a
# new process, on 2026-12-08: the real content's 464 files in 1.51 to 1.77 s in two processes
# against 1.26 to 1.54 s in one, three times each, alternating; 803 synthetic files 2.97 and
# 3.18 s against 3.03 and 4.71 s; 1,370 files 6.80 and 7.26 s against 9.50 and 7.81 s.
PARALLEL_FROM = 700


def _read_key(key: tuple[str, str, str, bytes]) -> Read:
    kind, path, shown, raw = key
    return _read(kind, Path(path), shown, raw)


def _digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def _snapshots(
    keys: list[tuple[str, str, str, bytes]], stored: Store
) -> dict[tuple[str, str, str, bytes], tuple[Document, bool]]:
    """The documents of `keys` whose snapshots `stored` keeps, by each file's bytes, each with
    whether its reading was clean."""
    found = {}
    for key in keys:
        data = stored.get(_digest(key[3]))
        if isinstance(data, dict) and data.keys() == {"document", "clean"}:
            with contextlib.suppress(ValueError):  # not a snapshot: the file is parsed again
                found[key] = snapshot.document(key[2], data["document"]), data["clean"] is True
    return found


def _read_all(
    keys: list[tuple[str, str, str, bytes]],
    known: dict[tuple[str, str, str, bytes], Read],
    stored: Store | None = None,
) -> dict[tuple[str, str, str, bytes], Read]:
    """Each file's reading: from `known` where its bytes are unchanged, else read now; parsed
    again only where `stored` keeps no snapshot of it, and its snapshot kept, with whether its
    reading was clean."""
    todo = [key for key in keys if key not in known]
    if stored is not None:
        for key in keys:
            if key in known:
                stored.keep(_digest(key[3]))
    parsed = _snapshots(todo, stored) if stored is not None else {}
    read = {key: _read(key[0], Path(key[1]), key[2], key[3], *parsed[key]) for key in parsed}
    todo = [key for key in todo if key not in parsed]
    workers = min(os.cpu_count() or 1, 8)
    if len(todo) >= PARALLEL_FROM and workers > 1:
        # "spawn" starts clean processes, as the chart converters do; a reading is plain data
        # (values, positions, records), so it comes back whole.
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            chunk = max(1, len(todo) // (workers * 4))
            read |= dict(zip(todo, pool.map(_read_key, todo, chunksize=chunk), strict=True))
    else:
        read |= {key: _read_key(key) for key in todo}
    if stored is not None:
        for key in todo:
            document, _, problems = read[key]
            if document is not None:
                kept = {"document": snapshot.snapshot(document), "clean": not problems}
                stored.put(_digest(key[3]), kept)
    return {key: known[key] if key in known else read[key] for key in keys}


def hand_written_pages(content_dir: Path) -> list[Path]:
    """The hand-written pages, found by the walk `load_site` checks them by."""
    every_file, _ = content_files(content_dir, content_dir.parent)
    pages_dir = content_dir / PAGES_FOLDER
    return [path for path in every_file if path.is_relative_to(pages_dir)]


def load_site(
    content_dir: Path,
    shown_root: Path | None = None,
    *,
    known: dict[tuple[str, str, str, bytes], Read] | None = None,
    stored: Store | None = None,
) -> Site:
    """Load, validate and cross-check every record. Raises `ContentError` listing every problem.

    `known` holds each file's reading from the last load, by its bytes, and is updated: under
    `mkdocs serve`, an edit reads, parses and validates again only the files that changed. The
    cross-record checks always run on the whole site. `stored` keeps each file's parsed document
    across processes (load/snapshot.py): a file whose snapshot it holds is not parsed again."""
    shown_root = shown_root or content_dir.parent
    every_file, problems = content_files(content_dir, shown_root)
    pages_dir = content_dir / PAGES_FOLDER
    page_files = [path for path in every_file if path.is_relative_to(pages_dir)]
    problems += check_pages(page_files, pages_dir, shown_root, stored)
    imports_dir = content_dir / IMPORTS_FOLDER
    mappings, mapping_problems = check_mappings(
        [path for path in every_file if path.is_relative_to(imports_dir)], shown_root
    )
    problems += mapping_problems
    record_files = [
        path
        for path in every_file
        if not path.is_relative_to(pages_dir) and not path.is_relative_to(imports_dir)
    ]
    files, misplaced = check_placement(record_files, content_dir, shown_root)
    problems += misplaced
    records: dict[str, dict[str, Record]] = {kind: {} for kind in KINDS}
    documents: dict[tuple[str, str], Document] = {}
    shown_paths: dict[tuple[str, str], str] = {}
    digests: dict[tuple[str, str], str] = {}
    present: dict[str, set[str]] = {kind: set() for kind in KINDS}
    keys = [(kind, str(path), shown, path.read_bytes()) for kind, path, shown in files]
    kept = _read_all(keys, known or {}, stored)
    for (kind, path, shown), key in zip(files, keys, strict=True):
        present[kind].add(path.stem)
        raw = key[3]
        document, record, file_problems = kept[key]
        problems += file_problems
        if document is None or record is None:
            continue
        records[kind][record.id] = record
        documents[(kind, record.id)] = document
        shown_paths[(kind, record.id)] = shown
        digests[(kind, record.id)] = hashlib.sha256(raw).hexdigest()
    if known is not None:  # only this load's files: the memory stays the size of the content
        known.clear()
        known.update(kept)
    problems += rules.run(Context(records, documents, present))
    if any(problem.severity == "error" for problem in problems):
        raise ContentError(problems)
    for analysis in records["analyses"].values():
        assert isinstance(analysis, Analysis)
        both = digests[("validations", analysis.id)] + digests[("analyses", analysis.id)]
        digests[("validations", analysis.id)] = hashlib.sha256(both.encode()).hexdigest()
        records["validations"][analysis.id] = with_analysis(
            records["validations"][analysis.id],  # type: ignore[arg-type]
            analysis,
        )
    return Site(
        **{kind.replace("-", "_"): dict(sorted(by_id.items())) for kind, by_id in records.items()},  # type: ignore[arg-type]
        files=shown_paths,
        warnings=sorted(problems),
        digests=digests,
        imports=mappings,
    )
