"""Golden cases for bad content: each folder holds files laid over the minimal fixture, and the
exact text the checker must print. CLOUDQUAL_UPDATE_GOLDEN=checks rewrites expected.txt
(golden_files.py); read the diff before committing it."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import MINIMAL, ROOT, copy_content
from golden_files import assert_golden

from generator.checks.loader import load_site
from generator.problems import ContentError

CASES = sorted(path for path in (ROOT / "tests" / "golden").iterdir() if path.is_dir())


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_bad_content_is_reported_exactly(case: Path, tmp_path: Path) -> None:
    content = copy_content(MINIMAL, tmp_path / "content", case / "content")
    with pytest.raises(ContentError) as raised:
        load_site(content)
    assert_golden("checks", case / "expected.txt", str(raised.value) + "\n")


def test_minimal_fixture_is_valid() -> None:
    site = load_site(MINIMAL)
    assert set(site.validations) == {"test-validation"}
    assert site.warnings == []
