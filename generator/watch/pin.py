"""Pinning a moved round: the mapping's `commit` line of that round, and only it, set to the
commit the import then reads. The file is edited as text, so every comment and the rest of the
file stay byte for byte as a maintainer wrote them."""

from __future__ import annotations

import re
from pathlib import Path


class PinError(Exception):
    pass


def pin(mapping: Path, round_name: str, old: str, new: str) -> None:
    """Set rounds.ROUND.commit from `old` to `new` in the mapping file; refuse if the round's
    block does not hold `old` as its commit (the file changed under the watch)."""
    text = mapping.read_text(encoding="utf-8")
    block = re.search(
        rf"^  {re.escape(round_name)}:\n((?:(?:    .*|\s*)\n)+)", text, flags=re.MULTILINE
    )
    if block is None:
        raise PinError(f"{mapping}: rounds.{round_name}: expected the round's block, found none")
    line = f"    commit: {old}\n"
    if block[1].count(line) != 1:
        raise PinError(f"{mapping}: rounds.{round_name}.commit: expected {old}, found another")
    start = block.start(1) + block[1].index(line)
    mapping.write_text(
        text[:start] + f"    commit: {new}\n" + text[start + len(line) :], encoding="utf-8"
    )
