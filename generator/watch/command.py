"""`cloudqual watch`: the report of rounds.py, for people (text) or for the scheduled workflow
(json); with --read, what the mapping lacks for each round to import, read from a checkout of
it; with --pin, a moved round whose followed files changed, and which lacks nothing, pinned at
its new commit, ready for `cloudqual import`."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, replace
from pathlib import Path

from generator.checks.loader import load_site
from generator.escape import code_span
from generator.model.imports import InferenceMapping, TrainingMapping
from generator.problems import ContentError, plain, quote
from generator.watch.pin import PinError, pin
from generator.watch.remote import Remote, RemoteError, checkout
from generator.watch.rounds import MLCOMMONS, Finding, lacks, watch

Mapping = TrainingMapping | InferenceMapping
LACK_CHARACTERS = 600  # a problem names a file, a field and a value: a few hundred characters


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--content", type=Path, default=Path("content"))
    parser.add_argument(
        "--base",
        default=MLCOMMONS,
        help="where each round's repository is, as BASE/training_results_vX.Y (default: "
        "MLCommons' GitHub organisation)",
    )
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path(".cache/cloudqual-watch"),
        help="where repositories are fetched to",
    )
    parser.add_argument(
        "--read",
        action="store_true",
        help="check out each new or moved round and list what the mapping lacks to import it",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="with --read: set a moved round that lacks nothing to its new commit in the mapping",
    )
    parser.add_argument(
        "--format",
        choices=["text", "json", "markdown"],
        default="text",
        help="markdown: what a maintainer must add, for the watch's issue (every value from a "
        "round shown as code, so it links and pings nothing)",
    )


def run(args: argparse.Namespace) -> int:
    name = "cloudqual watch"
    try:
        site = load_site(args.content)
    except ContentError as error:
        print(f"{error}\n{name}: the content does not pass the checks.", file=sys.stderr)
        return 1
    remote = Remote(args.base, args.cache.resolve())
    try:
        mappings = {
            program: mapping
            for program, mapping in site.imports.items()
            if isinstance(mapping, TrainingMapping | InferenceMapping)
        }
        found = watch(remote, mappings)
        if args.read:
            found = [_read(remote, mappings, f, args.cache.resolve()) for f in found]
        if args.pin:
            for finding in found:
                if finding.actionable and finding.status == "moved" and not finding.lacks:
                    assert finding.pinned is not None and finding.head is not None
                    mapping = args.content / "imports" / f"{finding.program}.yaml"
                    pin(mapping, finding.round, finding.pinned, finding.head)
    except (RemoteError, PinError) as error:
        print(f"{name}: {quote(str(error))}", file=sys.stderr)
        return 1
    if args.format == "json":
        print(json.dumps([_json(f) for f in found], indent=2, sort_keys=True))
    elif args.format == "markdown":
        print(_markdown(found), end="")
    else:
        for finding in found:
            print(_line(finding))
    return 0


def _read(remote: Remote, mappings: dict[str, Mapping], finding: Finding, cache: Path) -> Finding:
    """The finding with what the mapping lacks, read from a checkout of the round at its head;
    for a training round the mapping compares with an earlier one, that round's checkout too,
    which the import reads to find results submitted again."""
    if not finding.actionable or finding.head is None:
        return finding
    name = finding.repository.rsplit("/", 1)[1]
    into = remote.checkout(name, finding.head, cache / "checkouts" / f"{name}-{finding.head[:12]}")
    mapping = mappings[finding.program]
    missing = [plain(p) for p in lacks(finding.program, mapping, into)]
    earlier = None
    entry = mapping.rounds.get(finding.round)
    if entry is not None and entry.earlier is not None and entry.earlier in mapping.rounds:
        before = mapping.rounds[entry.earlier]
        folder = cache / "checkouts" / f"{entry.earlier}-{before.commit[:12]}"
        earlier = str(checkout(before.repository, before.commit, folder))
    return replace(
        finding, lacks=[*finding.lacks, *missing], checkout=str(into), earlier_checkout=earlier
    )


def _json(finding: Finding) -> dict[str, object]:
    found = asdict(finding)
    found["actionable"] = finding.actionable
    return found


def _markdown(found: list[Finding]) -> str:
    """The rounds a maintainer must act on and what their mappings lack; empty when none does.
    A round's repository is untrusted: each value it gave is a code span."""
    lines = []
    for f in found:
        if not f.actionable or not f.lacks:
            continue
        head = code_span(f.head or "", 40)
        lines += [f"## {f.program} {f.round}: {f.status} at {head}", ""]
        lines += [f"- {code_span(text, LACK_CHARACTERS)}" for text in f.lacks]
        lines.append("")
    return "\n".join(lines)


def _line(finding: Finding) -> str:
    where = f"{finding.program} {finding.round}"
    if finding.status == "unchanged":
        said = f"unchanged at {finding.head}"
    elif finding.status == "absent":
        said = "not there"
    elif finding.status == "copy":
        said = f"MLCommons' repository answers at {finding.head}"
    elif finding.status == "new":
        said = f"new at {finding.head}"
    else:
        said = (
            f"moved from {finding.pinned} to {finding.head}: "
            f"{len(finding.followed)} changed files under the submitters the mapping follows, "
            f"{finding.others} under others"
        )
    lines = [f"{where}: {said}" + (f" ({finding.note})" if finding.note else "")]
    lines += [f"  changed: {quote(path)}" for path in finding.followed]
    lines += [f"  lacks: {text}" for text in finding.lacks]
    return "\n".join(lines)
