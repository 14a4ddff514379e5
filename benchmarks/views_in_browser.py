"""The buyer's tables at 1,000 results: the HTML each weighs, and how long a filter change takes
in Chromium, the real content's pages measured side by side with the synthetic ones.

Run: .venv/bin/python benchmarks/views_in_browser.py [rounds]

Builds the real content and 1,000 validations of `tests/synthetic.py` with `mkdocs build
--strict`, serves each site folder, and opens in Chromium the compare page and the largest
figures page of each. For each page it prints the HTML's size, and the median time of a filter
change: the control set, its change event dispatched (the page's script narrows the table
synchronously, as it does for a click) and the layout that follows forced, timed in the page by
`performance.now()`. Each round changes every filter of a page to each of a few values and back,
alternating the two sites. It prints the medians and the ratio of 1,000 results to the real
content's.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The tests folder in place of this one: benchmarks/markdown.py would shadow the library.
sys.path[0] = str(ROOT / "tests")

from browsing import CHROMIUM, CHROMIUM_ARGS, served  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from synthetic import synthetic_content  # noqa: E402

SIZE = 1000
MB = 1 << 20

# One filter change, timed in the page: the select or box set, its change dispatched, and the
# layout it causes forced by reading a height.
CHANGE = """([selector, value]) => {
  const control = document.querySelector(selector);
  const started = performance.now();
  if (control.type === "checkbox") control.checked = !control.checked;
  else control.value = value;
  control.dispatchEvent(new Event("change", { bubbles: true }));
  document.body.offsetHeight;
  return performance.now() - started;
}"""

# Each select filter of the page with up to three of its values, and the first boxes of each
# group of boxes: the changes a round makes.
CONTROLS = """() => {
  const found = [];
  for (const select of document.querySelectorAll(".cq-controls select")) {
    const values = Array.from(select.options, (o) => o.value).filter((v) => v).slice(0, 3);
    for (const value of values) found.push([`select[name="${select.name}"]`, value]);
    found.push([`select[name="${select.name}"]`, ""]);
  }
  for (const box of Array.from(document.querySelectorAll(".cq-boxes input")).slice(0, 3)) {
    const selector = `.cq-boxes input[name="${box.name}"][value="${CSS.escape(box.value)}"]`;
    found.push([selector, null], [selector, null]);
  }
  return found;
}"""


def project(folder: Path, content: Path) -> Path:
    folder.mkdir(parents=True)
    shutil.copyfile(ROOT / "mkdocs.yml", folder / "mkdocs.yml")
    shutil.copytree(ROOT / "templates", folder / "templates")
    shutil.copytree(content, folder / "content")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "CLOUDQUAL_AS_OF": "2026-12-02"}
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet"],
        cwd=folder,
        env=env,
        check=True,
    )
    return folder / "site"


def pages(site: Path) -> list[str]:
    """The compare page and the largest figures page of a site, as paths under it."""
    figures = max((site / "figures").glob("*/index.html"), key=lambda p: p.stat().st_size)
    return ["compare/", figures.parent.relative_to(site).as_posix() + "/"]


def main(rounds: int = 3) -> None:
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        sites = {
            "real": project(folder / "real", ROOT / "content"),
            str(SIZE): project(folder / "synthetic", synthetic_content(folder / "source", SIZE)),
        }
        times: dict[tuple[str, str], list[float]] = {}
        sizes: dict[tuple[str, str], int] = {}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for _ in range(rounds):
                for name, site in sites.items():
                    with served(site) as base:
                        for kind, path in zip(("compare", "figures"), pages(site), strict=True):
                            sizes[(name, kind)] = (site / path / "index.html").stat().st_size
                            page = browser.new_page(viewport={"width": 1280, "height": 900})
                            page.goto(base + path)
                            page.wait_for_load_state("networkidle")
                            for change in page.evaluate(CONTROLS):
                                took = page.evaluate(CHANGE, change)
                                times.setdefault((name, kind), []).append(took)
                            page.close()
            browser.close()
        for kind in ("compare", "figures"):
            real, large = (statistics.median(times[(n, kind)]) for n in sites)
            slowest = max(times[(str(SIZE), kind)])
            print(
                f"{kind}: HTML {sizes[('real', kind)] / MB:.2f} MB real, "
                f"{sizes[(str(SIZE), kind)] / MB:.2f} MB at {SIZE}; filter change median "
                f"{real:.1f} ms real, {large:.1f} ms at {SIZE} (slowest {slowest:.1f} ms, "
                f"{len(times[(str(SIZE), kind)])} changes); ratio {large / real:.1f}"
            )


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:2]))
