"""The file checks, called directly: where a record file sits, how it starts, what it is named.

The golden cases run them through `load_site`; these pin the branches no golden case reaches.
"""

from __future__ import annotations

from pathlib import Path

from conftest import MINIMAL

from generator.checks.record_files import (
    check_file_name,
    check_mappings,
    check_modeline,
    check_placement,
    modeline,
)
from generator.checks.schema import validate
from generator.load.reader import load_text
from generator.model.checklists import Question


def test_placement_keeps_yaml_records_in_kind_folders(tmp_path: Path) -> None:
    content = tmp_path / "content"
    names = ["questions/a.yaml", "questions/b.yml", "question/c.yaml", "questions/sub/d.yaml"]
    for name in names:
        (content / name).parent.mkdir(parents=True, exist_ok=True)
        (content / name).write_text("", encoding="utf-8")
    found, problems = check_placement([content / name for name in names], content, tmp_path)
    assert found == [("questions", content / "questions" / "a.yaml", "content/questions/a.yaml")]
    elsewhere = (
        "expected a record in one of content/{sources,programs,suites,providers,platforms,"
        "validations,case-studies,checklists,questions,analyses,concerns}/, found a file elsewhere"
    )
    assert [str(problem) for problem in problems] == [
        "content/questions/b.yml:1:1: expected a .yaml file, found b.yml",
        f"content/question/c.yaml:1:1: {elsewhere}",
        f"content/questions/sub/d.yaml:1:1: {elsewhere}",
    ]


def test_modeline_is_the_first_line() -> None:
    line = modeline("questions").encode()
    assert check_modeline("questions", "q.yaml", line + b"\nid: q\n") == []
    for raw in (b"id: q\n", line, b"\n" + line + b"\n"):
        assert [str(p) for p in check_modeline("questions", "q.yaml", raw)] == [
            f"q.yaml:1:1: expected the first line to be '{line.decode()}', so editors check "
            "this file as you type"
        ]


def test_a_mapping_without_its_modeline_is_read_with_a_warning(tmp_path: Path) -> None:
    """The mappings' modelines came after the content's history began: an earlier revision is
    still read (by the changelog and `cloudqual diff`), and today's checks still say so."""
    real = Path(__file__).parents[2] / "content" / "imports" / "mlperf-training.yaml"
    lines = real.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[0] == modeline("imports-mlperf-training") + "\n"
    path = tmp_path / "imports" / "mlperf-training.yaml"
    path.parent.mkdir()
    path.write_text("".join(lines[1:]), encoding="utf-8")
    found, problems = check_mappings([path], tmp_path)
    assert list(found) == ["mlperf-training"]
    assert [(p.severity, p.path, p.position.line) for p in problems] == [
        ("warning", "imports/mlperf-training.yaml", 1)
    ]


def test_file_name_is_the_id() -> None:
    path = MINIMAL / "questions" / "test-question.yaml"
    document, problems = load_text("content/questions/x.yaml", path.read_bytes())
    assert document is not None and problems == []
    record, problems = validate(Question, document)
    assert record is not None and problems == []
    assert check_file_name(record, path, document) == []
    for stem in ("other-question", "Test-Question"):
        misnamed = check_file_name(record, path.with_stem(stem), document)
        assert [str(p) for p in misnamed] == [
            f"content/questions/x.yaml:2:5: id: expected the id to equal the file name {stem!r}, "
            "found 'test-question'"
        ]
