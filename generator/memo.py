"""The last build, remembered: an unchanged rebuild reuses it whole instead of making it again.

Its key is a hash of every input a render reads: each file of the content folder and of the
templates, the generator's own source, the version of every installed distribution, and the
build's options (the as-of date, the policy's windows, the URL style, the site URL). Change any
of them and the key changes, so a remembered build is never out of date; reading it costs a hash
of the inputs and one file, and imports none of the code that renders.

One build is kept, so the memo stays the size of one site. It is stored as JSON, which holds
data and never code. Caches live outside the project by default (`default_cache_dir`): a
pull request can add any file to the repository, and a file it placed in a cache would be served
as the site.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import stat
import sysconfig
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from .output import Output, Page

PACKAGE = Path(__file__).resolve().parent
# A new layout of the stored build is a new key, never a misread file.
FORMAT = "2"


def default_cache_dir(project: Path) -> Path:
    """The cache folder of a project: under the user's cache folder, one per project path, so
    two checkouts never prune each other's charts."""
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    name = hashlib.sha256(str(project.resolve()).encode("utf-8")).hexdigest()[:16]
    return root / "cloudqual" / name


def _entries(folder: Path, pattern: str) -> Iterator[tuple[str, bytes]]:
    """Each file under `folder` by name, with its bytes; a symbolic link with where it points,
    never followed; other special files left out. The loader refuses what it must of these,
    with a position: the key only has to change when they do."""
    for path in sorted(folder.rglob(pattern)):
        mode = path.lstat().st_mode
        name = path.relative_to(folder).as_posix()
        if stat.S_ISLNK(mode):
            yield f"{name} ->", str(path.readlink()).encode("utf-8", "surrogateescape")
        elif stat.S_ISREG(mode):
            yield name, path.read_bytes()


@cache
def installed() -> str:
    """Every installed distribution and its version, read from the names of their metadata
    folders (`altair-5.5.0.dist-info`): parsing each one's metadata would cost more than the
    rest of the key. Once a process: nothing is installed while a build runs."""
    names = set()
    # The environment's own folders, not sys.path, which changes with how a command is started.
    for folder in {Path(sysconfig.get_path("purelib")), Path(sysconfig.get_path("platlib"))}:
        if folder.is_dir():
            names |= {p.name for p in folder.iterdir() if p.suffix in (".dist-info", ".egg-info")}
    return "\0".join(sorted(names))


def code_version() -> str:
    """The hash of the generator's own source and every installed distribution: what a cache of
    anything the generator, or a tool it runs, made from the same files depends on."""
    digest = hashlib.sha256(b"cloudqual code\0")
    for name, data in _entries(PACKAGE, "*.py"):
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    digest.update(installed().encode())
    return digest.hexdigest()


def fingerprint(content_dir: Path, templates_dir: Path, options: dict[str, Any]) -> str | None:
    """The hash of everything a render of `content_dir` with `options` depends on; None when a
    file cannot be read, so the build goes on to the loader, which says why."""
    digest = hashlib.sha256(f"cloudqual memo {FORMAT}\0".encode())
    try:
        for label, folder, pattern in (
            ("content", content_dir, "*"),
            ("templates", templates_dir, "*"),
            ("generator", PACKAGE, "*.py"),
        ):
            for name, data in _entries(folder, pattern):
                digest.update(f"{label}/{name}\0{len(data)}\0".encode())
                digest.update(data)
    except OSError:
        return None
    digest.update(installed().encode())
    digest.update(json.dumps(options, sort_keys=True, default=str).encode())
    return digest.hexdigest()


@dataclass(frozen=True)
class Remembered:
    """A build as remembered: its output, and the content warnings it gave."""

    output: Output
    warnings: list[str]


class Memo:
    """One remembered build in `folder`, under its key."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, key: str) -> Path:
        return self.folder / f"site-{key}.json"

    def get(self, key: str) -> Remembered | None:
        try:
            stored = json.loads(self._path(key).read_bytes())
        except (OSError, ValueError):
            return None  # none, or unreadable: the build is made again
        pages, signed = {}, {}
        for uri, markdown, edit, signature in stored["pages"]:
            pages[uri] = Page(uri, markdown, edit)
            if signature is not None:
                signed[uri] = (signature, pages[uri])
        data = {uri: text.encode("utf-8") for uri, text in stored["text"].items()}
        data |= {uri: base64.b64decode(value) for uri, value in stored["binary"].items()}
        return Remembered(Output(pages, data, signed), stored["warnings"])

    def put(self, key: str, output: Output, warnings: list[str]) -> None:
        text, binary = {}, {}
        for uri, content in output.data.items():
            try:
                text[uri] = content.decode("utf-8")
            except UnicodeDecodeError:
                binary[uri] = base64.b64encode(content).decode("ascii")
        stored = {
            "pages": [
                [p.uri, p.markdown, p.edit_path, output.signed.get(p.uri, (None,))[0]]
                for p in output.pages.values()
            ],
            "text": text,
            "binary": binary,
            "warnings": warnings,
        }
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self._path(key)
        # Write then rename, so a build stopped midway never leaves half a memo.
        partial = path.with_name(f"{path.name}.partial-{os.getpid()}")
        partial.write_text(json.dumps(stored, ensure_ascii=False), encoding="utf-8")
        partial.replace(path)
        for other in self.folder.glob("site-*.json*"):
            if other != path:
                other.unlink(missing_ok=True)
