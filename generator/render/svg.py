"""Charts to static SVG, through vl-convert, with a cache keyed by each chart's input.

A chart's key is a hash of what it is drawn from (its table, title and colour scheme) and of the
drawing code's version (charts.py, Altair's and vl-convert's versions), never of the built spec:
so a build whose charts are all cached builds no spec, and imports neither Altair nor vl-convert.
Any change to the data, to the drawing code or to either library makes a new key.

The cache folder may be any folder (`render --cache`, the plugin's `cache_dir`), so the store
keeps its SVGs in a folder of its own there (FOLDER), which it marks as its own, and prunes only
files of its own naming in it: a `~/Pictures` given as the cache keeps its pictures.

Nor is an entry trusted as it is read: whoever can write the cache folder could place a chart
there that the site would serve, a link to a private file or an SVG with a script. So each entry
is sealed as the remembered build is (render/seal.py): its first line a keyed hash of its key and
its SVG. An entry that is not a regular file, or whose seal does not hold, is not used: the chart
is drawn again, and the log says which entry and why. Checking it costs a hash of the SVG, never a
parse of it.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import stat
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.render.output import Marker, check_writable, claim
from generator.render.seal import keyed_hash, matches

# Each worker process pays for starting its own converter. On two cores, benchmarks/charts.py
# measured parallel/serial at about 1.0 for 24 cold specs, 0.78 for 48 and 0.62 for 120.
PARALLEL_FROM = 40
FOLDER = "cloudqual-charts"
MARKER = Marker(
    ".cloudqual-charts",
    "Charts that cloudqual converted to SVG, by a hash of what each is drawn from. Each render "
    "removes those it did not use; files of other names are left alone.\n",
)
# What the store writes: a key (a hash, in hex) as an SVG, or as one being written.
_OWN = re.compile(r"([0-9a-f]+)\.svg(\.partial-[0-9]+)?")
# How every entry starts: the seal of its SVG, on a line of its own; then the SVG.
SEALED = b"cloudqual chart "
KIND = "chart"  # the seal's own words (render/seal.py): a memo's seal never holds for a chart


def _sealed(key: str, svg: bytes) -> bytes | None:
    """An entry's bytes: `svg` sealed under `key`. None when there is no secret to seal with."""
    seal = keyed_hash(KIND, key, svg)
    return None if seal is None else SEALED + seal.encode("ascii") + b"\n" + svg


def _unsealed(key: str, entry: bytes) -> bytes:
    """The SVG of an entry, once its seal holds for `key`; ValueError says why not."""
    head, newline, svg = entry.partition(b"\n")
    if not head.startswith(SEALED) or not newline:
        raise ValueError("expected a sealed chart, found a file without a seal")
    expected = keyed_hash(KIND, key, svg)
    if expected is None:
        raise ValueError("expected the secret that seals the cache, found none")
    if not matches(head.removeprefix(SEALED).decode("ascii", "replace"), expected):
        raise ValueError(
            "expected the seal of its own key and SVG, found another: the file was changed, "
            "or is another chart's"
        )
    return svg


def _read_entry(path: Path) -> bytes:
    """The bytes of the regular file at `path`: a link is never followed, nor a pipe waited on.
    FileNotFoundError when there is none; ValueError when it is another kind of file."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        if path.is_symlink():  # O_NOFOLLOW's refusal
            link = path.readlink()
            raise ValueError(f"expected a file, found a symbolic link (to {link})") from None
        raise
    with os.fdopen(descriptor, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            raise ValueError("expected a file, found another kind of entry")
        return file.read()


def _to_stderr(notice: str) -> None:
    print(notice, file=sys.stderr)


@dataclass(frozen=True)
class Drawing:
    """One SVG to have: its cache key, and how to build its Vega-Lite spec on a cache miss."""

    key: str
    spec: Callable[[], dict[str, Any]]


def _convert(spec: dict[str, Any]) -> bytes:
    import vl_convert

    svg: str = vl_convert.vegalite_to_svg(spec)
    return svg.encode("utf-8")


def _draw(work: tuple[str, Callable[[], dict[str, Any]]]) -> tuple[str, bytes]:
    """In a child process: one drawing's spec built and converted, with its key."""
    key, spec = work
    return key, _convert(spec())


class _Drawing:
    """Cold drawings drawn in child processes, the spec built there too, so the parent imports
    neither Altair nor vl-convert for them. vl-convert runs one JavaScript engine per process,
    so threads would queue behind it: parallel means processes. "spawn" starts them clean,
    never forking a process whose converter threads are already running. A child that dies is
    noticed (BrokenProcessPool), never waited for for ever."""

    def __init__(self, work: list[tuple[str, Callable[[], dict[str, Any]]]], workers: int) -> None:
        self.work = work  # each drawing's key, and how to build its spec
        context = multiprocessing.get_context("spawn")
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
        chunk = max(1, len(work) // (workers * 4))
        self.pending = self.pool.map(_draw, work, chunksize=chunk)

    def result(self) -> dict[str, bytes]:
        """Each SVG by its key, once all are drawn."""
        try:
            return dict(self.pending)
        except BrokenProcessPool:
            # A child could not start or died (a parent run from standard input cannot spawn
            # one): what it was to draw is drawn here.
            return dict(_draw(work) for work in self.work)
        finally:
            self.pool.shutdown()

    def cancel(self) -> None:
        # What has not started is dropped; a drawing under way ends in its child, unread.
        self.pool.shutdown(wait=False, cancel_futures=True)


class SvgStore:
    """Converts charts to SVG, reusing cached results; counts the conversions it really ran.

    The cache stays bounded: `prune` removes every entry the last render did not use. The
    entries in memory are kept across `mkdocs serve` rebuilds, which keep the store. Its folder
    is claimed on first use: a folder of that name it did not write raises output.Refused.
    """

    def __init__(
        self,
        cache_dir: Path | None,
        *,
        workers: int | None = None,
        say: Callable[[str], None] = _to_stderr,
    ) -> None:
        self.cache_dir = cache_dir
        self.say = say  # where the entries not used, and why, are told
        self.refused: list[str] = []  # entries not used since the last told, each with why
        self.claimed = False
        self.workers = workers or os.cpu_count() or 1
        self.conversions = 0
        self.memory: dict[str, bytes] = {}
        self.used: set[str] = set()
        # What `render(later=True)` left: each drawing's key and spec, each name's key; and
        # the child process drawing them, once `start` began it.
        self._work: list[tuple[str, Callable[[], dict[str, Any]]]] = []
        self._names: dict[str, str] = {}
        self._drawing: _Drawing | None = None

    def check(self) -> None:
        """Refuse a cache whose chart folder the store may not write, before any work."""
        if self.cache_dir is not None:
            check_writable(
                self.cache_dir / FOLDER, MARKER, writing="keep charts in", writer="the chart cache"
            )

    def _folder(self) -> Path | None:
        """The store's own folder in the cache, made and marked on first use; None without a
        cache."""
        if self.cache_dir is None:
            return None
        folder = self.cache_dir / FOLDER
        if not self.claimed:
            claim(folder, MARKER, writing="keep charts in", writer="the chart cache")
            self.claimed = True
        return folder

    def _cached(self, key: str) -> bytes | None:
        """The SVG kept under `key`, its entry's seal checked; None when it is to be drawn."""
        if key in self.memory:
            return self.memory[key]
        folder = self._folder()
        if folder is None:
            return None
        path = folder / f"{key}.svg"
        try:
            svg = _unsealed(key, _read_entry(path))
        except FileNotFoundError:
            return None  # never drawn, or pruned
        except (OSError, ValueError) as error:
            self.refused.append(f"{path}: {error}")
            return None
        self.memory[key] = svg
        return svg

    def _tell(self) -> None:
        """Say which entries were not used, and why, in one line: restored from a cache another
        machine sealed, every chart's entry fails alike."""
        if self.refused:
            first, more = self.refused[0], len(self.refused) - 1
            also = f"; and {more} more cached SVGs were not used" if more else ""
            self.say(f"cloudqual: charts: drawn again, as a cached SVG was not used: {first}{also}")
            self.refused = []

    def _store(self, key: str, svg: bytes) -> None:
        self.memory[key] = svg
        folder = self._folder()
        entry = _sealed(key, svg) if folder is not None else None
        if folder is None or entry is None:
            return  # no cache, or no secret to seal with: kept in memory alone
        # Write then rename, so a build stopped midway never leaves a truncated SVG in the cache;
        # created afresh, so a link placed where it is written is replaced, never written through.
        partial = folder / f"{key}.svg.partial-{os.getpid()}"
        partial.unlink(missing_ok=True)
        with partial.open("xb") as file:
            file.write(entry)
        partial.replace(folder / f"{key}.svg")

    def render(self, drawings: dict[str, Drawing], *, later: bool = False) -> dict[str, bytes]:
        """The SVG of every drawing, by the same name; cold ones convert in parallel. `later`:
        only those the cache holds; the others are left for `start` to begin drawing in a child
        process while the caller goes on, and for `finish`."""
        keys = {name: drawing.key for name, drawing in drawings.items()}
        self.used |= set(keys.values())
        found = {key: svg for key in set(keys.values()) if (svg := self._cached(key)) is not None}
        self._tell()
        cold = sorted({key: name for name, key in keys.items() if key not in found}.items())
        self.conversions += len(cold)
        work = [(key, drawings[name].spec) for key, name in cold]
        if later and cold:
            self._work, self._names = work, keys
            return {name: found[key] for name, key in keys.items() if key in found}
        found |= self._draw_all(work, self.workers)
        for key, _ in cold:
            self._store(key, found[key])
        return {name: found[key] for name, key in keys.items()}

    @staticmethod
    def _draw_all(
        work: list[tuple[str, Callable[[], dict[str, Any]]]], workers: int
    ) -> dict[str, bytes]:
        if len(work) >= PARALLEL_FROM and workers > 1:
            return _Drawing(work, min(workers, len(work))).result()
        return dict(_draw(one) for one in work)

    @property
    def pending(self) -> bool:
        """Whether `render(later=True)` left drawings for `finish`."""
        return bool(self._work)

    def start(self) -> None:
        """Begin drawing what `render(later=True)` left, in a child process, beside the build
        that goes on here (MkDocs writing its pages): one core is left it."""
        if self._work and self._drawing is None:
            cold = len(self._work)
            workers = 1 if cold < PARALLEL_FROM else max(1, min(self.workers - 1, cold))
            self._drawing = _Drawing(self._work, workers)

    def finish(self) -> dict[str, bytes]:
        """The SVGs that `render(later=True)` left to draw, by name, once drawn and cached:
        waited for if `start` began them, else drawn here (those cached since, read)."""
        drawing, self._drawing = self._drawing, None
        work, self._work = self._work, []
        cached: dict[str, bytes] = {}
        if drawing is not None:
            drawn = drawing.result()
        else:
            cached = {key: svg for key, _ in work if (svg := self._cached(key)) is not None}
            self._tell()
            drawn = self._draw_all([w for w in work if w[0] not in cached], self.workers)
        for key, svg in drawn.items():
            self._store(key, svg)
        drawn |= cached
        return {name: drawn[key] for name, key in self._names.items() if key in drawn}

    def cancel(self) -> None:
        """Stop drawing what `render(later=True)` left: the build it was for has failed."""
        drawing, self._drawing, self._work = self._drawing, None, []
        if drawing is not None:
            drawing.cancel()

    def prune(self) -> int:
        """Forget every entry that no render since the last prune used, on disk and in memory,
        and how many files went. Partial files of a stopped build go too. Only files of the
        store's naming, in its own folder, are ever removed."""
        removed = 0
        self.memory = {key: svg for key, svg in self.memory.items() if key in self.used}
        folder = self._folder()
        if folder is not None and folder.is_dir():
            for path in folder.iterdir():
                own = _OWN.fullmatch(path.name)
                if own is None or path.is_symlink() or not path.is_file():
                    continue
                if own.group(2) is None and own.group(1) in self.used:
                    continue
                path.unlink(missing_ok=True)
                removed += 1
        self.used = set()
        return removed
