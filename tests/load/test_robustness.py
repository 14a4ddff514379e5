"""Any bytes in a record end in a content error with a position, never in a traceback."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import MINIMAL, copy_content
from ruamel.yaml import YAML
from test_fuzz import check_load

from generator.checks.loader import load_site
from generator.problems import ContentError

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


def reference(raw: bytes) -> object:
    """The record as ruamel's own safe YAML 1.2 reader reads it: an independent reading."""
    yaml = YAML(typ="safe", pure=True)
    return yaml.load(raw.decode("utf-8"))


# Byte and line edits reach what the fuzzer's edits of parsed records do not: indentation,
# truncated lines, stray punctuation. 60 of them, each checked against two oracles.
@pytest.mark.parametrize("seed", range(60))
def test_a_mutated_record_is_refused_where_it_breaks_or_read_as_written(
    seed: int, tmp_path: Path
) -> None:
    """Either every problem is located in the file, or the record loads and holds exactly what
    an independent YAML reader reads in the same bytes: the loader never quietly changes a
    value, and never loads what it should refuse without a position."""
    content = copy_content(MINIMAL, tmp_path / "content")
    relative = RECORDS[seed % len(RECORDS)]
    record = content / relative
    raw = mutations(record.read_bytes(), seed)
    record.write_bytes(raw)
    document = check_load(raw, relative)  # the fuzzer's oracle: publishable text, positions
    try:
        site = load_site(content)
    except ContentError as error:
        assert error.problems
        for problem in error.problems:
            assert problem.position.line >= 1 and problem.position.column >= 1
            assert str(problem).startswith(f"{problem.path}:{problem.position.line}:")
        return
    assert document is not None
    kind, name = relative.split("/")
    loaded = getattr(site, kind.replace("-", "_"))[name.removesuffix(".yaml")]
    read = reference(raw)
    assert isinstance(read, dict)
    assert loaded == type(loaded).model_validate(read)
