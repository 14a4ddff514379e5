"""A figure's words with MLPerf's terms linked to the glossary, where a buyer meets them: the
first "Offline", "closed division" or "preview" of a cell goes to its entry, once a cell."""

from __future__ import annotations

import re

from markupsafe import Markup, escape

from generator.escape import visible

# Each term, as the figures' words write it, and its glossary entry (derive/glossary.py's
# MLPERF_TERMS; tests/render/test_glossed.py holds the two together).
TERMS = {
    "SingleStream": "scenario",
    "Offline": "scenario-offline",
    "Server": "scenario-server",
    "Interactive": "scenario-interactive",
    "accuracy target": "accuracy-target",
    "closed division": "division",
    "open division": "division-open",
    "preview": "availability-preview",
    "available": "availability-available",
}
# One pass over the text as written, so a link put in is never searched again. "not available"
# (a preview's "not available when measured") is not the glossary's "available".
_FOUND = re.compile(
    "|".join(
        rf"(?<!not )\b{re.escape(term)}\b" if term == "available" else rf"\b{re.escape(term)}\b"
        for term in sorted(TERMS, key=len, reverse=True)
    )
)


def glossed(text: str, glossary: str) -> Markup:
    """`text`, escaped, with the first occurrence of each term linked to `glossary`'s entry
    (`glossary` is the page's address of the glossary)."""
    linked: set[str] = set()

    def link(found: re.Match[str]) -> str:
        term = found.group(0)
        if term in linked:
            return term
        linked.add(term)
        return f'<a class="cq-term" href="{escape(glossary)}#{TERMS[term]}">{term}</a>'

    # The text is escaped first; each link put in is a fixed term, anchor and escaped address.
    return Markup(_FOUND.sub(link, str(escape(visible(text)))))  # noqa: S704 - escaped above
