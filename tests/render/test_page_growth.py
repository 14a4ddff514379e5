"""Pages grow with the results they list, never with pairs of them: a pull request that adds
many conflicting results of one provider must not make its page, or the build, quadratic."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from conftest import ROOT, copy_content

from generator.checks.loader import load_site
from generator.model.options import Options
from generator.model.policy import Policy
from generator.pipeline.run import site_output


def provider_page_bytes(tmp_path: Path, count: int) -> int:
    """The size of Crusoe's page with `count` copies of its B300 result, half of them failed:
    every copy conflicts with every copy of the other outcome."""
    content = copy_content(ROOT / "content", tmp_path / f"content-{count}")
    source = content / "validations" / "crusoe-hgx-b300-exemplar.yaml"
    text = source.read_text(encoding="utf-8")
    for index in range(count):
        copy = text.replace("id: crusoe-hgx-b300-exemplar", f"id: crusoe-copy-{index}", 1)
        if index % 2:
            copy = re.sub(r"^(  result: )pass$", r"\1fail", copy, count=1, flags=re.M)
        (content / "validations" / f"crusoe-copy-{index}.yaml").write_text(copy, "utf-8")
    site = load_site(content)
    output = site_output(site, Options(ROOT / "templates", Policy(as_of=date(2026, 12, 4))))
    return len(output.pages["providers/crusoe.md"].markdown.encode("utf-8"))


@pytest.mark.slow
def test_a_provider_page_grows_linearly_with_conflicting_results(tmp_path: Path) -> None:
    small, large = provider_page_bytes(tmp_path, 40), provider_page_bytes(tmp_path, 80)
    # Twice the results: the page at most a little over twice the size (it was four times).
    assert large < 2.2 * small, (small, large)
