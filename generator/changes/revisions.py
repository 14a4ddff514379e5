"""The commits of a content folder: every commit that changed it on the first-parent line of the
checked-out branch (the line main's merges make), each with the day it was committed, in UTC.

Cheap on purpose, and importing nothing of the site: a build reads it to know whether its
changelog would change (pipeline/memo.py keys on it) before deciding to build at all.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path


@dataclass(frozen=True)
class Revisions:
    """Where a content folder sits in its repository, and its commits, oldest first; or why its
    history cannot be read (`why`), with no commits."""

    repository: Path | None
    folder: str  # the content folder's path inside the repository, as git names it
    commits: tuple[tuple[str, date], ...]
    why: str | None = None
    # Each commit git dates after the build's date, with git's date: it is listed on the build's.
    later: dict[str, date] = field(default_factory=dict)


def _git(folder: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), *args],
            capture_output=True,
            text=True,
            check=False,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def revisions(content_dir: Path, as_of: date | None = None) -> Revisions:
    """The content folder's commits, or why there are none to read; none dated after `as_of`,
    the build's date (model/policy.py; today when not given)."""
    content = content_dir.resolve()
    top = _git(content, "rev-parse", "--show-toplevel") if content.is_dir() else None
    if top is None:
        return Revisions(None, "", (), "the content folder is not in a git repository")
    repository = Path(top.strip())
    folder = content.relative_to(repository.resolve()).as_posix()
    if _git(repository, "rev-parse", "--is-shallow-repository") != "false\n":
        # A shallow clone's oldest commit would read as the day everything was added.
        return Revisions(repository, folder, (), "the repository is a shallow clone")
    log = _git(repository, "log", "--first-parent", "--format=%H %ct", "--", folder)
    if log is None:
        return Revisions(repository, folder, (), "git could not read the folder's history")
    latest = as_of or date.today()
    commits: list[tuple[str, date]] = []
    later: dict[str, date] = {}
    for line in reversed(log.splitlines()):
        commit, _, seconds = line.partition(" ")
        # A commit's date is its author's to set: one dated before the commit it follows (or
        # not a date at all) is placed on that commit's day, so the days run in commit order.
        earliest = commits[-1][1] if commits else date.min
        try:
            day = datetime.fromtimestamp(int(seconds), UTC).date()
        except (ValueError, OverflowError, OSError):
            day = earliest
        # And one dated after the build (the year 9999) would date every later commit so too,
        # and the changelog feed's `updated` for good: it is placed on the build's date, and
        # the page says so.
        if day > latest:
            later[commit], day = day, latest
        commits.append((commit, max(day, earliest)))
    if not commits:
        return Revisions(repository, folder, (), "no commit has the content folder yet")
    return Revisions(repository, folder, tuple(commits), later=later)
