"""A figure's words link MLPerf's terms to the glossary where a buyer meets them: each term once,
to an entry the glossary holds, and nothing of the words themselves becomes markup."""

from __future__ import annotations

import re

from generator.derive.glossary import MLPERF_TERMS
from generator.render.glossed import TERMS, glossed
from generator.render.output import Output

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


def test_a_figures_page_links_the_terms_in_its_measured_under_cells(real_output: Output) -> None:
    """Where a buyer reads "Offline, … closed division, available" in the figures table, each
    term goes to its glossary entry, in the cell itself, not only in the page's description."""
    page = real_output.pages["figures/b200.md"].markdown
    rows = re.findall(r"<tr><td data-cq-value=.*?</tr>", page)
    under = [re.findall(r"<td>(.*?)</td>", row)[1] for row in rows]
    served = [cell for cell in under if "Offline" in cell]
    assert served and all('class="cq-term"' in cell for cell in served)
    assert all("#scenario-offline" in cell for cell in served)
