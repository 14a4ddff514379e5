"""`cloudqual diff`: what changed for a buyer between two content trees.

Each golden case edits a copy of the minimal content one way and compares the report with
`tests/fixtures/diff/CASE.md`, the exact Markdown a pull request's comment would show. After a
deliberate change, CLOUDQUAL_UPDATE_GOLDEN=diffs rewrites them (golden_files.py): read the diff
before committing.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from datetime import date
from html import unescape
from pathlib import Path

import jsonschema
import pytest
from comments import github_html, outside_code
from conftest import ROOT
from golden_files import assert_golden

from generator.changes import compare, report
from generator.changes.diff import diff
from generator.checks.loader import load_site
from generator.model.options import Options
from generator.model.policy import Policy
from generator.model.site import Site
from generator.pipeline.run import page_texts

MINIMAL = ROOT / "tests" / "fixtures" / "minimal" / "content"
GOLDEN = ROOT / "tests" / "fixtures" / "diff"
POLICY = Policy(date(2026, 12, 2))
VALIDATION = "validations/test-validation.yaml"
MEASURED = """measurements:
  - workload: Model A
    metric: time to train
    value: 10.5
    unit: min
    source: test-source
    grade: provider-reported
"""
OTHER_SOURCE = """# yaml-language-server: $schema=../../schemas/sources.schema.json
id: other-source
title: Another synthetic source
publisher: Test Publisher
kind: announcement
url: null
published: null
provider: test-provider
program: test-program
"""


def _replace(path: str, old: str, new: str) -> Callable[[Path], None]:
    def edit(content: Path) -> None:
        target = content / path
        text = target.read_text(encoding="utf-8")
        assert old in text, (path, old)
        target.write_text(text.replace(old, new), encoding="utf-8")

    return edit


def _add(path: str, text: str) -> Callable[[Path], None]:
    def edit(content: Path) -> None:
        (content / path).write_text(text, encoding="utf-8")

    return edit


def _second_result(content: Path) -> None:
    text = (content / VALIDATION).read_text(encoding="utf-8")
    (content / "validations" / "second-validation.yaml").write_text(
        text.replace("id: test-validation", "id: second-validation"), encoding="utf-8"
    )


def _chain(*edits: Callable[[Path], None]) -> Callable[[Path], None]:
    def edit(content: Path) -> None:
        for each in edits:
            each(content)

    return edit


_measured = _replace(VALIDATION, "predecessor: null\n", "predecessor: null\n" + MEASURED)
# Each case: what is done to the base tree (or None) and to the head tree.
CASES: dict[str, tuple[Callable[[Path], None] | None, Callable[[Path], None]]] = {
    "nothing": (None, lambda content: None),
    "result-added": (None, _second_result),
    "result-removed": (_second_result, lambda content: None),
    "outcome": (None, _replace(VALIDATION, "  result: pass\n", "  result: fail\n")),
    "grade-raised": (
        _replace(
            VALIDATION,
            "{text: It passed., source: test-source, grade: provider-reported}",
            "{text: It passed., source: test-source, grade: secondary}",
        ),
        lambda content: None,
    ),
    "grade-lowered": (
        None,
        _replace(
            VALIDATION,
            "{text: It passed., source: test-source, grade: provider-reported}",
            "{text: It passed., source: test-source, grade: secondary}",
        ),
    ),
    "statement-added": (
        None,
        _replace(
            VALIDATION,
            "claims:\n",
            "claims:\n  - {text: It ran twice., source: test-source, grade: provider-reported}\n",
        ),
    ),
    "scale": (None, _replace(VALIDATION, "  accelerators: 64\n", "  accelerators: 128\n")),
    "date-moved": (None, _replace(VALIDATION, "announced: 2026-01-31", "announced: 2025-11-30")),
    "authored-caveat-removed": (
        None,
        _replace(
            VALIDATION,
            "caveats:\n  - {id: one-site, text: One site only., source: test-source}\n",
            "caveats: []\n",
        ),
    ),
    "derived-caveat-and-coverage": (
        None,
        _replace(VALIDATION, "stated_suite: null", "stated_suite: test-suite"),
    ),
    "item-closed": (
        None,
        _replace(
            VALIDATION,
            "test-question: {answer: not-published, source: test-source}",
            "test-question: {answer: 'yes', source: test-source}",
        ),
    ),
    "item-opened": (
        _replace(
            VALIDATION,
            "test-question: {answer: not-published, source: test-source}",
            "test-question: {answer: 'yes', source: test-source}",
        ),
        lambda content: None,
    ),
    "statement-removed": (
        None,
        _replace(
            VALIDATION,
            "  - {text: It passed., source: test-source, grade: provider-reported}\n",
            "",
        ),
    ),
    "derived-caveat-added": (
        _replace(VALIDATION, "stated_suite: null", "stated_suite: test-suite"),
        lambda content: None,
    ),
    "measurement-added": (None, _measured),
    "measurement-removed": (_measured, lambda content: None),
    "measurement-changed-same-source": (
        _measured,
        _chain(_measured, _replace(VALIDATION, "value: 10.5", "value: 9.5")),
    ),
    "measurement-changed-new-source": (
        _measured,
        _chain(
            _measured,
            _add("sources/other-source.yaml", OTHER_SOURCE),
            _replace(
                VALIDATION,
                "    value: 10.5\n    unit: min\n    source: test-source",
                "    value: 9.5\n    unit: min\n    source: other-source",
            ),
        ),
    ),
    "source-removed": (
        _chain(
            _add("sources/other-source.yaml", OTHER_SOURCE),
            _replace(
                VALIDATION,
                "  text: It passed.\n  source: test-source",
                "  text: It passed.\n  source: other-source",
            ),
        ),
        _add("sources/other-source.yaml", OTHER_SOURCE),
    ),
}


_cites_other = _chain(
    _add("sources/other-source.yaml", OTHER_SOURCE),
    _replace(
        VALIDATION,
        "claims:\n",
        "claims:\n  - {text: It ran., source: other-source, grade: provider-reported}\n",
    ),
)
# What a hostile probe changed that the diff did not see (issue 43, finding 2): each edits the
# head tree only, and names the change the diff must report, or "page changed" where no result
# shows it and only the pages' comparison can.
PROBES: dict[str, tuple[Callable[[Path], None] | None, Callable[[Path], None], str]] = {
    "a written caveat's text": (
        None,
        _replace(VALIDATION, "text: One site only.", "text: Every site."),
        "authored caveat changed",
    ),
    "a measurement's grade lowered": (
        _measured,
        _chain(
            _measured,
            _replace(VALIDATION, "    grade: provider-reported\n", "    grade: secondary\n"),
        ),
        "measurement grade",
    ),
    "the outcome's sentence": (
        None,
        _replace(VALIDATION, "  text: It passed.\n", "  text: It passed every test.\n"),
        "outcome text",
    ),
    "the deployment's location": (
        None,
        _replace(VALIDATION, "  location: null", "  location: Iceland"),
        "deployment",
    ),
    "an offer of a trial": (
        _replace(
            VALIDATION,
            "predecessor: null\n",
            "predecessor: null\noffer: {source: test-source, grade: provider-reported, "
            "available_now: null, trial_before_commitment: null}\n",
        ),
        _replace(
            VALIDATION,
            "predecessor: null\n",
            "predecessor: null\noffer: {source: test-source, grade: provider-reported, "
            "available_now: null, trial_before_commitment: true}\n",
        ),
        "offer",
    ),
    "an evidence answer's detail": (
        None,
        _replace(
            VALIDATION,
            "test-question: {answer: not-published, source: test-source}",
            "test-question: {answer: not-published, source: test-source, detail: Withheld.}",
        ),
        "evidence",
    ),
    "a source's address set": (
        None,
        _replace("sources/test-source.yaml", "url: null", "url: https://tracker.test/t?id=1"),
        "source changed",
    ),
    "the methodology page": (
        None,
        lambda content: (content / "pages" / "methodology.md").write_text(
            (content / "pages" / "methodology.md").read_text(encoding="utf-8") + "\nMore.\n",
            encoding="utf-8",
        ),
        "page changed",
    ),
    "a provider's statement": (
        None,
        _replace("providers/test-provider.yaml", "A synthetic provider.", "A trusted provider."),
        "page changed",
    ),
    "a program's does-not-mean grade": (
        None,
        _replace(
            "programs/test-program.yaml",
            "{text: A guarantee., grade: not-established, reason: It is a qualification., "
            "source: test-source}",
            "{text: A guarantee., grade: provider-reported, source: test-source}",
        ),
        "page changed",
    ),
    "a value moved to a source the result already cites": (
        _chain(_cites_other, _measured),
        _chain(
            _cites_other,
            _measured,
            _replace(
                VALIDATION,
                "    value: 10.5\n    unit: min\n    source: test-source",
                "    value: 9.5\n    unit: min\n    source: other-source",
            ),
        ),
        "measurement changed",
    ),
}


def _trees(tmp_path: Path, case: str) -> tuple[Path, Path]:
    base_edit, head_edit = CASES[case] if case in CASES else PROBES[case][:2]
    base, head = tmp_path / "base", tmp_path / "head"
    shutil.copytree(MINIMAL, base)
    shutil.copytree(MINIMAL, head)
    if base_edit is not None:
        base_edit(base)
    head_edit(head)
    return base, head


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_kind_of_change_reads_as_its_golden_report(tmp_path: Path, case: str) -> None:
    base, head = _trees(tmp_path, case)
    found = diff(base, head, policy=POLICY, base_label="base", head_label="head")
    assert_golden("diffs", GOLDEN / f"{case}.md", report.markdown(found))


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("grade-raised", compare.GRADE_RAISED),
        ("date-moved", compare.DATE_MOVED),
        ("measurement-changed-same-source", compare.VALUE_WITHOUT_SOURCE),
        ("source-removed", compare.SOURCE_REMOVED),
    ],
)
def test_what_a_reviewer_must_look_at_twice_is_flagged(
    tmp_path: Path, case: str, expected: str
) -> None:
    base, head = _trees(tmp_path, case)
    found = diff(base, head, policy=POLICY, base_label="base", head_label="head")
    assert expected in {c.look_twice for c in found.changes}
    assert f"Look twice: {expected}." in report.markdown(found)


@pytest.mark.parametrize(
    "case", ["grade-lowered", "measurement-changed-new-source", "scale", "outcome"]
)
def test_an_ordinary_change_is_not_flagged(tmp_path: Path, case: str) -> None:
    base, head = _trees(tmp_path, case)
    found = diff(base, head, policy=POLICY, base_label="base", head_label="head")
    assert found.changes
    assert all(c.look_twice is None for c in found.changes)
    assert "### Look twice" not in report.markdown(found)


def _pages(content: Path, site: Site) -> dict[str, str]:
    return page_texts(content, site, Options(ROOT / "templates", POLICY))


@pytest.mark.parametrize("case", sorted(CASES) + sorted(PROBES))
def test_nothing_changed_is_said_only_of_two_builds_whose_pages_read_the_same(
    tmp_path: Path, case: str
) -> None:
    """The rule the diff holds to: both sides are built, and the report says "nothing
    changed" exactly when every page of the two builds reads the same."""
    base, head = _trees(tmp_path, case)
    found = diff(base, head, policy=POLICY, base_label="base", head_label="head", pages=_pages)
    same = _pages(base, load_site(base)) == _pages(head, load_site(head))
    assert ("Nothing a buyer reads has changed." in report.markdown(found)) == same, case
    assert same == (case == "nothing")
    if case in PROBES:
        expected = PROBES[case][2]
        if expected == "page changed":
            assert found.pages and not found.changes, found
        else:
            assert expected in {c.what for c in found.changes}, found.changes


def test_a_value_moved_to_a_source_the_result_already_cites_is_looked_at_twice(
    tmp_path: Path,
) -> None:
    base, head = _trees(tmp_path, "a value moved to a source the result already cites")
    found = diff(base, head, policy=POLICY, base_label="base", head_label="head")
    [moved] = [c for c in found.changes if c.what == "measurement changed"]
    assert moved.look_twice == compare.VALUE_WITHOUT_SOURCE


def test_the_json_document_follows_its_schema(tmp_path: Path) -> None:
    base, head = _trees(tmp_path, "measurement-changed-same-source")
    found = diff(base, head, policy=POLICY, base_label="base", head_label="head")
    document = json.loads(found.model_dump_json())
    jsonschema.validate(document, report.schema())
    assert document["changes"][0]["what"] == "measurement changed"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**document, "changes": [{"what": "a forged kind"}]}, report.schema())


HOSTILE = (
    "<script>alert(1)</script> <!-- cloudqual diff --> @octocat #1 GH-99 owner/repo#7 "
    "::error::x [link](javascript:x) ![i](https://evil.test/a.png) https://evil.test/login "
    "www.evil.test foo@bar.test ~~struck~~ :warning: $\\huge x$ ``a` *b* &#64;c"
)


def test_contributors_text_is_shown_as_text_in_the_comment(tmp_path: Path) -> None:
    base, head = _trees(tmp_path, "nothing")
    _replace(
        VALIDATION,
        "{text: It passed., source: test-source, grade: provider-reported}",
        "{text: " + json.dumps(HOSTILE) + ", source: test-source, grade: provider-reported}",
    )(head)
    text = report.markdown(diff(base, head, policy=POLICY, base_label="base", head_label="head"))
    assert text.startswith(report.MARKER + "\n")
    html = github_html(text)
    # The report's own marker, as an HTML comment, once; the forged one is text in code.
    assert html.count("<!-- cloudqual diff -->") == 1 and "&lt;!-- cloudqual diff --&gt;" in html
    assert "<script" not in html and "<img" not in html and "<a " not in html
    assert "<del>" not in html and "<em>" not in html
    prose = outside_code(html)
    for pinged in ("@", "#1", "#7", "GH-99", "evil.test", ":warning:", "$", "::error::"):
        assert pinged not in prose, pinged
    # The statement reads as written, whole, in one code span.
    spans = [unescape(span) for span in re.findall(r"<code>(.*?)</code>", html)]
    assert HOSTILE in spans


def test_a_huge_diff_is_cut_short_and_says_so(tmp_path: Path) -> None:
    base, head = _trees(tmp_path, "nothing")
    validation = (head / VALIDATION).read_text(encoding="utf-8")
    for index in range(100):
        (head / "validations" / f"added-{index:03}.yaml").write_text(
            validation.replace("id: test-validation", f"id: added-{index:03}"), encoding="utf-8"
        )
    found = diff(base, head, policy=POLICY, base_label="base", head_label="head")
    assert len(found.changes) == 100
    text = report.markdown(found, limit=5_000)
    assert len(text) <= 5_000
    shown = text.count("\n- result added")
    assert 0 < shown < 100
    assert f"… and {100 - shown} more changes, left out here" in text
    assert len(report.markdown(found)) > 5_000  # uncut without a limit


def test_a_change_shown_twice_is_counted_once_in_what_was_left_out(tmp_path: Path) -> None:
    claim = "  - {text: It passed., source: test-source, grade: provider-reported}\n"
    statements = "".join(
        claim.replace("It passed.", f"Statement {index:03}.") for index in range(100)
    )
    base, head = _trees(tmp_path, "nothing")
    _replace(VALIDATION, claim, statements.replace("provider-reported", "secondary"))(base)
    _replace(VALIDATION, claim, statements)(head)
    found = diff(base, head, policy=POLICY, base_label="base", head_label="head")
    assert len(found.changes) == 100 and all(c.look_twice for c in found.changes)
    text = report.markdown(found, limit=report.SHORTEST)
    assert len(text) <= report.SHORTEST
    shown = set(re.findall(r"Statement (\d{3})", text))
    assert 0 < len(shown) < 100
    assert f"… and {100 - len(shown)} more changes, left out here" in text


def _has(revision: str) -> bool:
    found = subprocess.run(
        ["git", "-C", str(ROOT), "cat-file", "-e", f"{revision}^{{commit}}"],
        capture_output=True,
        check=False,
    )
    return found.returncode == 0


# Two real revisions of content/: Lambda's v6.0 records checked against a copy of the round, and
# the analyses of Lambda v4.1's corrupted log lines and Oracle's GB200 system name.
BEFORE, AFTER = "c974c91", "10ebe15"


@pytest.mark.slow
@pytest.mark.skipif(not _has(BEFORE) or not _has(AFTER), reason="a checkout without history")
def test_two_real_revisions_of_the_content(tmp_path: Path) -> None:
    command = [
        sys.executable, "-m", "generator.cli", "diff", BEFORE, AFTER,
        "--repository", str(ROOT), "--as-of", "2026-12-04", "--format", "json",
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    jsonschema.validate(document, report.schema())
    changed = {(c["result"], c["what"], c["subject"]) for c in document["changes"]}
    lambda_v6 = "lambda-gb300-nvl72-mlperf-training-v6"
    assert (lambda_v6, "authored caveat removed", "under-review") in changed
    assert (lambda_v6, "source added", "training-results-v6-0-copy") in changed
    assert (
        "oracle-nvidia-gb200-mlperf-training-v5-0",
        "authored caveat added",
        "system-name-inconsistent",
    ) in changed
    assert document["results_before"] == document["results_after"] == 28


def test_a_tree_that_is_neither_folder_nor_revision_is_refused(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "generator.cli", "diff", "--not-a-rev", str(MINIMAL)]
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    command = [sys.executable, "-m", "generator.cli", "diff", "no-such-thing", str(MINIMAL),
               "--repository", str(tmp_path)]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=tmp_path)
    assert result.returncode == 2 and "neither a folder nor a git revision" in result.stderr
    # No templates, no pages to compare: refused, never "nothing changed".
    command = [sys.executable, "-m", "generator.cli", "diff", str(MINIMAL), str(MINIMAL)]
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=tmp_path)
    assert result.returncode == 2 and "is not a templates folder" in result.stderr
    assert "Nothing a buyer reads" not in result.stdout


def test_content_that_fails_its_checks_is_reported_not_compared(tmp_path: Path) -> None:
    base, head = _trees(tmp_path, "nothing")
    _replace(VALIDATION, "  result: pass\n", "  result: 12\n")(head)
    command = [sys.executable, "-m", "generator.cli", "diff", str(base), str(head),
               "--templates", str(ROOT / "templates")]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=tmp_path)
    assert result.returncode == 1
    assert "does not pass the checks" in result.stderr and "test-validation.yaml" in result.stderr
    # For a pull request's comment, a report that says which tree, and why.
    assert result.stdout.startswith(report.MARKER)
    assert f"The content of `{head}` does not pass the checks" in result.stdout
    assert "test-validation.yaml:" in result.stdout
    json_command = [*command, "--format", "json"]
    result = subprocess.run(json_command, capture_output=True, text=True, check=False, cwd=tmp_path)
    assert result.returncode == 1 and result.stdout == ""
