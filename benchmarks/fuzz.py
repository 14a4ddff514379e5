"""Fuzz the loader and the checks: the properties of tests/load/test_fuzz.py, on many more examples.

Run: .venv/bin/python benchmarks/fuzz.py [examples] [seed]

The examples (10,000 by default) are shared between the properties in the proportions the test
suite gives them. Unlike the test suite, a failing example does not stop the run: every failure
is counted, and the first example of each distinct failure is printed. The site property edits a
copy of content/ in a temporary folder, never content/ itself. Exits non-zero on any failure.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import test_fuzz as properties  # noqa: E402
from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def run(
    strategy: st.SearchStrategy[Any], check: Callable[[Any], None], examples: int, random_seed: int
) -> tuple[int, Counter[str], dict[str, str]]:
    """Examples run, failures by kind, and the first example of each kind."""
    ran = 0
    failures: Counter[str] = Counter()
    first: dict[str, str] = {}

    def counted(example: Any) -> None:
        nonlocal ran
        ran += 1
        try:
            check(example)
        except Exception as error:  # every failure is counted, none stops the run
            kind = (
                f"{type(error).__name__}: {str(error).splitlines()[0][:160] if str(error) else ''}"
            )
            failures[kind] += 1
            first.setdefault(kind, repr(example)[:400])

    runner = settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )(given(strategy)(counted))
    seed(random_seed)(runner)()
    return ran, failures, first


def main(examples: int = 10_000, random_seed: int = 0) -> int:
    with tempfile.TemporaryDirectory() as folder:
        content = Path(folder) / "content"
        shutil.copytree(properties.CONTENT, content)
        cases: dict[str, tuple[st.SearchStrategy[Any], Callable[[Any], None]]] = {
            "text": (st.text(), properties.check_text),
            "bytes": (st.binary(max_size=300), properties.check_bytes),
            "yaml-like": (properties.yaml_like_text, properties.check_text),
            "deep": (properties.deep_text, properties.check_text),
            "record": (st.data(), properties.check_record),
            "site": (st.data(), lambda data: properties.check_site(data, content)),
        }
        weights = properties.EXAMPLES
        total_ran, total_failed = 0, 0
        for name, (strategy, check) in cases.items():
            share = max(1, round(examples * weights[name] / sum(weights.values())))
            started = time.perf_counter()
            ran, failures, first = run(strategy, check, share, random_seed)
            elapsed = time.perf_counter() - started
            failed = sum(failures.values())
            total_ran, total_failed = total_ran + ran, total_failed + failed
            print(f"{name:10} {ran:6,} examples  {failed:5,} failures  {elapsed:7.1f} s")
            for kind, count in failures.most_common():
                print(f"    {count:,} x {kind}\n      first: {first[kind]}")
    print(f"{'total':10} {total_ran:6,} examples  {total_failed:5,} failures")
    return 1 if total_failed else 0


if __name__ == "__main__":
    sys.exit(main(*(int(argument) for argument in sys.argv[1:3])))
