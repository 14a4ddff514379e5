"""How checking hostile Markdown grows with its size: each pattern at 4K to 256K characters.

Run: .venv/bin/python benchmarks/markdown.py [--rounds N] [--sizes 4,8,16,32,64,128,256]
                                             [--patterns NAME,...] [--max-seconds S] [--cli]

Each pattern is a hand-written page, or the texts of a record, of each size (K: 1,024
characters; 256K is the page limit, 256 KiB) laid over a copy of tests/fixtures/minimal/content,
and timed through what `cloudqual check` runs: `load_site`. A page is checked there (the check
renders it, or refuses it before rendering); a record's texts are not rendered by the check, so
a record pattern's time adds what the build then does with them, `markup.block` on each text, if
the check let them through. A record pattern is a validation file of the size (256K is the file
limit), its claims' texts filling it, each of at most 4,000 characters (the schema's limit).

Every size of every pattern is measured in each round, the sizes in a rotating order, and the
median of the rounds is reported, with the ratio of each size's time to the previous size's:
2 for linear growth, 4 for quadratic. "empty" is the fixture alone, what every case pays besides
its pattern. Growth that is quadratic makes the large sizes of the code before the budget run
for hours: a pattern whose size took more than --max-seconds in the first round is not measured
at larger sizes (shown as "-"). With --cli, `cloudqual check` is then run as a command on each
pattern's page at the largest size, as a contributor would, with the wall time of each run.
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Python puts this script's folder first on the path, where this file would stand in for the
# `markdown` package; the project's root takes its place.
sys.path[0] = str(ROOT)

from generator.checks.loader import load_site  # noqa: E402
from generator.problems import ContentError  # noqa: E402
from generator.render import markup  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "minimal" / "content"
SIZES = (4, 8, 16, 32, 64, 128, 256)
RECORD_TEXT = 4_000  # the schema's limit on one text


def repeated(unit: str) -> Callable[[int], str]:
    """`unit` over and over, cut to the size: one paragraph unless the unit breaks it."""
    return lambda size: (unit * (size // len(unit) + 1))[:size]


def opened(opener: str, count: int) -> Callable[[int], str]:
    """`count` openers that are never closed, then plain words to the size: one paragraph, few
    marks, which Markdown reads to its end for each opener."""
    return lambda size: (opener * count + "lorem ipsum " * (size // 12 + 1))[:size]


def nested_lists(size: int) -> str:
    lines, level = [], 0
    while sum(map(len, lines)) < size:
        lines.append(" " * 4 * level + "- a\n")
        level += 1
    return "".join(lines)[:size]


# The review's patterns and the ones found beside them, by name, each with what it repeats; one
# paragraph unless the unit holds a blank line.
PAGES: dict[str, Callable[[int], str]] = {
    "brackets": repeated("["),
    "nested-brackets": lambda size: "[" * (size // 2) + "]" * (size - size // 2),
    "link-opens": repeated("[a]("),
    "images": repeated("!["),
    "emphasis": repeated("*a"),
    "strong": repeated("**a "),
    "underscores": repeated("_a_ "),
    "backticks": repeated("``a"),
    "code-spans": repeated("`a` "),
    "tags": repeated("<a"),
    "tags-open": repeated("<a "),
    "autolinks-open": repeated("<http://"),
    "comments-open": repeated("<!--"),
    "cdata": repeated("<![CDATA["),
    "entities": repeated("&amp;"),
    "escapes": repeated("\\*"),
    "line-breaks": repeated("a  \n"),
    "definitions": repeated("[r]: /u\n"),
    "quotes-nested": repeated(">"),
    "lists-nested": nested_lists,  # "- a" indented four more spaces on each line
    "headings": repeated("# a\n"),
    "setext": repeated("a\n-\n"),
    "rules": repeated("***\n"),
    "admonitions": repeated("!!! note\n"),
    "brackets-left-open": opened("[", 4),
    "links-left-open": opened("[a](", 4),
    "tag-per-paragraph": repeated("<div>\n\n"),
    # Markdown that renders in linear time, at every size.
    "table-rows": lambda size: ("a|b\n-|-\n" + "a|b\n" * (size // 4))[:size],
    "flat-list": repeated("- a\n"),
    "heading-per-paragraph": repeated("# a\n\n"),
    "comment-per-paragraph": repeated("<!-- a -->\n\n"),
    "prose": repeated("A [link](u), *emphasis*, `code` and &amp; in prose.\n\n"),
}

# Record texts: at most 4,000 characters each.
RECORDS: dict[str, Callable[[int], str]] = {
    "record-brackets": repeated("["),
    "record-emphasis": repeated("*a"),
    "record-code-spans": repeated("`a` "),
    "record-entities": repeated("&a;"),
    "record-tags": repeated("<b>"),
}


def _yaml_block(text: str, indent: str) -> str:
    return "".join(f"{indent}{line}\n" for line in text.split("\n"))


def _validation(texts: list[str]) -> str:
    """The fixture's validation with `texts` as its claims."""
    original = (FIXTURE / "validations" / "test-validation.yaml").read_text(encoding="utf-8")
    head, rest = original.split("claims:\n", 1)
    claims = "".join(
        "  - source: test-source\n    grade: provider-reported\n    text: |-\n"
        + _yaml_block(text, "      ")
        for text in texts
    )
    return head + "claims:\n" + claims + "evidence:" + rest.split("evidence:", 1)[1]


def _record(pattern: Callable[[int], str], size: int) -> tuple[str, list[str]]:
    """The fixture's validation, `size` bytes long, and its claims' texts: of 4,000 characters
    but the last, each its number and the pattern, so that no two are alike (the renderer keeps
    what it rendered by text)."""
    texts: list[str] = []
    while True:
        room = size - len(_validation([*texts, ""]).encode("utf-8"))
        if room <= 0:
            return _validation(texts), texts
        number = f"{len(texts)} "
        texts.append(number + pattern(min(room, RECORD_TEXT) - len(number)))


def prepare(folder: Path, case: str, size: int) -> tuple[Path, list[str]]:
    """A content folder for `case` at `size` characters, and the record texts the build would
    render after the check (none for a page)."""
    content = folder / "content"
    if content.exists():
        shutil.rmtree(content)
    shutil.copytree(FIXTURE, content)
    if case in PAGES:
        (content / "pages" / "hostile.md").write_text(PAGES[case](size), encoding="utf-8")
        return content, []
    if case in RECORDS:
        record, texts = _record(RECORDS[case], size)
        (content / "validations" / "test-validation.yaml").write_text(record, encoding="utf-8")
        return content, texts
    return content, []  # "empty"


def measure(content: Path, texts: list[str]) -> tuple[float, str]:
    """Seconds to check the content, and to render the record texts if the check passed; and
    how the check ended: " " passed, "r" refused, "c" crashed with RecursionError."""
    markup._clean.cache_clear()
    started = time.perf_counter()
    try:
        load_site(content)
        outcome = " "
    except ContentError:
        outcome = "r"
    except RecursionError:
        outcome = "c"
    if outcome == " ":
        for text in texts:
            markup.block(text)
    return time.perf_counter() - started, outcome


def run(cases: list[str], sizes: list[int], rounds: int, max_seconds: float) -> None:
    times: dict[tuple[str, int], list[float]] = {}
    outcomes: dict[tuple[str, int], str] = {}
    skipped: set[tuple[str, int]] = set()
    with tempfile.TemporaryDirectory() as folder:
        measure(*prepare(Path(folder), "empty", 0))  # imports and first-use costs
        for round_number in range(rounds):
            order = sizes[round_number % len(sizes) :] + sizes[: round_number % len(sizes)]
            for size in order:
                for case in cases:
                    if (case, size) in skipped:
                        continue
                    content, texts = prepare(Path(folder), case, size * 1024)
                    seconds, outcome = measure(content, texts)
                    times.setdefault((case, size), []).append(seconds)
                    outcomes[(case, size)] = outcome
                    if round_number == 0 and seconds > max_seconds:
                        skipped.update((case, larger) for larger in sizes if larger > size)
            print(f"round {round_number + 1} of {rounds} done", file=sys.stderr, flush=True)
    report(cases, sizes, times, outcomes)


def report(
    cases: list[str],
    sizes: list[int],
    times: dict[tuple[str, int], list[float]],
    outcomes: dict[tuple[str, int], str],
) -> None:
    width = max(len(case) for case in cases)
    print(f"{'median seconds':{width}}  " + "  ".join(f"{size:>6}K" for size in sizes))
    for case in cases:
        cells = []
        for size in sizes:
            if (case, size) not in times:
                cells.append(f"{'-':>7}")
                continue
            median = statistics.median(times[(case, size)])
            cells.append(f"{median:6.3f}{outcomes[(case, size)]}")
        print(f"{case:{width}}  " + "  ".join(cells))
    print("\n(r: refused by the check; c: the check crashed with RecursionError)\n")
    steps = [f"{small}K>{large}K" for small, large in itertools.pairwise(sizes)]
    print(f"{'ratio to the size before':{width}}  " + "  ".join(f"{s:>9}" for s in steps))
    for case in cases:
        cells = []
        for small, large in itertools.pairwise(sizes):
            if (case, small) in times and (case, large) in times:
                ratio = statistics.median(times[(case, large)]) / statistics.median(
                    times[(case, small)]
                )
                cells.append(f"{ratio:9.2f}")
            else:
                cells.append(f"{'-':>9}")
        print(f"{case:{width}}  " + "  ".join(cells))


def cli(cases: list[str], size: int, timeout: float) -> None:
    """`cloudqual check` as a command on each page pattern at `size`, with its wall time."""
    print(f"\n`cloudqual check` on the fixture with one {size}K page of each pattern:")
    with tempfile.TemporaryDirectory() as folder:
        for case in cases:
            if case not in PAGES:
                continue
            content, _ = prepare(Path(folder), case, size * 1024)
            started = time.perf_counter()
            try:
                result = subprocess.run(
                    [sys.executable, "-m", "generator.cli", "check", "--content", str(content)],
                    cwd=ROOT,
                    capture_output=True,
                    text=True,
                    check=False,
                    timeout=timeout,
                )
                outcome = f"exit {result.returncode}"
            except subprocess.TimeoutExpired:
                outcome = f"still running after {timeout:.0f} s, stopped"
            print(f"  {case}: {time.perf_counter() - started:.2f} s, {outcome}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--patterns", default="", help="names, comma-separated (default: all)")
    parser.add_argument("--max-seconds", type=float, default=20.0)
    parser.add_argument("--cli", action="store_true")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    every = ["empty", *PAGES, *RECORDS]
    cases = [name for name in args.patterns.split(",") if name] or every
    unknown = [name for name in cases if name not in every]
    if unknown:
        parser.error(f"unknown patterns {unknown}; known: {every}")
    run(cases, sizes, args.rounds, args.max_seconds)
    if args.cli:
        cli(cases, max(sizes), timeout=600)


if __name__ == "__main__":
    main()
