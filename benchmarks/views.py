"""The site at 100 and 1,000 validations: pages, the largest page, the search index, build time.

Run: .venv/bin/python benchmarks/views.py [rounds]

Both sizes are synthetic content (tests/synthetic.py: the real content plus distinct copies of
its validations), built by `mkdocs build --strict` in a temporary folder with a shared, warm chart
cache, alternating sizes in each round. It prints each size's figures and the ratio of 1,000 to
100, which is about 10 when the build grows linearly.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from synthetic import synthetic_content  # noqa: E402

SIZES = (100, 1000)


def project(folder: Path, size: int, cache: Path) -> Path:
    folder.mkdir(parents=True)
    shutil.copyfile(ROOT / "mkdocs.yml", folder / "mkdocs.yml")
    shutil.copytree(ROOT / "templates", folder / "templates")
    synthetic_content(folder / "content", size)
    (folder / ".cache").mkdir()
    (folder / ".cache" / "cloudqual").symlink_to(cache)
    return folder


def build(folder: Path) -> float:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "CLOUDQUAL_AS_OF": "2026-12-02"}
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"],
        cwd=folder,
        env=env,
        check=True,
    )
    return time.perf_counter() - started


def main(rounds: int = 2) -> None:
    with tempfile.TemporaryDirectory() as temporary:
        cache = Path(temporary) / "cache"
        cache.mkdir()
        folders = {size: project(Path(temporary) / str(size), size, cache) for size in SIZES}
        build(folders[SIZES[0]])  # fill the chart cache
        times: dict[int, list[float]] = {size: [] for size in SIZES}
        for _ in range(rounds):
            for size in SIZES:
                times[size].append(build(folders[size]))
        figures = {}
        for size in SIZES:
            site = folders[size] / "site"
            pages = list(site.rglob("*.html"))
            largest = max(pages, key=lambda p: p.stat().st_size)
            index = site / "search" / "search_index.json"
            figures[size] = {
                "pages": len(pages),
                "largest page (kB)": largest.stat().st_size / 1000,
                "search index (kB)": index.stat().st_size / 1000,
                "build (s)": statistics.median(times[size]),
            }
            print(f"{size} validations: " + ", ".join(
                f"{name} {value:,.1f}" for name, value in figures[size].items()
            ) + f"; largest: {largest.relative_to(site)}")  # fmt: skip
        small, large = (figures[size] for size in SIZES)
        print(
            "1,000 / 100: " + ", ".join(f"{name} {large[name] / small[name]:.2f}" for name in small)
        )


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:]))
