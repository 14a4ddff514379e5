"""Any bytes in a record end in a content error with a position, never in a traceback."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import MINIMAL, copy_content

from generator.problem import ContentError
from generator.site import load_site

RECORDS = [
    "validations/test-validation.yaml",
    "programs/test-program.yaml",
    "suites/test-suite.yaml",
    "checklists/test-checklist.yaml",
]


def mutations(text: bytes, seed: int) -> bytes:
    """A deterministic random edit: drop, duplicate, swap or corrupt a few bytes or lines."""
    rng = random.Random(seed)  # noqa: S311 - reproducible test input, not a secret
    lines = text.split(b"\n")
    for _ in range(rng.randint(1, 4)):
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        choice = rng.randrange(6)
        if choice == 0:
            del lines[i]
        elif choice == 1:
            lines.insert(i, lines[j])
        elif choice == 2:
            lines[i], lines[j] = lines[j], lines[i]
        elif choice == 3 and lines[i]:
            k = rng.randrange(len(lines[i]))
            lines[i] = (
                lines[i][:k]
                + bytes([rng.choice(b" \t:-[]{}&*!|>'\"#%@`,?\xff\x00")])
                + lines[i][k:]
            )
        elif choice == 4:
            lines[i] = b"  " + lines[i]
        else:
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
        if not lines:
            lines = [b""]
    return b"\n".join(lines)


@pytest.mark.parametrize("seed", range(400))
def test_mutated_record_fails_cleanly_or_loads(seed: int, tmp_path: Path) -> None:
    content = copy_content(MINIMAL, tmp_path / "content")
    record = content / RECORDS[seed % len(RECORDS)]
    record.write_bytes(mutations(record.read_bytes(), seed))
    try:
        load_site(content)
    except ContentError as error:
        assert error.problems
        for problem in error.problems:
            assert problem.position.line >= 1 and problem.position.column >= 1
            assert str(problem).startswith(f"{problem.path}:{problem.position.line}:")
