"""What a build keeps in memory between builds of one process, as `mkdocs serve` rebuilds: the
last good output, the files already read, the chart cache, and two threads that keep work off
the rebuild a contributor waits for. And, for a single `mkdocs build`, its end: made in a forked
child while MkDocs writes the pages (`begin`, child.py), and waited for (`complete`).

- An unchanged rebuild reads nothing: the key of the build on show is kept.
- A changed one reads again only the files it changed (`known`), and renders again only the pages
  whose inputs changed (`signed`, render/signatures.py).
- After the first build of a serve session, a thread warms what the first rebuild would pay for;
  each new build is remembered (pipeline/memo.py) in a thread, off the rebuild.
- While serving, content errors keep the last good site on show (`stale`), the problems on it.
"""

from __future__ import annotations

import contextlib
import html
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from generator.engines import child
from generator.pipeline.memo import Remembered
from generator.pipeline.run import Caches, Inputs, build
from generator.problems import ContentError, Problem
from generator.render.output import Output, Page, Refused, write_files


class Session:
    def __init__(self, cache_dir: Path, *, serving: bool, say: Callable[[str], None]) -> None:
        # What each build reuses of the last: the files read and the pages rendered are this
        # process's own, and stay in `caches` between builds.
        self.caches = Caches.at(cache_dir)
        self.memo, self.svg_store = self.caches.memo, self.caches.svg
        self.serving = serving
        self.say = say
        self.pages: dict[str, Page] = {}
        self.data: dict[str, bytes] = {}
        self.signed: dict[str, tuple[str, Page]] = {}
        self.warned: list[str] = []
        self.built: str | None = None  # the key of the build on show
        self.stale: list[Problem] = []
        self.warming: threading.Thread | None = None
        self.saving: threading.Thread | None = None  # the remembered build, being written
        self.core_seconds = 0.0  # how long the last build's core took: load, derive, render
        # A single build's, until `complete` adds the data files and charts it left to make
        # and remembers it; and the child process doing so, once `begin` forked it.
        self.unsaved: Remembered | None = None
        self.ending: child.Child | None = None

    def build(self, inputs: Inputs) -> list[str]:
        """Build, or reuse, the site's output; returns its content warnings. Under serve, content
        errors keep the last good site on show, and are printed past MkDocs' log, whose strict
        mode would fail the build; otherwise they raise."""
        started = time.perf_counter()
        key = inputs.key
        if key is not None and key == self.built and not self.stale:
            remembered = Remembered(Output(self.pages, self.data, self.signed), self.warned)
        else:
            self._join(self.saving)
            self._join(self.warming)  # it fills `known`: let it finish before reading it
            before = self.svg_store.conversions
            try:
                self.caches.previous = self.signed
                remembered, reused = build(
                    inputs,
                    self.caches,
                    say=self.say,
                    # A single build makes its data files and the charts its cache lacks
                    # while MkDocs writes the pages (`begin`); serve keeps everything here.
                    later=not self.serving,
                )
            except ContentError as error:
                if not (self.serving and self.pages):
                    raise
                self.stale = error.problems
                print(f"cloudqual: content has errors; serving the last good site\n{error}",
                      file=sys.stderr)  # fmt: skip
                return []
            if reused:
                self.say("cloudqual: no input changed since the last build: its pages are reused")
            else:
                self.say(f"cloudqual: charts: {self.svg_store.conversions - before} SVGs converted")
                pages = remembered.output.pages
                again = sum(1 for uri, page in pages.items() if self.pages.get(uri) is not page)
                self.say(f"cloudqual: {again} of {len(pages)} pages rendered")
                if not self.serving:
                    self.unsaved = remembered
                elif key is not None:
                    self._remember(key, remembered)
        self.stale = []
        self.pages, self.data = remembered.output.pages, remembered.output.data
        self.signed, self.warned, self.built = remembered.output.signed, remembered.warnings, key
        self.core_seconds = time.perf_counter() - started
        self.say(f"cloudqual: the core took {self.core_seconds:.2f} s")
        return remembered.warnings

    def begin(self, folder: Path, taken: set[str]) -> None:
        """A single build's end, begun once MkDocs has emptied the site `folder` and knows
        every file it will write there (`taken`): in a forked child (child.py), the data files
        made and written, the charts the cache lacks drawn, and the build remembered, while
        MkDocs writes the pages. At 1,000 validations that is 4 s off the build's critical
        path. Where no child can be forked, the charts are drawn in a process pool meanwhile,
        and `complete` does the rest."""
        remembered = self.unsaved
        if remembered is None:
            self._write_reused(folder, taken)
            return
        if child.available():
            try:
                self.ending = child.Child(lambda: self._end(remembered, folder, taken))
                return
            except OSError as error:  # no child to be had: the end is made here
                self.say(f"cloudqual: the build's end is made here: {error}")
        self.svg_store.start()

    def _write_reused(self, folder: Path, taken: set[str]) -> None:
        """A single build that reused the last one's output has its data files whole: a forked
        child writes them while MkDocs writes the pages. Written after the pages, the real
        content's 692 took 0.4 to 0.6 s of a 5 s build, waiting on the disk behind MkDocs' own
        writes; a thread of this process cost as much at 1,000 validations as it saved, taking
        the interpreter's lock from MkDocs. If no child can be had, or it fails, the files are
        written at the end, as before; one MkDocs writes too is left to that end, as ever."""
        if self.serving or not self.data or taken & self.data.keys() or not child.available():
            return
        data = self.data
        try:
            self.ending = child.Child(lambda: write_files(folder, data))
        except OSError as error:  # written at the build's end instead
            self.say(f"cloudqual: the data files are written at the end: {error}")

    def _end(self, remembered: Remembered, folder: Path, taken: set[str]) -> None:
        """In the child: the build completed, its data files written, the build remembered.
        Its charts are drawn here, one at a time, never in processes of its own: the other
        core is MkDocs', and a child stopped with its build leaves no process behind."""
        self.svg_store.workers = 1
        output = remembered.output
        output.complete()
        hidden = sorted(taken & output.data.keys())
        if hidden:  # MkDocs would write these too: `complete` writes them after it, as ever
            raise Refused(f"MkDocs writes data files of the build too: {', '.join(hidden)}")
        write_files(folder, output.data)
        if self.built is not None:
            self.memo.put(self.built, output, remembered.warnings)

    def finish(self, content_dir: Path, templates_dir: Path) -> None:
        """The build's end, once MkDocs has written its pages: `complete`, then `warm`."""
        self.complete()
        self.warm(content_dir, templates_dir)

    def complete(self) -> None:
        """A single build's end: waited for, if `begin` forked it off; else (or if its child
        failed) made here: the data files and the charts added to its data (which is
        `self.data`, for the site folder to write), and the build remembered whole. At its
        end, not at once: made here, at 1,000 validations an edit's peak memory was 1,456 MB
        so, and 1,634 MB with the build remembered before MkDocs' pages."""
        remembered, self.unsaved = self.unsaved, None
        ending, self.ending = self.ending, None
        if ending is not None:
            try:
                failed = ending.wait()
            except BaseException:  # interrupted: the child is stopped with the build
                ending.stop()
                raise
            if failed is None:
                self.data = {}  # written, and remembered, by the child
                return
            self.say(f"cloudqual: the build's end is made here, as its child failed:\n{failed}")
        if remembered is not None:
            remembered.output.complete()
            if self.built is not None:
                self.memo.put(self.built, remembered.output, remembered.warnings)

    def discard(self) -> None:
        """The build failed: stop what it left running, and remember nothing more of it. What
        its child has remembered already stays: the core's output depends on the inputs alone,
        not on whether MkDocs got through (as a build that fails on a warning under `strict`
        is remembered too)."""
        self.unsaved = None
        ending, self.ending = self.ending, None
        if ending is not None:
            ending.stop()
        self.svg_store.cancel()

    def _remember(self, key: str, remembered: Remembered) -> None:
        """Under serve, stores the build for the next one in the background, off the rebuild."""
        args = (key, remembered.output, remembered.warnings)
        self.saving = threading.Thread(target=self.memo.put, args=args, daemon=True)
        self.saving.start()

    def warm(self, content_dir: Path, templates_dir: Path) -> None:
        """Once a serve session, after its first build: what the first rebuild would otherwise
        pay for, done while the contributor reads the first build."""
        if self.serving and self.warming is None and not self.caches.known:
            self.warming = threading.Thread(
                target=self._warm, args=(content_dir, templates_dir), daemon=True
            )
            self.warming.start()

    def _warm(self, content_dir: Path, templates_dir: Path) -> None:
        # The rendering code imported, every file read, the templates compiled, the API's
        # schemas made.
        from generator.checks.loader import load_site
        from generator.publish import api
        from generator.render import environment as templates

        with contextlib.suppress(ContentError):  # the rebuild reports it
            load_site(content_dir, known=self.caches.known)
        environment = templates.environment(templates_dir)
        for name in environment.list_templates(extensions=["j2"]):
            environment.get_template(name)
        api.schema_files()

    def banner(self) -> str:
        """While the last good site is on show: the problems that keep it, atop each page."""
        if not self.stale:
            return ""
        shown = "".join(f"<li><code>{html.escape(str(p))}</code></li>" for p in self.stale)
        return (
            '<div class="admonition failure"><p class="admonition-title">Content has errors: '
            "this is the last good site</p><ul>" + shown + "</ul></div>"
        )

    @staticmethod
    def _join(thread: threading.Thread | None) -> None:
        if thread is not None:
            thread.join()
