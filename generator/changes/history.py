"""The changelog's facts: each commit of the content folder compared, as `cloudqual diff`
compares two trees, with the last commit before it whose records pass today's checks.

Both sides of a comparison are judged on the day of the later commit, so a change is what the
commit did, not what the calendar did between two days. A commit whose records do not pass
today's checks (the schema has moved on since) is listed, and not compared; the next commit that
passes is compared with the last one before it that did. The first commit that passes is where
the comparisons start: it is listed with its count of results, not as every result added.

Only the latest commits are compared (LATEST_COMMITS): the first of them is compared with the
commit before it, when that one passes, and the page says the older history is in git.
"""

from __future__ import annotations

import tempfile
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from generator.changes.compare import Change, changes
from generator.changes.result_facts import ResultFacts
from generator.changes.revisions import Revisions
from generator.changes.trees import TreeError, extract
from generator.model.policy import Policy
from generator.problems import ContentError

# How many of the content's latest commits the changelog compares. Each costs 0.8 to 1.6 s to
# read and compare (two trees checked in full), CI keeps nothing of it between publishes, and
# the Pages workflow stops its build job at 30 minutes (.github/workflows/pages.yml): a history of
# a few thousand commits would not fit. 300 take at most 8 minutes; older commits are in git.
LATEST_COMMITS = 300


class Step(BaseModel):
    """One commit of the content folder, and what it changed."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    commit: str
    day: date  # the day it was committed, in UTC
    base: str | None  # the commit it was compared with; None when it was not compared
    results: int | None  # how many results it holds; None when its records could not be read
    # Why its records could not be read: they fail today's checks, or reading them failed.
    unread: Literal["checks", "error"] | None = None
    changes: list[Change]
    # The day git dates it, when that is after the build's date: it is listed on the build's.
    dated: date | None = None
    # On the oldest commit listed: how many commits of the content before it are not listed.
    earlier: int = 0


class History(BaseModel):
    """Every commit of the content folder, oldest first; or why there is no history to show."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    steps: list[Step]
    why: str | None = None

    def days(self) -> list[tuple[date, list[Step]]]:
        """The commits by day, the newest day first; each day's commits oldest first."""
        by_day: dict[date, list[Step]] = {}
        for step in self.steps:
            by_day.setdefault(step.day, []).append(step)
        return sorted(by_day.items(), reverse=True)


@lru_cache(maxsize=512)
def _facts(
    repository: Path, folder: str, commit: str, day: date
) -> dict[str, ResultFacts] | Literal["checks", "error"]:
    """A commit's results as a build on `day` would show them; or why they could not be read.
    Kept for the process: a commit's content never changes, and `mkdocs serve` asks again on
    each rebuild."""
    # Imported here: the diff's loader pulls in the whole of the checks.
    from generator.changes.diff import facts_of

    with tempfile.TemporaryDirectory(prefix="cloudqual-history-") as scratch:
        try:
            content = extract(repository, commit, folder, Path(scratch))
            return facts_of(content, Policy(day))
        except (ContentError, TreeError):
            return "checks"
        except Exception:
            # An old commit stays in the history for good: one that today's code cannot read
            # is listed as such, and must not stop every later build of the site.
            return "error"


class Store(Protocol):
    """Where what was read from each commit is kept between builds (pipeline/memo.py's Kept)."""

    def get(self, key: str) -> Any: ...

    def put(self, key: str, value: Any) -> None: ...


_FACTS = TypeAdapter(dict[str, ResultFacts])


def _kept(
    store: Store | None, repository: Path, folder: str, commit: str, day: date
) -> dict[str, ResultFacts] | Literal["checks", "error"]:
    """`_facts`, kept in `store` across builds: a commit's content never changes."""
    if store is None:
        return _facts(repository, folder, commit, day)
    key = f"{folder}\0{commit}\0{day.isoformat()}"
    stored = store.get(key)
    if isinstance(stored, dict) and stored.get("unread") in ("checks", "error"):
        unread: Literal["checks", "error"] = stored["unread"]
        return unread
    if isinstance(stored, dict) and "facts" in stored:
        try:
            return _FACTS.validate_python(stored["facts"])
        except ValidationError:
            pass  # written by other code: read again
    found = _facts(repository, folder, commit, day)
    if isinstance(found, str):
        store.put(key, {"unread": found})
    else:
        store.put(key, {"facts": _FACTS.dump_python(found, mode="json")})
    return found


def history(
    found: Revisions, store: Store | None = None, *, latest: int = LATEST_COMMITS
) -> History:
    """What each of the `latest` commits of the content folder changed. `store` keeps what each
    commit held across builds."""
    if found.repository is None or found.why is not None:
        return History(steps=[], why=found.why)
    repository = found.repository
    start = max(0, len(found.commits) - max(1, latest))
    steps: list[Step] = []
    last: str | None = None  # the last commit whose records pass the checks
    if start:  # the commit before the first listed: read, not listed, to compare it with
        before, day = found.commits[start - 1]
        if not isinstance(_kept(store, repository, found.folder, before, day), str):
            last = before
    for commit, day in found.commits[start:]:
        dated = found.later.get(commit)
        earlier = 0 if steps else start
        head = _kept(store, repository, found.folder, commit, day)
        if isinstance(head, str):
            steps.append(
                Step(commit=commit, day=day, base=None, results=None, unread=head, changes=[],
                     dated=dated, earlier=earlier)
            )  # fmt: skip
            continue
        base = None if last is None else _kept(store, repository, found.folder, last, day)
        if isinstance(base, str):  # it was read on its own day; on this one it could not be
            base = None
        steps.append(
            Step(
                commit=commit,
                day=day,
                base=last if base is not None else None,
                results=len(head),
                changes=changes(base, head) if base is not None else [],
                dated=dated,
                earlier=earlier,
            )
        )
        last = commit
    return History(steps=steps)
