"""Work done in a forked child process while this one goes on: a single build's end (its data
files made and written, the charts the cache lacked drawn, the build remembered) beside MkDocs
writing the pages, on a second core (engines/session.py).

Forked, not spawned: the child starts with the build in memory, where a spawned one would be
sent it (the data files alone are 66 MB at 1,000 validations). Only on Linux, and only from a
process of one thread (`available`): macOS' system libraries are not safe to use in the child of
a fork, Windows has none, and another thread's locks would never be released in the child; else
the work is done in this process. The child never returns into its parent's code: it ends with
`os._exit`, so no exit handler, MkDocs' or the interpreter's, runs twice. If it fails, `wait`
says why (its traceback), and the caller does the work itself: nothing is lost.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn


def available() -> bool:
    """Whether work can be forked off here: on Linux, from a process of one thread. Another
    thread's locks (a chart converter's, once it has drawn here) stay taken in the child, for
    ever: it would hang."""
    if sys.platform != "linux":
        return False
    try:
        return sum(1 for _ in Path("/proc/self/task").iterdir()) == 1
    except OSError:
        return False


class Child:
    """`work` run in a forked child process from the moment this is made."""

    def __init__(self, work: Callable[[], None]) -> None:
        """Raises OSError when no child can be made (no memory, too many processes): the
        caller does the work itself."""
        reading, writing = os.pipe()
        # What the parent made before the fork, its collector leaves alone until `wait`: else
        # it would write to every shared object, copying the memory the child shares.
        gc.freeze()
        try:
            pid = os.fork()
        except OSError:
            gc.unfreeze()
            os.close(reading)
            os.close(writing)
            raise
        if pid == 0:
            try:  # an interrupt before `_run` is ready must not return into the build
                os.close(reading)
                _run(work, writing)
            finally:
                os._exit(1)
        os.close(writing)
        self.pid: int | None = pid
        self.reading = reading

    def wait(self) -> str | None:
        """Wait for the work: None once it is done, else why it was not (the child's traceback,
        or how it ended)."""
        if self.pid is None:
            return "it was stopped"
        with os.fdopen(self.reading, "rb") as pipe:
            told = pipe.read().decode("utf-8", errors="replace").strip()
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        gc.unfreeze()
        code = os.waitstatus_to_exitcode(status)
        if code == 0 and not told:
            return None
        return told or f"the child process ended with {code}"

    def stop(self) -> None:
        """Stop the work where it is: what it leaves half written, its caller removes (the
        site folder being built) or never reads (the memo's and the chart cache's partial
        files). The work starts no process of its own, so none outlives it."""
        if self.pid is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.reading)
        self.pid = None
        gc.unfreeze()


def _run(work: Callable[[], None], writing: int) -> NoReturn:
    """In the child: the work, then `os._exit`; a failure's traceback goes to the parent."""
    code = 1
    try:
        # The collector would touch every object the parent made, copying the memory they
        # share; the child is short-lived, and what it makes is freed when it ends.
        gc.disable()
        work()
        code = 0
    except BaseException:  # reported to the parent, which does the work itself
        with contextlib.suppress(OSError), os.fdopen(writing, "wb", closefd=False) as pipe:
            pipe.write(traceback.format_exc().encode("utf-8"))
    finally:
        os._exit(code)
