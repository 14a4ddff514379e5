"""The templates' compiled code, kept across processes: after an edit, a build in a new process
compiles no template again. On the real content, compiling the templates of the 31 pages an
edit renders again was half of the renderer's time.

It is Jinja's own bytecode (a template's code, marshalled), so it is kept only where it is
sealed, as the remembered build is: in pipeline/memo.py's `Kept`, whose keyed hash is checked
before a byte of it is read, and whose key holds the code's and every dependency's version. A
file that fails the seal is never read; one written by another Python or Jinja is refused by
Jinja itself (its magic header), and one of a changed template by its checksum of the source.
"""

from __future__ import annotations

import base64
import binascii

import jinja2
from jinja2.bccache import Bucket

from generator.load.snapshot import Store

KEY = "templates"  # one entry per store: every template's code, by Jinja's key for it


class SealedBytecode(jinja2.BytecodeCache):
    """Each template's code, read from `store` once, and written back by `save` when a
    template was compiled."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.code: dict[str, str] | None = None  # Jinja's key: its bytecode, in base64
        self.changed = False

    def _known(self) -> dict[str, str]:
        if self.code is None:
            kept = self.store.get(KEY)
            valid = isinstance(kept, dict) and all(isinstance(v, str) for v in kept.values())
            self.code = dict(kept) if valid else {}
        return self.code

    def load_bytecode(self, bucket: Bucket) -> None:
        found = self._known().get(bucket.key)
        if found is not None:
            try:
                bucket.bytecode_from_string(base64.b64decode(found, validate=True))
            except binascii.Error:
                bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._known()[bucket.key] = base64.b64encode(bucket.bytecode_to_string()).decode("ascii")
        self.changed = True

    def save(self) -> None:
        """Keep what was compiled since the store was read, with what it held."""
        if self.changed:
            self.store.put(KEY, self._known())
            self.changed = False
