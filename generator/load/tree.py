"""Listing the content folder without ever leaving the repository.

Every file under `content/` comes from a stranger's pull request, and a symbolic link is a file
too: `pages/env.txt -> /proc/self/environ` would publish the build's secrets, and a record linked
to `/etc/passwd` would have its text quoted back in error messages. So the walk never follows a
link to a folder (which is also how a loop can never trap it), refuses a link that resolves
outside the repository or nowhere, and refuses anything that is not a regular file, such as a
FIFO whose read would never end. A refused entry is reported before a byte of it is read.
"""

from __future__ import annotations

import os
from pathlib import Path

from generator.problems import Position, Problem


def _refusal(entry: os.DirEntry[str], repository: Path, content: Path) -> str | None:
    """Why `entry` may not be read, or None if it is a regular file or folder to walk."""
    if entry.is_symlink():
        try:
            target = Path(entry.path).resolve(strict=True)
        except (OSError, RuntimeError):
            return "expected a file, found a symbolic link that resolves to nothing (or loops)"
        if not target.is_relative_to(repository):
            return "expected a file in the repository, found a symbolic link to a path outside it"
        # Inside the repository is not enough: `pages/x.md -> ../../.git/config` would publish
        # the repository's own settings. A link may name only a content file, outside any
        # hidden folder the walk itself skips.
        if not target.is_relative_to(content):
            shown = target.relative_to(repository).as_posix()
            return (
                f"expected a file in the content folder, found a symbolic link to {shown}, "
                "outside it"
            )
        if any(part.startswith(".") for part in target.relative_to(content).parts):
            shown = target.relative_to(repository).as_posix()
            return (
                f"expected a file in the content folder, found a symbolic link to {shown}, "
                "in a hidden folder"
            )
        if target.is_dir():
            return (
                "expected a file, found a symbolic link to a folder, which the walk never follows"
            )
        if not target.is_file():
            return "expected a regular file, found a symbolic link to a special file"
        return None
    if entry.is_dir(follow_symlinks=False) or entry.is_file(follow_symlinks=False):
        return None
    return "expected a regular file, found a special file (a device, FIFO or socket)"


def content_files(folder: Path, shown_root: Path) -> tuple[list[Path], list[Problem]]:
    """Every readable file under `folder`, in path order, and a problem for each refused entry.

    `shown_root` is the repository: paths are shown relative to it, and no link may leave it.
    Names starting with a dot are left out, as MkDocs leaves them out of a site.
    """
    repository = shown_root.resolve()
    content = folder.resolve()
    files: list[Path] = []
    problems: list[Problem] = []

    def visit(directory: Path) -> None:
        try:
            entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
        except OSError as error:
            shown = directory.relative_to(shown_root).as_posix()
            problems.append(
                Problem(shown, Position(1, 1), "", f"expected a readable folder: {error.strerror}")
            )
            return
        for entry in entries:
            if entry.name.startswith("."):
                continue
            path = Path(entry.path)
            refusal = _refusal(entry, repository, content)
            if refusal is not None:
                shown = path.relative_to(shown_root).as_posix()
                problems.append(Problem(shown, Position(1, 1), "", refusal))
            elif entry.is_dir(follow_symlinks=False):
                visit(path)
            else:
                files.append(path)

    visit(folder)
    return files, problems
