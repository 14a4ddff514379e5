"""How checking and rendering grow with the number of records: 100 against 1,000 validations.

Run: .venv/bin/python benchmarks/scale.py [rounds]

The records are tests/synthetic.py's: the real content plus distinct copies of its validations
(own ids, dates and figures), made in a temporary folder (never in content/). Both sizes are
measured in the same run, alternating, and the report gives the ratio of the per-validation cost
at 1,000 to that at 100: near 1.0 means linear growth.
"""

from __future__ import annotations

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
from generator.pipeline.run import site_output  # noqa: E402
from generator.render.reuse import Reuse  # noqa: E402
from generator.render.svg import SvgStore  # noqa: E402

# Charts converted once and kept in memory: this measures checking and rendering, not vl-convert.
STORE = SvgStore(None)

sys.path.insert(0, str(ROOT / "tests"))

from synthetic import synthetic_content  # noqa: E402


def content_with(validations: int, folder: Path) -> Path:
    return synthetic_content(folder / "content", validations)


def measure(content: Path) -> tuple[float, float]:
    started = time.perf_counter()
    site = load_site(content)
    checked = time.perf_counter()
    site_output(site, Options(ROOT / "templates", Policy(date.today())), reuse=Reuse(svg=STORE))
    return checked - started, time.perf_counter() - checked


def main(rounds: int = 3) -> None:
    sizes = (100, 1000)
    results: dict[int, list[tuple[float, float]]] = {size: [] for size in sizes}
    with tempfile.TemporaryDirectory() as folder:
        contents = {size: content_with(size, Path(folder) / str(size)) for size in sizes}
        measure(contents[100])  # warm imports and template compilation
        for _ in range(rounds):
            for size in sizes:
                results[size].append(measure(contents[size]))
    for stage, index in (("check (load + validate + cross-check)", 0), ("render pages", 1)):
        per = {size: statistics.median(r[index] for r in results[size]) / size for size in sizes}
        print(f"{stage}: per-validation cost at 1000 / at 100 = {per[1000] / per[100]:.2f}")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:2]))
