"""The seal on what cloudqual keeps in a cache folder: a keyed hash, whose secret is made once per
user and kept in the user's cache folder for cloudqual, never in a project's.

A cache folder may be any folder (`cache_dir` may name one in the project, and CI restores one),
so whoever can write it could place a file there that a build would then use: a remembered build
or the templates' compiled code (pipeline/memo.py), or a chart the site serves (render/svg.py). Each
is kept only with its seal, and used only while the seal holds. Here, below both, so the chart
cache seals its SVGs with the same secret as the memo.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import stat
from functools import cache
from pathlib import Path

SEAL_FILE = "memo.key"  # in the user's cache folder for cloudqual, beside each project's folder


def cache_root() -> Path:
    """The user's cache folder for cloudqual."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cloudqual"


@cache
def secret_at(path: Path) -> bytes | None:
    """The secret of the seal in `path`, made there on first use, readable by its user alone;
    None when it can be neither read nor made: nothing is kept then."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Created, never replaced: two builds starting at once keep the first one's.
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError:
        pass  # made already, or not to be made here: what there is is read
    else:
        with os.fdopen(descriptor, "w", encoding="ascii") as file:
            file.write(secrets.token_hex(32))
    try:
        status = path.lstat()
        text = path.read_text(encoding="ascii")
    except (OSError, ValueError):
        return None
    # A secret another user could have written, or may read, seals nothing: what it sealed
    # could be forged, and the templates' kept code (render/bytecode.py) would run.
    others = stat.S_IRWXG | stat.S_IRWXO
    if not stat.S_ISREG(status.st_mode) or status.st_mode & others or status.st_uid != os.getuid():
        return None
    # Half written by a build starting at the same moment, or not one: nothing kept this time.
    return bytes.fromhex(text) if re.fullmatch(r"[0-9a-f]{64}", text) else None


def keyed_hash(kind: str, key: str, body: bytes) -> str | None:
    """The seal of `body`, kept under `key` as a `kind` of thing (each kind its own words, so
    one kind's seal never holds for another); None when there is no secret to seal with."""
    secret = secret_at(cache_root() / SEAL_FILE)
    if secret is None:
        return None
    sealing = hmac.new(secret, f"cloudqual {kind}\0{key}\0".encode(), hashlib.sha256)
    sealing.update(body)  # never copied: a remembered build runs to megabytes
    return sealing.hexdigest()


def matches(found: object, expected: str) -> bool:
    """Whether `found`, a seal as read, is the `expected` one, compared in constant time."""
    return isinstance(found, str) and hmac.compare_digest(
        found.encode("utf-8"), expected.encode("ascii")
    )
