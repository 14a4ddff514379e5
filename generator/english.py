"""English as every page, caveat, import note and message writes it: counts with their nouns,
and lists in a sentence. One place, so a count reads the same in a caveat and on a page."""

from __future__ import annotations


def plural(noun: str, count: int) -> str:
    """`count` and the noun, pluralised: "1 GPU", "6,144 TPU chips"."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


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
