"""Golden cases for bad content: each folder holds files laid over the minimal fixture, and the
exact text the checker must print. Set CLOUDQUAL_UPDATE_GOLDEN=1 to rewrite expected.txt, then
read the diff before committing it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import MINIMAL, ROOT, copy_content

from generator.checks.loader import load_site
from generator.problems import ContentError

CASES = sorted(path for path in (ROOT / "tests" / "golden").iterdir() if path.is_dir())


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_bad_content_is_reported_exactly(case: Path, tmp_path: Path) -> None:
    content = copy_content(MINIMAL, tmp_path / "content", case / "content")
    with pytest.raises(ContentError) as raised:
        load_site(content)
    printed = str(raised.value) + "\n"
    expected = case / "expected.txt"
    if os.environ.get("CLOUDQUAL_UPDATE_GOLDEN"):
        expected.write_text(printed, encoding="utf-8")
    assert printed == expected.read_text(encoding="utf-8")


def test_minimal_fixture_is_valid() -> None:
    site = load_site(MINIMAL)
    assert set(site.validations) == {"test-validation"}
    assert site.warnings == []
