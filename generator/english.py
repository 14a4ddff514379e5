"""English as every page, caveat, import note and message writes it: counts with their nouns,
and lists in a sentence. One place, so a count reads the same in a caveat and on a page."""

from __future__ import annotations

import math
from decimal import Decimal


def plural(noun: str, count: int) -> str:
    """`count` and the noun, pluralised: "1 GPU", "6,144 TPU chips"."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def number(value: float, *, grouped: bool = True) -> str:
    """A number as a reader writes it, every digit the source gave kept: 5.0 as "5", 41.6143 as
    "41.6143", 1042980.5 as "1,042,980.5"; `grouped=False` for a data file, "1042980.5". The
    shortest text that reads back as the same float, never in exponent notation: Python's `g`
    format shows six digits, and wrote MLCommons' 1,042,980.5 tokens/s as "1.04298e+06"."""
    if not math.isfinite(value):  # the loader refuses one; an import could still pass one on
        return str(value)
    if value == int(value):
        return f"{int(value):,}" if grouped else str(int(value))
    return format(Decimal(repr(value)), ",f" if grouped else "f")


def listed(items: list[str], word: str = "and") -> str:
    """Items as a sentence lists them: "a", "a and b", "a, b and c"; empty for none."""
    if not items:
        return ""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {word} {items[-1]}"


def age_words(days: int | None) -> str:
    """How old something is, in the unit a reader takes in at a glance: "12 days", "3 months",
    "2 years"; "undated" where no date is known."""
    if days is None:
        return "undated"
    if days < 0:
        return "dated after this build's date"
    if days < 60:
        return plural("day", days)
    if days < 730:
        return plural("month", days // 30)
    return plural("year", days // 365)
