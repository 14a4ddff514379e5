"""Chart conversion: cold serial vs cold parallel vs warm (cached), measured side by side.

Run: .venv/bin/python benchmarks/charts.py [rounds] [copies]

`copies` multiplies the real content's charts (each copy retitled, so each is a distinct spec) to
stand for a site with many more records.

Machines here are noisy, so the three modes alternate within each round and the report gives
ratios of medians from the same run, not absolute times.
"""

from __future__ import annotations

import dataclasses
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.checks.loader import load_site  # noqa: E402
from generator.model.options import Options  # noqa: E402
from generator.model.policy import Policy  # noqa: E402
from generator.render import charts  # noqa: E402
from generator.render.renderer import Renderer  # noqa: E402
from generator.render.svg import SvgStore  # noqa: E402


def main(rounds: int = 3, copies: int = 1) -> None:
    site = load_site(ROOT / "content")
    renderer = Renderer(site, Options(ROOT / "templates", Policy(date.today())))
    # Each copy is told apart by its title, so it is its own cache entry and its own SVG.
    specs = {
        f"{chart.id}.{theme}.{copy}": charts.drawing(
            dataclasses.replace(chart, title=f"{chart.title} ({copy})"), theme
        )
        for chart in renderer.charts.values()
        for theme in charts.THEMES
        for copy in range(copies)
    }
    SvgStore(None, workers=1).render(dict(list(specs.items())[:1]))  # start the converter once
    times: dict[str, list[float]] = {"serial": [], "parallel": [], "warm": []}
    for _ in range(rounds):
        for mode in times:
            with tempfile.TemporaryDirectory() as cache:
                store = SvgStore(Path(cache), workers=1 if mode == "serial" else None)
                if mode == "warm":
                    store.render(specs)
                    store = SvgStore(Path(cache))
                started = time.perf_counter()
                store.render(specs)
                times[mode].append(time.perf_counter() - started)
                assert store.conversions == (0 if mode == "warm" else len(specs))
    median = {mode: statistics.median(values) for mode, values in times.items()}
    print(f"{len(specs)} specs, {rounds} rounds")
    print(f"medians: { {k: round(v, 3) for k, v in median.items()} }")
    print(f"parallel / serial (cold): {median['parallel'] / median['serial']:.2f}")
    print(f"warm / serial (cold):     {median['warm'] / median['serial']:.3f}")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:3]))
