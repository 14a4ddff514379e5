"""Printed problems cannot forge CI output: no workflow commands, raw control characters, Markdown
or oversized summaries from contributors' file names, keys and values, whatever they hold."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import MINIMAL, copy_content
from hypothesis import given, settings
from hypothesis import strategies as st

from generator import report
from generator.checks.loader import load_site
from generator.cli import main
from generator.problems import ContentError, Position, Problem, plain, quote

# Each one tries a way out of its line, its quoting or its table cell.
HOSTILE = [
    "x\n::error file=README.md,line=1::forged",
    "x\r::add-mask::secret",
    "x\r\n::warning::crlf",
    "\x1b[31mred\x1b[0m\x07\x1b]0;title\x07",
    "a\u2028::error::line separator\u2029::error::paragraph\x85::error::next line",
    "nul\x00del\x7fvt\x0bff\x0cfs\x1c",
    "%0A::error::percent%0D%25 %3A %2C",
    "##[error]legacy ##[add-mask]secret",
    "  ::error::indented",
    "\t::error::tab",
    "\u00a0\u3000::error::unicode spaces",
    "::add-mask::start",
    "`` ``` `code` ](https://evil.test) ![x](https://evil.test/p.png) [phish](https://evil.test)",
    "<img src=https://evil.test/p.png> <script>alert(1)</script> | pipe \\| <!-- x",
    "\u202eevil bidi override\ufeff\u200b",
    "\udcff lone surrogate",
    "trailing backslash \\",
    "`",
    " ` ",
]

# The characters the runner, terminals and Markdown treat specially, mixed into any text.
SPECIAL = list(":#[]%,=`|<>!()\\ \t\n\r\x0b\x0c\x1b\x00\x7f\x85\u2028\u2029\u202e\ufeff\udcff")
TEXT = st.text(st.one_of(st.sampled_from(SPECIAL), st.characters()), max_size=80)

PROPERTY_ESCAPES = [("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")]
DATA_ESCAPES = [("%0D", "\r"), ("%0A", "\n"), ("%25", "%")]


def _unescape(text: str, escapes: list[tuple[str, str]]) -> str:
    for escaped, character in escapes:
        text = text.replace(escaped, character)
    return text


def parse_command(line: str) -> tuple[str, dict[str, str], str] | None:
    """A line as the Actions runner reads a `::` workflow command (ActionCommand.TryParseV2)."""
    message = line.lstrip()
    if not message.startswith("::"):
        return None
    end = message.find("::", 2)
    if end < 0:
        return None
    name, _, properties_text = message[2:end].partition(" ")
    properties = {}
    for pair in properties_text.strip().split(","):
        key, _, value = pair.partition("=")
        if key and value:
            properties[key] = _unescape(value, PROPERTY_ESCAPES)
    return name, properties, _unescape(message[end + 2 :], DATA_ESCAPES)


def decoded(problem: Problem) -> tuple[str, dict[str, str], str]:
    """What the runner must read from the problem's annotation: each part, quoted."""
    title = f"cloudqual: {quote(problem.field)}" if problem.field else "cloudqual"
    properties = {
        "file": quote(problem.path),
        "line": str(problem.position.line),
        "col": str(problem.position.column),
        "title": title.rstrip(),  # the runner trims the end of the properties
    }
    return problem.severity, properties, quote(problem.message)


def assert_harmless(line: str) -> None:
    """A printed line that the runner cannot read as a command, and a terminal shows as text."""
    assert line.isprintable(), repr(line)
    assert len(line.splitlines()) <= 1, repr(line)
    assert not line.lstrip().startswith("::"), repr(line)
    assert "##[" not in line, repr(line)  # the runner finds the legacy form anywhere in a line


def test_quote_leaves_ordinary_text_alone() -> None:
    for text in [
        "content/validations/test-validation.yaml",
        "expected one of the fields id, name, found unknown field 'nme'; did you mean 'name'?",
        "found character '\\t' that cannot start any token",  # ruamel's own escape, kept
        'the text "Ünïcödé — “quoted” · 10 %, 2×2, #1 [a] :b"',
        "ends with a colon:",
    ]:
        assert quote(text) == text


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ("a\nb", "a\\nb"),
        ("a\rb", "a\\rb"),
        ("a\tb", "a\\tb"),
        ("\x1b[31m", "\\x1b[31m"),
        ("\x00\x07\x7f\x85\x9f", "\\x00\\x07\\x7f\\x85\\x9f"),
        ("\u2028\u2029", "\\u2028\\u2029"),
        ("\u00a0", "\\xa0"),
        ("\u202e\u200b\ufeff", "\\u202e\\u200b\\ufeff"),
        ("bad\udcff.yaml", "bad\\udcff.yaml"),
        ("\U000e0041", "\\U000e0041"),
        ("##[add-mask]x", "##\\x5badd-mask]x"),
        ("a ###[error]", "a ###\\x5berror]"),
        ("::error::x", "\\x3a:error::x"),
        ("   ::x", "   \\x3a:x"),
        ("\n::error::x", "\\n::error::x"),
        ("a ::b", "a ::b"),
    ],
)
def test_quote_escapes_what_breaks_out(text: str, quoted: str) -> None:
    assert quote(text) == quoted


@settings(max_examples=300, derandomize=True, database=None)
@given(TEXT)
def test_quoted_text_is_one_harmless_line(text: str) -> None:
    assert_harmless(quote(text))


@settings(max_examples=300, derandomize=True, database=None)
@given(TEXT.filter(bool), TEXT, TEXT, st.sampled_from(["error", "warning"]))
def test_a_problem_prints_and_annotates_as_one_harmless_line(
    path: str, field: str, message: str, severity: str
) -> None:
    problem = Problem(path, Position(3, 4), field, message, severity)
    assert_harmless(str(problem))
    assert str(problem) == plain(problem)
    line = report.annotation(problem)
    assert line.isprintable() and len(line.splitlines()) == 1
    assert parse_command(line) == decoded(problem)


def test_annotation_escaping_follows_the_actions_toolkit() -> None:
    problem = Problem("content/a,b:c.yaml", Position(3, 4), "x", "100% wrong, line: here")
    assert report.annotation(problem) == (
        "::error file=content/a%2Cb%3Ac.yaml,line=3,col=4,title=cloudqual%3A x"
        "::100%25 wrong, line: here"
    )
    warning = Problem("f.yaml", Position(1, 1), "", "w", severity="warning")
    assert report.annotation(warning) == "::warning file=f.yaml,line=1,col=1,title=cloudqual::w"


def test_annotations_are_capped_per_level() -> None:
    problems = [Problem("f.yaml", Position(i, 1), "", f"e{i}") for i in range(1, 15)]
    problems += [Problem("g.yaml", Position(i, 1), "", "w", severity="warning") for i in (1, 2)]
    lines = report.github(problems)
    assert sum(line.startswith("::error ") for line in lines) == 10
    assert sum(line.startswith("::warning ") for line in lines) == 2
    assert lines[-1] == (
        "::notice title=cloudqual::4 more problems are not annotated; "
        "the log of this step lists every one"
    )
    assert report.summary(problems).count("\n| error |") == 14


def test_log_lists_every_problem_between_stop_and_resume() -> None:
    problems = [Problem("f.yaml", Position(i, 1), "", "x\n::error::forged") for i in range(1, 4)]
    lines = report.log(problems, "t0ken")
    assert lines[0] == "::stop-commands::t0ken" and lines[-1] == "::t0ken::"
    assert lines[1:-1] == [f"f.yaml:{i}:1: x\\n::error::forged" for i in range(1, 4)]
    assert report.log(problems) == lines[1:-1]
    assert report.log([], "t0ken") == []


def cells(row: str) -> list[str]:
    """A Markdown table row's cells, split as GitHub splits them: on `|` not after a backslash."""
    assert row.startswith("| ") and row.endswith(" |")
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", row[2:-2])]


def code_span(cell: str) -> str:
    """The text a cell shows, asserting the cell is one code span that its text cannot close."""
    fence = re.match(r"`+", cell)
    assert fence, cell
    inner = cell[fence.end() : len(cell) - fence.end()]
    assert cell.endswith(fence.group()) and inner, cell
    assert all(len(run) < fence.end() for run in re.findall(r"`+", inner)), cell
    if inner.startswith(" ") and inner.endswith(" ") and inner.strip(" "):
        inner = inner[1:-1]  # CommonMark strips one padding space from each side
    return inner.replace("\\|", "|")


@pytest.mark.parametrize("text", HOSTILE)
def test_summary_shows_contributors_text_as_code(text: str) -> None:
    problem = Problem(f"content/providers/{text}.yaml", Position(2, 1), text, f"found {text}")
    row = report.summary([problem]).splitlines()[-1]
    level, where, field, message = cells(row)
    assert level == "error"
    assert code_span(where) == quote(f"content/providers/{text}.yaml:2:1")
    assert code_span(field) == quote(text)
    assert code_span(message) == quote(f"found {text}")
    assert_harmless(row)


@pytest.mark.slow
def test_summary_stays_under_githubs_limit_and_says_what_it_left_out() -> None:
    fields = ", ".join(f"field_{i}" for i in range(20))
    problems = [
        Problem(
            "content/providers/test-provider.yaml",
            Position(i + 6, 1),
            f"k{i:06d}",
            f"expected one of the fields {fields}, found unknown field 'k{i:06d}'",
        )
        for i in range(100_000)
    ]
    written = report.summary(problems)
    assert len(written.encode("utf-8")) <= report.SUMMARY_BYTES < 1024 * 1024
    shown = written.count("\n| error |")
    assert shown > 1000
    assert written.splitlines()[-1] == (
        f"**{100_000 - shown} more problems are left out of this summary** to keep it under "
        "GitHub's 1 MiB limit; the log of this step lists every problem."
    )


def test_summary_cuts_one_huge_value_short() -> None:
    huge = "k" * 1_000_000
    written = report.summary([Problem("f.yaml", Position(1, 1), huge, f"found {huge!r}")])
    assert len(written.encode("utf-8")) < 4 * report.CELL_CHARACTERS
    assert "Text ending in … is cut short here; the log of this step has it in full." in written
    assert "left out" not in written


def test_summary_of_no_problems() -> None:
    assert report.summary([]) == (
        "## cloudqual check: 0 errors, 0 warnings\n\nEvery record passed.\n"
    )


# End to end: the real command, on content whose file names, keys and values are hostile.

VALIDATION = "validations/test-validation.yaml"


def _yaml_text(text: str) -> str:
    """`text` as a YAML double-quoted scalar: escapes for everything but printable ASCII."""
    escaped = "".join(c if " " <= c <= "~" and c not in '"\\' else f"\\U{ord(c):08x}" for c in text)
    return f'"{escaped}"'


def hostile_content(root: Path) -> Path:
    content = copy_content(MINIMAL, root / "content")
    provider = content / "providers" / "test-provider.yaml"
    for name in [
        "evil\n::error file=README.md,line=1::forged",
        "evil\r##[add-mask]secret",
        "evil\x1b[2J\u2028::warning::x",
        "`](javascript:alert(1))<img src=x> ![x](evil.test)",
    ]:
        shutil.copyfile(provider, content / "providers" / f"{name}.yaml")
    # A file name that is not UTF-8: Python sees a lone surrogate, which cannot be printed raw.
    shutil.copyfile(provider, os.fsdecode(os.fsencode(content / "providers") + b"/evil\xff.yaml"))
    record = content / VALIDATION
    text = record.read_text(encoding="utf-8")
    key = "na\u2028me\n::error file=README.md::forged ![x](https://evil.test/p.png) `"
    value = "x\n::add-mask::secret\x1b[0m ##[error]legacy"
    text = text.replace("  gpus: 64\n", f"  gpus: {_yaml_text(value)}\n")
    text += f"{_yaml_text(key)}: 1\n{_yaml_text(HOSTILE[0])}: 2\n"
    record.write_text(text, encoding="utf-8")
    return content


def expected_problems(content: Path) -> list[Problem]:
    with pytest.raises(ContentError) as raised:
        load_site(content)
    problems = raised.value.problems
    hostile = "".join(p.path + p.field + p.message for p in problems)
    assert "\n" in hostile and "\x1b" in hostile  # the content really is hostile
    assert 5 <= len(problems) <= report.ANNOTATIONS_PER_LEVEL  # every problem is annotated
    return problems


def run_check(project: Path, *options: str) -> tuple[list[str], list[str], Path]:
    summary = project / "summary.md"
    result = subprocess.run(
        [sys.executable, "-m", "generator.cli", "check", *options],
        cwd=project,
        capture_output=True,
        env={**os.environ, "GITHUB_STEP_SUMMARY": str(summary)},
        check=False,
    )
    assert result.returncode == 1, result.stderr
    # Strict UTF-8: a lone surrogate printed raw would have crashed the command or garbled this.
    return result.stdout.decode().splitlines(), result.stderr.decode().splitlines(), summary


def test_check_github_output_holds_only_its_own_commands(tmp_path: Path) -> None:
    content = hostile_content(tmp_path)
    problems = expected_problems(content)
    out, err, summary = run_check(tmp_path, "--format", "github")

    # Every line is harmless, except the command's own: its annotations, then stop and resume.
    own = [i for i, line in enumerate(out) if line.lstrip().startswith("::") or "##[" in line]
    for line in [*(line for i, line in enumerate(out) if i not in own), *err]:
        assert_harmless(line)
    count = len(problems)
    assert own == [*range(count), count, len(out) - 1]

    # One annotation per problem, saying exactly the quoted problem once decoded.
    assert [parse_command(line) for line in out[:count]] == [decoded(p) for p in problems]
    assert all("##[" not in line for line in out[:count])

    # Then every problem's plain line, where the runner ignores commands until the resume token.
    stop, resume = parse_command(out[count]), parse_command(out[-1])
    assert stop is not None and stop[0] == "stop-commands"
    token = stop[2]
    assert re.fullmatch(r"[0-9a-f]{32}", token) and resume == (token, {}, "")
    assert out[count + 1 : -1] == [str(p) for p in problems]
    assert err == [f"cloudqual check: all files checked: {count} errors, 0 warnings."]

    written = summary.read_text(encoding="utf-8")
    rows = [line for line in written.splitlines() if line.startswith("| error |")]
    assert len(rows) == count
    for row, problem in zip(rows, problems, strict=True):
        _, where, field, message = cells(row)
        assert code_span(where).startswith(quote(problem.path))
        assert (code_span(field) if field else "") == quote(problem.field)
        assert code_span(message) == quote(problem.message)


def test_check_text_output_is_harmless(tmp_path: Path) -> None:
    content = hostile_content(tmp_path)
    problems = expected_problems(content)
    out, err, summary = run_check(tmp_path)
    for line in err:
        assert_harmless(line)
    assert out == []
    assert err[:-1] == [str(p) for p in problems]
    assert not summary.exists()


@pytest.mark.slow
def test_check_summary_of_the_largest_file_of_unknown_keys_fits(tmp_path: Path) -> None:
    # The loader refuses files over its size limit; the largest file it reads, all unknown keys,
    # still gives a summary under the cap, and a log that lists every key.
    content = copy_content(MINIMAL, tmp_path / "content")
    provider = content / "providers" / "test-provider.yaml"
    keys = "".join(f"{'k' * 500}{i:05d}: 1\n" for i in range(490))
    provider.write_text(provider.read_text(encoding="utf-8") + keys, encoding="utf-8")
    assert provider.stat().st_size > 240_000
    out, _, summary = run_check(tmp_path, "--format", "github")
    written = summary.read_bytes()
    assert len(written) < 1024 * 1024 and len(written) <= report.SUMMARY_BYTES
    assert sum(line.startswith("content/providers/test-provider.yaml:") for line in out) == 490


def test_check_quotes_a_file_name_it_was_given(
    minimal_content: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = minimal_content / "providers" / "x\n::error file=README.md::forged.yaml"
    assert main(["check", "--content", str(minimal_content), str(missing)]) == 2
    printed = capsys.readouterr().err
    assert printed.endswith("\n") and len(printed.splitlines()) == 1
    assert_harmless(printed[:-1])
    assert "x\\n::error file=README.md::forged.yaml" in printed
