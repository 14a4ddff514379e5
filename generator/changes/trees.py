"""The two content trees a diff compares: a folder as it is, or the `content/` folder of a git
revision, read from the repository's objects into a scratch folder (the work tree is never
touched, so a diff runs on any checkout)."""

from __future__ import annotations

import io
import subprocess
import tarfile
from pathlib import Path

CONTENT = "content"


class TreeError(ValueError):
    """A tree that cannot be read: no such folder or revision, or no content in it."""


def content_at(spec: str, repository: Path, scratch: Path) -> tuple[Path, str]:
    """The content folder `spec` names, and how a report names it: a folder, or else a git
    revision of `repository`, whose `content/` is extracted under `scratch`."""
    folder = Path(spec)
    if folder.is_dir():
        return folder, spec
    if not spec or spec.startswith("-"):  # never an option to git
        raise TreeError(f"{spec!r} is neither a folder nor a git revision")
    found = subprocess.run(
        ["git", "-C", str(repository), "rev-parse", "--verify", "--quiet", f"{spec}^{{commit}}"],
        capture_output=True,
        text=True,
        check=False,
    )
    if found.returncode != 0:
        raise TreeError(f"{spec!r} is neither a folder nor a git revision of {repository}")
    commit = found.stdout.strip()
    return extract(repository, commit, CONTENT, scratch), f"{spec} ({commit[:12]})"


def extract(repository: Path, commit: str, folder: str, scratch: Path) -> Path:
    """`folder` as it was at `commit`, written under `scratch`: where it was written."""
    archive = subprocess.run(
        ["git", "-C", str(repository), "archive", "--format=tar", commit, "--", folder],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        raise TreeError(f"revision {commit[:12]} has no {folder}/ folder")
    target = scratch / commit
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        # "data": no member may leave the folder, nor be a device, nor link outside it.
        tar.extractall(target, filter="data")
    return target / folder
