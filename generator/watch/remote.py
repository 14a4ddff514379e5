"""The one interface the watch reads repositories through: git, against a base address under
which each round's repository is named (https://github.com/mlcommons by default; a local folder
of repositories in the tests).

Every call is a git command with a time limit; an answer git cannot give (no network, a host
that refuses) stops the watch with the command's own words, never a guess that a round is or is
not there.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

# What git says, in English (LC_ALL=C), when the repository is not there.
ABSENT = re.compile(
    r"repository .* not found|does not appear to be a git repository|Repository not found|"
    r"could not read Username",
    re.IGNORECASE,
)
TIMEOUT = 600  # seconds: a clone of a round's trees takes minutes on a runner


class RemoteError(Exception):
    """Git could not answer: the watch stops rather than report a round wrongly."""


@dataclass(frozen=True)
class Remote:
    base: str  # the address each repository is named under: BASE/NAME
    cache: Path  # where trees are fetched to, one bare repository per name

    def url(self, name: str) -> str:
        return f"{self.base.rstrip('/')}/{name}"

    def head(self, name: str) -> str | None:
        """The commit the repository's default branch is at; None where there is no such
        repository."""
        done = _git(["ls-remote", self.url(name), "HEAD"], None, absent_ok=True)
        if done is None:
            return None
        line = done.strip().split("\n")[0]
        commit = line.split("\t")[0] if line else ""
        if not re.fullmatch(r"[0-9a-f]{40}", commit):
            raise RemoteError(f"git ls-remote {self.url(name)}: no HEAD, found {done!r}")
        return commit

    def trees(self, name: str) -> Path:
        """A bare copy of the repository with its commits and trees, no file contents (a round
        is gigabytes of logs; its trees are megabytes), fetched again on each call."""
        folder = self.cache / f"{name}.git"
        if not folder.is_dir():
            folder.parent.mkdir(parents=True, exist_ok=True)
            _git(["clone", "--bare", "--filter=blob:none", "--quiet", self.url(name), str(folder)])
        else:
            _git(["--git-dir", str(folder), "fetch", "--quiet", "--filter=blob:none", "origin"])
        return folder

    def changed(self, name: str, old: str, new: str) -> list[str] | None:
        """The paths that differ between two commits; None where `old` is not in the repository
        (MLCommons rewrote its history, or the pin is on a ref the default branch never held)."""
        folder = self.trees(name)
        known = _git(
            ["--git-dir", str(folder), "cat-file", "-e", f"{old}^{{commit}}"], None, quiet=True
        )
        if known is None:
            return None
        listed = _git(["--git-dir", str(folder), "diff", "--name-only", "--no-renames", old, new])
        return [line for line in (listed or "").split("\n") if line]

    def checkout(self, name: str, commit: str, into: Path) -> Path:
        """The repository's files at `commit`, in `into`, as the import reads them."""
        return checkout(self.url(name), commit, into)


def checkout(url: str, commit: str, into: Path) -> Path:
    """The files of the repository at `url` at `commit`, in `into` (kept: a checkout is reused)."""
    if not into.is_dir():
        _git(["clone", "--quiet", "--no-checkout", url, str(into)])
        _git(["-C", str(into), "checkout", "--quiet", commit])
    return into


def _git(
    arguments: list[str], cwd: Path | None = None, *, absent_ok: bool = False, quiet: bool = False
) -> str | None:
    """Run git; its output. With `absent_ok`, None where the repository is not there; with
    `quiet`, None on any failure (a test of existence)."""
    try:
        done = subprocess.run(
            ["git", *arguments],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            env={**os.environ, "LC_ALL": "C", "GIT_TERMINAL_PROMPT": "0"},
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise RemoteError(f"git {' '.join(arguments)}: {error}") from error
    if done.returncode == 0:
        return done.stdout
    if quiet or (absent_ok and ABSENT.search(done.stderr)):
        return None
    raise RemoteError(f"git {' '.join(arguments)}: {done.stderr.strip() or done.returncode}")
