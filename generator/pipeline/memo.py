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

Nor is a stored build trusted as it is read: whoever can write the cache folder (`cache_dir` may
name one in the project) could make it write outside the site, or carry a script that the policy's
'self' would run; and the templates' compiled code, kept the same way (`TemplateCode`), is code
this process runs. So it is sealed with a keyed hash of its key and its entries (`seal`), whose
secret is made once per user and kept in the user's cache folder, never a project's (render/seal.py,
which seals the cached charts too); and each entry is checked as it is read: its schema, and every
path inside the output. A build that fails either is not used, and says why (`Memo.refused`): the
site is built in full.

The cache folder may be any folder, so the memo removes only files that it wrote: named as it names
them and starting as its files start (HEADER).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import importlib.util
import json
import os
import stat
import sys
import sysconfig
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from generator.render.output import (
    Marker,
    Output,
    Page,
    check_writable,
    claim,
    stays_inside,
)
from generator.render.seal import cache_root, keyed_hash, matches

# The package root: pipeline/ sits one folder below it.
PACKAGE = Path(__file__).resolve().parent.parent
# A new layout of the stored build is a new key, never a misread file.
FORMAT = "3"
# How every stored build starts: its seal, on a line of its own, then its entries.
HEADER = b'{"cloudqual memo": '
CACHE_VARIABLE = "CLOUDQUAL_CACHE_DIR"
FIELDS = ("pages", "text", "binary", "warnings")


def default_cache_dir(project: Path) -> Path:
    """The cache folder of a project: under the user's cache folder, one per project path, so
    two checkouts never prune each other's charts. CACHE_VARIABLE, when set, names it instead,
    relative to the project: CI names one outside the checkout, at the same place in each job,
    to restore the charts main drew into (the secret of the seal stays in the user's folder)."""
    named = os.environ.get(CACHE_VARIABLE)
    if named:
        return project / named
    name = hashlib.sha256(str(project.resolve()).encode("utf-8")).hexdigest()[:16]
    return cache_root() / name


def _mac(key: str, body: bytes) -> str | None:
    return keyed_hash(f"memo {FORMAT}", key, body)


def seal(key: str, body: bytes) -> bytes | None:
    """A stored build's file: a line binding `body`, its entries, to `key` with a keyed hash,
    then the entries. None when there is no secret to seal with."""
    mac = _mac(key, body)
    if mac is None:
        return None
    header = {"cloudqual memo": FORMAT, "key": key, "mac": mac}
    return json.dumps(header).encode("utf-8") + b"\n" + body


def _unsealed(key: str, raw: bytes) -> Any:
    """The entries of a stored build, once its seal holds for `key`; ValueError says why not."""
    head, newline, body = raw.partition(b"\n")
    if not raw.startswith(HEADER) or not newline:
        raise ValueError("expected a sealed build, found a file without a seal")
    header = json.loads(head)
    if not isinstance(header, dict) or header.get("cloudqual memo") != FORMAT:
        raise ValueError(f"expected a build stored in format {FORMAT}, found another")
    if header.get("key") != key:
        raise ValueError("expected a build stored under its own key, found another key")
    expected = _mac(key, body)
    if expected is None:
        raise ValueError(f"expected the secret that seals builds in {cache_root()}, found none")
    if not matches(header.get("mac"), expected):
        raise ValueError("expected its seal to match its entries, found it changed since")
    return json.loads(body)


def _found(value: object) -> str:
    shown = repr(value)
    return shown if len(shown) <= 80 else shown[:77] + "..."


def _path(value: object, what: str) -> str:
    if not stays_inside(value):
        raise ValueError(f"{what}: expected a path inside the site, found {_found(value)}")
    assert isinstance(value, str)
    return value


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what}: expected text, found {_found(value)}")
    return value


def _mapping(value: object, what: str) -> dict[str, str]:
    """A stored field of files: each path inside the site, each value text."""
    if not isinstance(value, dict):
        raise ValueError(f"{what}: expected a mapping of paths to files, found {_found(value)}")
    return {_path(uri, what): _text(text, f"{what} {uri}") for uri, text in value.items()}


def _remembered(stored: object) -> Remembered:
    """The build `stored` holds, each entry checked: a sealed build is the memo's own, but a
    path that left the site would write anywhere, so each is checked all the same."""
    if not isinstance(stored, dict) or sorted(stored) != sorted(FIELDS):
        found = sorted(stored) if isinstance(stored, dict) else type(stored).__name__
        raise ValueError(f"expected the fields {', '.join(FIELDS)}, found {_found(found)}")
    entries = stored["pages"]
    if not isinstance(entries, list):
        raise ValueError(f"pages: expected a list, found {_found(entries)}")
    pages: dict[str, Page] = {}
    signed = {}
    for entry in entries:
        if not isinstance(entry, list) or len(entry) != 4:
            raise ValueError(
                f"pages: expected [path, markdown, edit path, signature], found {_found(entry)}"
            )
        uri = _path(entry[0], "pages")
        if uri in pages:
            raise ValueError(f"pages: expected each page once, found {uri!r} twice")
        markdown = _text(entry[1], f"pages {uri}")
        edit = None if entry[2] is None else _path(entry[2], f"pages {uri}: edit path")
        pages[uri] = Page(uri, markdown, edit)
        if entry[3] is not None:
            signed[uri] = (_text(entry[3], f"pages {uri}: signature"), pages[uri])
    text = _mapping(stored["text"], "text")
    binary = _mapping(stored["binary"], "binary")
    if text.keys() & binary.keys():
        raise ValueError("data: expected each file once, found one both as text and as bytes")
    data = {uri: content.encode("utf-8") for uri, content in text.items()}
    for uri, encoded in binary.items():
        try:
            data[uri] = base64.b64decode(encoded, validate=True)
        except binascii.Error:
            raise ValueError(f"binary {uri}: expected base64, found {_found(encoded)}") from None
    warnings = stored["warnings"]
    if not isinstance(warnings, list):
        raise ValueError(f"warnings: expected a list, found {_found(warnings)}")
    return Remembered(Output(pages, data, signed), [_text(w, "warnings") for w in warnings])


def _is_memo(path: Path) -> bool:
    """Whether `path` is a stored build (or one being written): a file that starts as the
    memo's files start. Never a link."""
    try:
        if not stat.S_ISREG(path.lstat().st_mode):
            return False
        with path.open("rb") as file:
            return file.read(len(HEADER)) == HEADER
    except OSError:
        return False


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


@cache
def _source() -> str:
    """The hash of the generator's own source, once a process: a build asks for the code's
    version several times (its snapshots, its pages' signatures, its history), and the code a
    process runs is the code it loaded, even under `mkdocs serve`."""
    digest = hashlib.sha256(b"cloudqual code\0")
    for name, data in _entries(PACKAGE, "*.py"):
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def code_version() -> str:
    """The hash of the generator's own source and every installed distribution: what a cache of
    anything the generator, or a tool it runs, made from the same files depends on."""
    return hashlib.sha256(f"{_source()}\0{installed()}".encode()).hexdigest()


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
        # Why the last `get` found a stored build and did not use it; None if it did not.
        self.refused: str | None = None

    def _path(self, key: str) -> Path:
        return self.folder / f"site-{key}.json"

    def get(self, key: str) -> Remembered | None:
        """The build stored under `key`, sealed and checked; else None, and the build is made
        again."""
        self.refused = None
        try:
            raw = self._path(key).read_bytes()
        except OSError:
            return None  # none stored: the first build, or another input
        try:
            return _remembered(_unsealed(key, raw))
        except ValueError as error:  # JSON's and UTF-8's errors among them
            self.refused = f"{self._path(key)}: {error}"
            return None

    def last(self) -> dict[str, tuple[str, Page]]:
        """The pages of the build stored under any key, with their signatures: after an edit,
        each page whose signature is unchanged is reused, not rendered again, though the
        build's key has changed. Empty when there is none, or it is not the memo's own."""
        for path in sorted(self.folder.glob("site-*.json")):
            key = path.name.removeprefix("site-").removesuffix(".json")
            try:
                return _remembered(_unsealed(key, path.read_bytes())).output.signed
            except (OSError, ValueError):
                continue
        return {}

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
        sealed = seal(key, json.dumps(stored, ensure_ascii=False).encode("utf-8"))
        if sealed is None:
            return  # no secret to seal it with: the next build is made in full
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self._path(key)
        # Write then rename, so a build stopped midway never leaves half a memo.
        partial = path.with_name(f"{path.name}.partial-{os.getpid()}")
        partial.write_bytes(sealed)
        partial.replace(path)
        for other in self.folder.glob("site-*.json*"):
            if other != path and _is_memo(other):
                other.unlink(missing_ok=True)


# Where Kept keeps its files in the cache folder: a folder of its own, marked as its own.
KEPT_FOLDER = "cloudqual-history"
KEPT_MARKER = Marker(
    ".cloudqual-history",
    "What each commit of the content held, as cloudqual's changelog read it, sealed. Each build "
    "removes those it did not use; files of other names are left alone.\n",
)


class Kept:
    """Small results kept across builds in a folder of the cache, each sealed as a build is:
    what the changelog read from each commit of the content (and, in folders of their own,
    `Snapshots` and `TemplateCode`). A result is stored under a hash of
    its key and the code's version (code_version), so code or a dependency that changes makes
    it again. Each build keeps the files it used and removes the rest of its own (`prune`). The
    folder is claimed on first write: one of that name it did not write raises output.Refused,
    as `check` does before any work."""

    FOLDER, MARKER, WRITING = KEPT_FOLDER, KEPT_MARKER, "keep history in"

    def __init__(self, cache_dir: Path, kind: str) -> None:
        self.folder = cache_dir / self.FOLDER
        self.kind = kind
        self.version = code_version()
        self.used: set[Path] = set()
        self.claimed = False

    def check(self) -> None:
        check_writable(self.folder, self.MARKER, writing=self.WRITING, writer="the cache")

    def _key(self, key: str) -> str:
        return hashlib.sha256(f"{self.version}\0{self.kind}\0{key}".encode()).hexdigest()

    def _path(self, digest: str) -> Path:
        return self.folder / f"{self.kind}-{digest[:32]}.json"

    def get(self, key: str) -> Any:
        """The value kept under `key`, its seal checked; None when there is none to use."""
        digest = self._key(key)
        path = self._path(digest)
        self.used.add(path)
        try:
            return _unsealed(digest, path.read_bytes())
        except (OSError, ValueError):
            return None

    def keep(self, key: str) -> None:
        """Keep the file under `key` from `prune`, though it was not read."""
        self.used.add(self._path(self._key(key)))

    def put(self, key: str, value: Any) -> None:
        digest = self._key(key)
        sealed = seal(digest, json.dumps(value, ensure_ascii=False).encode("utf-8"))
        if sealed is None:
            return
        if not self.claimed:
            claim(self.folder, self.MARKER, writing=self.WRITING, writer="the cache")
            self.claimed = True
        path = self._path(digest)
        self.used.add(path)
        partial = path.with_name(f"{path.name}.partial-{os.getpid()}")
        partial.write_bytes(sealed)
        partial.replace(path)

    def prune(self) -> None:
        """Remove every file of this kind that this build did not use."""
        if not self.MARKER.on(self.folder):
            return  # never claimed: nothing here is ours
        for other in self.folder.glob(f"{self.kind}-*.json*"):
            if other not in self.used and _is_memo(other):
                other.unlink(missing_ok=True)


class Snapshots(Kept):
    """Each content file's parsed document, by the file's bytes (load/snapshot.py), and whether
    its reading found no problem: after an edit, a build in a new process parses again only the
    edited file, and checks the Markdown budget of no clean file again. And which hand-written
    pages were checked clean (checks/pages.py). Sealed, and keyed by the code's version, as
    every kept result is; the files a build did not read are pruned."""

    FOLDER = "cloudqual-documents"
    MARKER = Marker(
        ".cloudqual-documents",
        "The content files cloudqual read, each parsed, by its bytes, sealed. Each build removes "
        "those it did not read; files of other names are left alone.\n",
    )
    WRITING = "keep parsed content in"

    def __init__(self, cache_dir: Path) -> None:
        super().__init__(cache_dir, "document")


class TemplateCode(Kept):
    """The templates' compiled code (render/bytecode.py), in one file: after an edit, a build
    in a new process compiles no template again. Jinja's bytecode, so sealed as every kept
    result is, and keyed by the code's and every dependency's version."""

    FOLDER = "cloudqual-templates"
    MARKER = Marker(
        ".cloudqual-templates",
        "The templates cloudqual compiled, as Jinja's bytecode, sealed. Each build removes the "
        "code of another version; files of other names are left alone.\n",
    )
    WRITING = "keep compiled templates in"

    def __init__(self, cache_dir: Path) -> None:
        super().__init__(cache_dir, "templates")
        # Bytecode is the interpreter's own: its version and bytecode magic are in the key too.
        self.version += f"\0{sys.version}\0{importlib.util.MAGIC_NUMBER.hex()}"
