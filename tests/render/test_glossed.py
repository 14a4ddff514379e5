"""A figure's words link MLPerf's terms to the glossary where a buyer meets them: each term once,
to an entry the glossary holds, and nothing of the words themselves becomes markup."""

from __future__ import annotations

import re

from generator.derive.glossary import MLPERF_TERMS
from generator.render.glossed import TERMS, glossed

GLOSSARY = "../../glossary/"


def test_each_term_is_linked_once_to_its_entry() -> None:
    words = (
        "Offline, 99% of the FP32 reference; closed division, preview: not available when "
        "measured; Offline again"
    )
    shown = str(glossed(words, GLOSSARY))
    assert re.findall(r'href="([^"]+)">([^<]+)</a>', shown) == [
        (f"{GLOSSARY}#scenario-offline", "Offline"),
        (f"{GLOSSARY}#division", "closed division"),
        (f"{GLOSSARY}#availability-preview", "preview"),
    ]
    # A preview's "not available" is not the glossary's "available".
    assert "not available when measured" in shown
    assert re.sub(r"<[^>]+>", "", shown) == words


def test_the_words_are_escaped_before_any_link_is_put_in() -> None:
    shown = str(glossed('Server <script>alert(1)</script> "available"', 'x" onmouseover="y'))
    assert "<script>" not in shown and "&lt;script&gt;" in shown
    assert 'href="x&#34; onmouseover=&#34;y#scenario-server"' in shown
    assert shown.count("<a ") == 2


def test_every_entry_linked_is_in_the_glossary() -> None:
    """MLPerf's words are the glossary's entries of them (derive/glossary.py)."""
    entries = {t.anchor: t.term for t in MLPERF_TERMS}
    for term, anchor in TERMS.items():
        assert anchor in entries, anchor
        # "SingleStream" is told in the scenario entry; each other term is its entry's name.
        assert term in (entries[anchor], "SingleStream") or entries[anchor].startswith(term)
