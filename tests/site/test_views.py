"""The views a buyer comes for, in chromium, light and dark: on the real content and on 1,000
synthetic validations (tests/synthetic.py), built by `mkdocs build --strict`."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from browsing import chromium, served
from build import make_project, mkdocs_build
from conftest import EXHAUSTIVE, variants
from playwright.sync_api import Browser, Page, expect
from synthetic import synthetic_content

from generator.checks.loader import load_site
from generator.derive import workloads

pytestmark = pytest.mark.browser
SYNTHETIC = 1000
# No view here reads differently in the dark scheme (test_browser holds the scheme itself, and
# axe checks both), so make test runs the light one; the nightly run runs both.
SCHEMES = variants(["light"], ["light", "dark"])
# What scale changes is the compare table and the charts; the workload and side-by-side pages
# read the same at any size, so make test opens them on the real site only.
BOTH = ["real", "synthetic"]
REAL = variants(["real"], BOTH)
MAX_PAGE_BYTES = 1 << 20


@pytest.fixture(scope="module")
def synthetic_built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("synthetic")
    content = synthetic_content(folder / "source", SYNTHETIC)
    project = make_project(folder / "project", content)
    result = mkdocs_build(project, CLOUDQUAL_AS_OF="2026-12-02")
    assert result.returncode == 0, result.stderr[-3000:]
    return project / "site"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def site_dir(request: pytest.FixtureRequest) -> Path:
    """The real site, or the 1,000-result one: each test names which it needs (REAL, BOTH)."""
    name = "built" if request.param == "real" else "synthetic_built"
    return request.getfixturevalue(name)  # type: ignore[no-any-return]


def open_page(
    browser: Browser,
    base: str,
    path: str,
    scheme: str = "light",
    script: bool = True,
    width: int = 1280,
) -> Page:
    context = browser.new_context(
        viewport={"width": width, "height": 900},
        color_scheme=scheme,  # type: ignore[arg-type]
        java_script_enabled=script,
    )
    page = context.new_page()
    page.goto(base + path)
    page.wait_for_load_state("networkidle")
    return page


def visible_rows(page: Page, table: str) -> list[list[str]]:
    return page.eval_on_selector_all(
        f"table[data-cq-table={table}] tbody tr",
        "rows => rows.filter(r => !r.hidden)"
        ".map(r => Array.from(r.cells, c => c.textContent.trim()))",
    )


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("site_dir", REAL, indirect=True)
def test_by_workload_answers_three_buyer_questions(
    browser: Browser, site_dir: Path, scheme: str
) -> None:
    content = load_site(site_dir.parent / "content")
    with served(site_dir) as base:
        # 1. "I train a 70B model in FP8 on B300: which results cover it, and how directly?"
        page = open_page(browser, base, "workloads/b300/", scheme)
        rows = {row[1]: row for row in visible_rows(page, "workloads")}
        llama = rows["Llama 3.1 (70B)"]
        assert "FP8" in llama[3]
        links = page.locator("tr", has_text="Llama 3.1 (70B)").get_by_role("link")
        hrefs = {link.get_attribute("href") for link in links.all()}
        assert "../../validations/crusoe-hgx-b300-exemplar/" in hrefs
        assert "in inferred suite" in " ".join(llama) and "measured" not in " ".join(llama)
        # The only 70B time measured on B300 is MLPerf's LoRA fine-tune, at 8 GPUs.
        assert "measured, 8.48 min at 8 GPUs" in " ".join(rows["Llama 2 70B LoRA"])
        # 2. "...and a mixture-of-experts model?" DeepSeek-V3 is in Crusoe's inferred suite, in
        # three precisions; no source we hold labels its architecture, and the page says so.
        deepseek = rows["DeepSeek-V3 (671B)"]
        assert deepseek[2] == "not labelled by the suite" and deepseek[3] == "BF16, FP8, NVFP4"
        assert "in inferred suite" in " ".join(deepseek)
        page.context.close()
        # 3. "Who has measured Llama 3.1 8B on B200?" Filter to MLPerf, read the row.
        page = open_page(browser, base, "workloads/b200/", scheme)
        page.select_option("select[name=cq-program]", label="MLPerf Training")
        shown = visible_rows(page, "workloads")
        assert {row[0] for row in shown} == {"MLPerf Training"}
        headers = page.eval_on_selector_all(
            "table[data-cq-table=workloads] thead th", "ths => ths.map(t => t.textContent.trim())"
        )
        (row,) = [r for r in shown if r[1] == "Llama 3.1 8B"]
        measured = {headers[i] for i, cell in enumerate(row) if "measured" in cell}
        expected = {
            content.providers[v.provider].name
            for v in content.validations.values()
            if v.platform in ("hgx-b200", "nvidia-b200-sxm-180gb")
            and v.program == "mlperf-training"
            and any(m.workload == "Llama 3.1 8B" for m in v.measurements)
        }
        assert measured == expected and len(expected) >= 3
        page.context.close()


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("site_dir", REAL, indirect=True)
def test_side_by_side_shows_the_rows_both_measured(
    browser: Browser, site_dir: Path, scheme: str
) -> None:
    content = load_site(site_dir.parent / "content")
    first = content.validations["nebius-nvidia-b200-sxm-180gb-mlperf-training-v5-1"]
    with served(site_dir) as base:
        page = open_page(browser, base, f"validations/{first.id}/", scheme)
        link = page.locator(".cq-facts a[href*='pairs/']").first
        link.click()
        page.wait_for_load_state("networkidle")
        pair = page.url.rstrip("/").rsplit("/", 1)[1]
        second = content.validations[next(i for i in pair.split("--") if i != first.id)]
        a, b = sorted((first, second), key=lambda v: v.id)
        rows = page.eval_on_selector_all(
            ".cq-pair-measurements tbody tr",
            "rows => rows.map(r => Array.from(r.cells, c => c.textContent.trim()))",
        )
        shared = {m.benchmark for m in a.measurements} & {m.benchmark for m in b.measurements}
        assert shared and len(rows) == len(shared)
        for row in rows:
            (benchmark,) = {m.benchmark for m in a.measurements if m.workload == row[0]}
            for record, cell in ((a, row[1]), (b, row[2])):
                values = [m for m in record.measurements if m.benchmark == benchmark]
                assert values and all(f"{m.value:.2f} min" in cell for m in values)
        page.context.close()


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("site_dir", BOTH, indirect=True)
def test_compare_sorts_filters_and_reads_plain_without_script(
    browser: Browser, site_dir: Path, scheme: str
) -> None:
    with served(site_dir) as base:
        plain = open_page(browser, base, "compare/", scheme, script=False)
        everything = visible_rows(plain, "results")
        assert plain.locator(".cq-controls").count() == 0
        plain.context.close()
        page = open_page(browser, base, "compare/", scheme)
        assert len(visible_rows(page, "results")) == len(everything)
        # Several chips are ticked by plain clicks: a box per chip.
        page.get_by_role("checkbox", name="B200", exact=True).check()
        b200 = visible_rows(page, "results")
        assert b200 and {row[2] for row in b200} == {"B200"}
        assert len(b200) == sum(row[2] == "B200" for row in everything)
        status = page.locator(".cq-controls [role=status]").text_content() or ""
        assert status == f"{len(b200)} of {len(everything)} results shown."
        # One choice a provider, with every result filed under it, as its page lists them:
        # "Lambda" also picks "Lambda (its description names no cloud)".
        # A box each, as the chips have, so two providers can be set beside each other.
        boxes = page.locator("fieldset.cq-boxes", has_text="Provider")
        providers = [t.strip() for t in boxes.locator("label").all_text_contents()]
        assert "Lambda" in providers and not [p for p in providers if "(" in p], providers
        lambda_box = boxes.get_by_role("checkbox", name="Lambda", exact=True)
        lambda_box.check()
        lambda_b200 = visible_rows(page, "results")
        assert {r[2] for r in lambda_b200} == {"B200"}
        assert all(r[0].startswith("Lambda") for r in lambda_b200)
        assert len(lambda_b200) == sum(
            r[0].startswith("Lambda") and r[2] == "B200" for r in everything
        )
        lambda_box.uncheck()
        page.get_by_role("checkbox", name="B200", exact=True).uncheck()
        # Scale, largest first: the first row is the largest result, unstated ones last.
        gpus = page.get_by_role("button", name="Scale")
        gpus.click()
        gpus.click()
        assert page.locator("th", has=gpus).get_attribute("aria-sort") == "descending"
        counts = page.eval_on_selector_all(
            "table[data-cq-table=results] tbody tr",
            "rows => rows.map(r => r.cells[3].dataset.cqValue)",
        )
        stated = [int(c) for c in counts if c]
        assert stated == sorted(stated, reverse=True)
        assert counts[len(stated) :] == [""] * (len(counts) - len(stated))
        page.context.close()


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("site_dir", BOTH, indirect=True)
def test_no_chart_text_is_smaller_than_11px(
    browser: Browser, site_dir: Path, scheme: str, width: int
) -> None:
    """Chart text as a reader sees it, on a desktop and on a phone: a chart is never shrunk, so
    its 12 px text stays 12 px; on a phone it scrolls in its own frame, not the page."""
    pages = ["", "compare/", "case-studies/", "validations/crusoe-hgx-b300-exemplar/"]
    with served(site_dir) as base:
        seen = 0
        for path in pages:
            page = open_page(browser, base, path, scheme, width=width)
            sizes = page.evaluate(
                """async () => {
                  const found = [];
                  for (const img of document.querySelectorAll('img.cq-chart__img')) {
                    if (img.offsetParent === null) continue;  // the other scheme's picture
                    img.scrollIntoView();  // a chart is lazy: it loads as it nears the view
                    await img.decode();
                    const text = await (await fetch(img.src)).text();
                    const svg = new DOMParser().parseFromString(text, 'image/svg+xml');
                    const scale = img.getBoundingClientRect().width /
                      parseFloat(svg.documentElement.getAttribute('width'));
                    for (const t of svg.querySelectorAll('text[font-size]')) {
                      found.push([img.src, parseFloat(t.getAttribute('font-size')) * scale]);
                    }
                  }
                  return found;
                }"""
            )
            assert sizes, path
            small = [(src, size) for src, size in sizes if size < 11]
            assert small == [], path
            assert page.evaluate("document.documentElement.scrollWidth") <= width, path
            seen += len({src for src, _ in sizes})
            page.context.close()
        assert seen == 4  # timeline, evidence, case studies, coverage: one scheme each


def test_pages_stay_linear_and_light_at_1000(synthetic_built: Path, built: Path) -> None:
    """No page passes 1 MB at 1,000 validations, and the pages per validation stay bounded."""
    for site in (built, synthetic_built):
        html = list(site.rglob("*.html"))
        largest = max(html, key=lambda p: p.stat().st_size)
        assert largest.stat().st_size < MAX_PAGE_BYTES, largest
    pages = [p for p in (synthetic_built / "validations").glob("*/index.html")]
    assert len(pages) == SYNTHETIC
    # Each result links at most PARTNERS side-by-side pages, so none becomes a hub of hundreds.
    links = [p.read_text(encoding="utf-8").count('href="../../pairs/') for p in pages]
    assert max(links) == workloads.PARTNERS
    pairs = len(list((synthetic_built / "pairs").iterdir()))
    assert SYNTHETIC <= pairs <= workloads.PARTNERS * SYNTHETIC


def phone_pages(site: Path) -> list[str]:
    """The pages a phone test opens: every page in the nightly run; otherwise one of each kind
    (the first of each folder at each depth) and the largest, where a wide table would be."""
    every = sorted(p.relative_to(site).parent.as_posix() for p in site.rglob("index.html"))
    paths = [("" if p == "." else p + "/") for p in every]
    if EXHAUSTIVE:
        return paths
    kinds: dict[tuple[str, int], str] = {}
    for path in paths:
        kinds.setdefault((path.split("/", 1)[0], path.count("/")), path)
    largest = max(site.rglob("index.html"), key=lambda p: p.stat().st_size)
    return sorted({*kinds.values(), largest.relative_to(site).parent.as_posix() + "/"})


@pytest.mark.parametrize("site_dir", BOTH, indirect=True)
def test_no_page_is_wider_than_a_phone(browser: Browser, site_dir: Path) -> None:
    """At 390 px no page scrolls sideways: a wide table scrolls in its own box, its first
    column, which names each row, kept in view."""
    paths = phone_pages(site_dir)
    assert "" in paths and "compare/" in paths and len(paths) >= 15
    # Without the script too: the theme's header once made every page 403 px wide then.
    plain = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page, plain_page = context.new_page(), plain.new_page()
    scrolled = 0
    with served(site_dir) as base:
        for path in paths:
            plain_page.goto(base + path)
            width = plain_page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, (path, width, "without script")
            page.goto(base + path)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, (path, width)
            # Each table wider than its box: scrolled to its end, the first cell of every row
            # stays at the box's left edge.
            scrolled += page.evaluate(
                """() => {
                  let wide = 0;
                  for (const table of document.querySelectorAll('.md-typeset table.cq-table')) {
                    if (table.scrollWidth <= table.clientWidth) continue;
                    wide += 1;
                    table.scrollLeft = table.scrollWidth;
                    const left = table.getBoundingClientRect().left;
                    for (const row of table.rows) {
                      const cell = row.cells[0].getBoundingClientRect();
                      if (Math.abs(cell.left - left) > 1) throw new Error(row.textContent);
                    }
                  }
                  return wide;
                }"""
            )
    context.close()
    plain.close()
    assert scrolled > 0  # the check ran on tables that scroll


@pytest.mark.parametrize("site_dir", BOTH, indirect=True)
def test_one_address_answers_a_scale_question_and_keeps_the_filters(
    browser: Browser, site_dir: Path
) -> None:
    """ "Who has evidence at 256 or more B300 or GB300 GPUs?" is one address; the filters set on
    the page are written to the address, restored from it, and cleared by one link."""
    from generator.derive.site_facts import derive_site
    from generator.model.policy import Policy

    content = load_site(site_dir.parent / "content")
    rows = derive_site(content, Policy(date(2026, 12, 2))).rows.values()
    expected = sorted(
        (r.provider, r.program)
        for r in rows
        if r.chip in ("B300", "GB300") and r.accelerators is not None and r.accelerators >= 256
    )
    with served(site_dir) as base:
        page = open_page(browser, base, "compare/?chip=B300&chip=GB300&gpus-min=256")
        shown = visible_rows(page, "results")
        assert sorted((row[0], row[1]) for row in shown) == expected and expected
        chosen = page.eval_on_selector_all(
            "input[name=cq-chip]:checked", "boxes => boxes.map(b => b.value)"
        )
        assert chosen == ["B300", "GB300"]
        assert page.input_value("input[name=cq-gpus-min]") == "256"
        status = page.locator(".cq-controls [role=status]").text_content() or ""
        assert status.startswith(f"{len(expected)} of {len(rows)} results shown.")
        # Narrowed on the page: the address follows, and a new visit restores the view.
        page.fill("input[name=cq-announced-min]", "2025-06-01")
        page.select_option("select[name=cq-grade]", "program-owner")
        query = page.url.split("?", 1)[1]
        assert query == (
            "chip=B300&chip=GB300&gpus-min=256&announced-min=2025-06-01&grade=program-owner"
        )
        again = open_page(browser, base, f"compare/?{query}")
        assert visible_rows(again, "results") == visible_rows(page, "results")
        again.get_by_role("link", name="Show every result").click()
        assert len(visible_rows(again, "results")) == len(rows)
        assert "?" not in again.url
        page.context.close()
        again.context.close()


def shown_answers(page: Page) -> dict[str, str]:
    """The compare page's count of answers per question, as its figure reads."""
    lines = page.eval_on_selector_all(
        "figure[data-cq-shown=results] tbody tr",
        "rows => rows.map(r => [r.cells[0].textContent, r.cells[1].textContent])",
    )
    return {label.strip(): words.strip() for label, words in lines}


@pytest.mark.parametrize("site_dir", BOTH, indirect=True)
def test_the_answers_figure_follows_the_filters(browser: Browser, site_dir: Path) -> None:
    """The figure under the results table counts the answers of the rows the filters leave, and
    reads the same as the records say: for every result at first, for a chip after a filter,
    and for every result again after the reset."""
    from generator.derive.site_facts import derive_site
    from generator.model.policy import Policy

    content = load_site(site_dir.parent / "content")
    facts = derive_site(content, Policy(date(2026, 12, 2)))
    order = ["yes", "partial", "no", "not-published", "not-stated", "unanswered", "not-applicable"]

    def expected(ids: list[str]) -> dict[str, str]:
        found = {}
        for i, question in enumerate(sorted(content.questions.values(),
                                             key=lambda q: (q.order, q.id))):  # fmt: skip
            words = [facts.derived[v].answers[i].word for v in ids]
            found[question.label] = ", ".join(
                f"{words.count(w)} {w.replace('-', ' ')}" for w in order if words.count(w)
            )
        return found

    every = [v.id for v in facts.validations]
    b300 = [v for v in every if facts.rows[v].chip == "B300"]
    assert b300
    with served(site_dir) as base:
        page = open_page(browser, base, "compare/")
        assert shown_answers(page) == expected(every)
        page.get_by_role("checkbox", name="B300", exact=True).check()
        assert shown_answers(page) == expected(b300)
        parts = page.eval_on_selector_all(
            "figure[data-cq-shown=results] tbody tr:first-child .cq-stack__part",
            "parts => parts.map(p => [p.className, p.style.flexGrow])",
        )
        assert sum(int(grow) for _, grow in parts) == len(b300)
        page.get_by_role("link", name="Show every result").click()
        assert shown_answers(page) == expected(every)
        page.context.close()
        plain = open_page(browser, base, "compare/", script=False)  # as the page is written
        assert shown_answers(plain) == expected(every)
        plain.context.close()


@pytest.mark.parametrize("site_dir", BOTH, indirect=True)
def test_the_compare_table_fits_a_desktop_screen(browser: Browser, site_dir: Path) -> None:
    """At 1280 px the results table's last column is in view, unscrolled: the page gives the
    table its full width."""
    with served(site_dir) as base:
        page = open_page(browser, base, "compare/")
        fits = page.eval_on_selector(
            "table[data-cq-table=results]",
            """t => [t.scrollWidth <= t.clientWidth,
                     t.tHead.rows[0].lastElementChild.getBoundingClientRect().right,
                     document.documentElement.clientWidth]""",
        )
        assert fits[0] and fits[1] <= fits[2], fits
        page.context.close()


@pytest.mark.parametrize("site_dir", REAL, indirect=True)
def test_no_result_provider_or_workload_table_hides_a_column_at_1280(
    browser: Browser, site_dir: Path
) -> None:
    """At 1280 px every table of every result, provider and workload page shows all its
    columns, unscrolled: a figure of many digits or an MLCommons key breaks in its cell rather
    than push the grade past the edge (as on 8 pages of MLPerf Inference v6.1 it did)."""
    paths = sorted(
        index.parent.relative_to(site_dir).as_posix() + "/"
        for folder in ("validations", "providers", "workloads")
        for index in (site_dir / folder).glob("*/index.html")
    )
    assert len(paths) > 100
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    hidden: list[tuple[str, list[str]]] = []
    tables = 0
    with served(site_dir) as base:
        for path in paths:
            page.goto(base + path)
            found = page.evaluate(
                """() => [...document.querySelectorAll('.md-content table')].map((t) =>
                     t.scrollWidth > t.clientWidth + 1
                       ? (t.tHead ? t.tHead.rows[0].textContent : t.className).trim().slice(0, 80)
                       : '')"""
            )
            tables += len(found)
            if any(found):
                hidden.append((path, [head for head in found if head]))
    context.close()
    assert tables > 300
    assert not hidden, hidden


@pytest.mark.parametrize("site_dir", REAL, indirect=True)
def test_the_concerns_table_keeps_the_programs_in_view(browser: Browser, site_dir: Path) -> None:
    """At 1280 px the table of what each program checks scrolls in its own frame, and its
    programs' names stay at its top over every row; on a phone its rows are cards instead."""
    with served(site_dir) as base:
        page = open_page(browser, base, "concerns/")
        header = page.evaluate(
            """() => {
              const table = document.querySelector('table.cq-concerns');
              table.scrollTop = table.scrollHeight / 2;
              const head = table.tHead.rows[0].cells[1].getBoundingClientRect();
              return [table.scrollTop > 0, Math.round(head.top - table.getBoundingClientRect().top),
                      table.tHead.rows[0].cells[1].textContent.trim()];
            }"""
        )
        assert header == [True, 0, "MLPerf Inference"], header
        page.context.close()


def _pick(page: Page, ids: list[str]) -> None:
    for validation_id in ids:
        page.locator(f"tr[data-cq-id='{validation_id}'] input.cq-pick").check()


@pytest.mark.parametrize("site_dir", REAL, indirect=True)
def test_results_picked_open_side_by_side(browser: Browser, site_dir: Path) -> None:
    """Two rows picked on the compare page open their pair's page where the site has one; three
    (or any other two) open a view composed from the results' API documents. The picks and the
    sort are in the address, so a shared link opens the same view."""
    pairs = sorted(p.parent.name for p in (site_dir / "pairs").glob("*/index.html"))
    first, second = pairs[0].split("--")
    with served(site_dir) as base:
        page = open_page(browser, base, "compare/")
        _pick(page, [first, second])
        page.locator(".cq-picker a").click()
        page.wait_for_load_state("networkidle")
        assert page.url.endswith(f"/pairs/{pairs[0]}/"), page.url
        picked = [
            "lambda-nvidia-h100-sxm5-80gb-mlperf-training-v4-1",
            "nebius-nvidia-b200-sxm-180gb-mlperf-training-v5-1",
            "crusoe-hgx-b300-exemplar",
        ]
        page.goto(base + "compare/")
        page.get_by_role("button", name="Scale").click()
        _pick(page, picked)
        assert page.locator("input.cq-pick:checked").count() == 3
        # The evidence the compare table says for each, to find again beside the others.
        evidence_words = [
            page.locator(f"tr[data-cq-id='{p}'] td.cq-ev-cell").evaluate(
                "td => td.lastChild.textContent.trim()"
            )
            for p in picked
        ]
        # The bar is at the foot of the screen, in reach of the boxes.
        bar = page.locator(".cq-picker").bounding_box()
        assert bar is not None and bar["y"] + bar["height"] <= 900 + 1
        query = page.url.split("?", 1)[1]
        assert query == "sort=gpus&" + "&".join(f"pick={p}" for p in picked)
        # The shared address restores the sort and the picks.
        shared = open_page(browser, base, f"compare/?{query}")
        assert shared.locator("input.cq-pick:checked").count() == 3
        head = shared.locator("th", has=shared.get_by_role("button", name="Scale"))
        assert head.get_attribute("aria-sort") == "ascending"
        assert visible_rows(shared, "results") == visible_rows(page, "results")
        shared.context.close()
        page.locator(".cq-picker a").click()
        page.wait_for_selector("table.cq-pair-picked")
        assert page.url.split("?", 1)[1] == "&".join(f"r={p}" for p in picked)
        heads = page.eval_on_selector_all(
            "table.cq-pair-picked thead th", "ths => ths.map(t => t.textContent.trim())"
        )
        titles = [h.split(": ")[0] for h in heads[1:]]
        assert titles == [
            "Lambda NVIDIA H100-SXM5-80GB",
            "Nebius NVIDIA Blackwell GPU (B200-SXM-180GB)",
            "Crusoe NVIDIA HGX B300",
        ]
        rows = dict(
            page.eval_on_selector_all(
                "table.cq-pair-picked tbody tr",
                "rows => rows.map(r => [r.cells[0].textContent,"
                " Array.from(r.cells).slice(1).map(c => c.textContent)])",
            )
        )
        assert rows["Scale"][2] == "512 GPUs" and rows["Outcome"][2] == "pass (provider-reported)"
        # Every figure of every pick is in the view, a line each, not only those two share:
        # Lambda's H100 and Nebius's B200 ran different workloads, and each column keeps its own.
        for column, pick in enumerate(picked):
            document = json.loads(
                (site_dir / "api" / "v1" / "validations" / f"{pick}.json").read_text()
            )
            workloads = {m["workload"] for m in document["record"]["measurements"]}
            shown = {
                name.split(" (", 1)[0].split(",", 1)[0]
                for name, cells in rows.items()
                if cells[column] != "not measured" and "(" in name
            }
            assert workloads <= shown, (pick, workloads - shown)
        # The evidence in the table's own words, not a count of "yes" answers it dropped.
        assert rows["Evidence"] == evidence_words
        # Validity as the results' pages word it, never the raw status ("no-expiry"): MLPerf
        # states no period; Exemplar's is 12 months, and Crusoe's B300 pass is undated.
        assert rows["Validity"][:2] == [
            "MLPerf Training states no validity period",
            "MLPerf Training states no validity period",
        ]
        assert rows["Validity"][2] == (
            "cannot be computed: the announcement date is not stated (NVIDIA Exemplar Cloud "
            "results are valid 12 months)"
        )
        # On a phone the view reads as cards: every result's value in the screen's width, under
        # its title, none off the edge.
        phone = open_page(browser, base, "pairs/?" + "&".join(f"r={p}" for p in picked), width=390)
        phone.wait_for_selector("table.cq-pair-picked[data-cq-labelled]")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        cell = phone.locator("table.cq-pair-picked tbody tr").first.locator("td").last
        assert cell.get_attribute("data-label") == heads[3]
        box = cell.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390
        phone.context.close()
        # Two providers side by side: both ticked in the provider filter, one press picks every
        # result shown, and the view sets them all beside each other.
        two = open_page(browser, base, "compare/?provider=Crusoe&provider=Lambda")
        shown = [r for r in two.locator("table[data-cq-table] tbody tr").all() if r.is_visible()]
        # A row names its provider first, then any note ("Lambda (joint submission)").
        providers = {r.locator("td, th").first.inner_text().strip().split(" (")[0] for r in shown}
        # Seventeen: the press picks the first twelve, as many as the view sets side by side.
        assert providers == {"Crusoe", "Lambda"} and len(shown) > 12, providers
        two.get_by_role("button", name="Pick the results shown (up to 12)").click()
        assert two.locator("input.cq-pick:checked").count() == 12
        # The five it could not pick are said, not dropped in silence.
        said = two.locator(".cq-picker span").first.inner_text()
        assert said == (
            f"12 picked. {len(shown) - 12} more shown not picked: at most 12 can be set side by "
            "side."
        ), said
        two.locator(".cq-picker a").click()
        two.wait_for_selector("table.cq-pair-picked")
        assert two.locator("table.cq-pair-picked thead th").count() == 12 + 1
        # Twelve columns scroll in their own frame: scrolled to its far corner, the results'
        # titles are still at its top and the lines' names at its left.
        held = two.locator("table.cq-pair-picked").evaluate(
            """frame => { frame.scrollTop = 1e6; frame.scrollLeft = 1e6;
              const box = frame.getBoundingClientRect();
              const head = frame.querySelector('thead th:last-child').getBoundingClientRect();
              const name = frame.querySelector('tbody tr:last-child th').getBoundingClientRect();
              return [frame.scrollTop > 0 && frame.scrollLeft > 0,
                      Math.abs(head.top - box.top) < 2, Math.abs(name.left - box.left) < 2]; }"""
        )
        assert held == [True, True, True], held
        two.context.close()
        # An address that names no result, or one not made of an id, composes nothing.
        for query in ("a=nothing-here&b=crusoe-hgx-b300-exemplar", "a=%3Cscript%3E&b=x"):
            page.goto(base + f"pairs/?{query}")
            page.wait_for_load_state("networkidle")
            assert page.locator("table.cq-pair-picked").count() == 0
        said = page.locator(".cq-picked").is_hidden()
        assert said  # the last address was refused before anything was fetched
        page.context.close()


@pytest.mark.parametrize("site_dir", BOTH, indirect=True)
def test_the_figures_of_a_chip_answer_which_cloud_is_closest_to_the_maker(
    browser: Browser, site_dir: Path
) -> None:
    """From the home page, two clicks to a chip's figures; one filter and one sort there answer
    "for Llama 2 70B on B200, which cloud is closest to NVIDIA's own?"; the address keeps the
    filters and the sort, and the copy control copies it; the header row stays in view."""
    with served(site_dir) as base:
        page = open_page(browser, base, "")
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        page.get_by_role("link", name="the figures").click()
        page.get_by_role("link", name="B200", exact=True).click()
        page.wait_for_load_state("networkidle")
        assert page.url == base + "figures/b200/"
        every = visible_rows(page, "figures")
        page.select_option("select[name=cq-benchmark]", label="Llama 2 70B")
        page.select_option(
            "select[name=cq-under]",
            label="Server, 99% of the FP32 reference; closed division, available",
        )
        page.get_by_role("button", name="Against the chip maker's own").click()
        page.get_by_role("button", name="Against the chip maker's own").click()
        shown = visible_rows(page, "figures")
        assert shown and len(shown) < len(every)
        assert {row[1] for row in shown} == {"Llama 2 70B"}
        shares = page.eval_on_selector_all(
            "table[data-cq-table=figures] tbody tr:not([hidden])",
            "rows => rows.map(r => r.cells[4].dataset.cqValue)",
        )
        stated = [float(s) for s in shares if s]
        assert stated == sorted(stated, reverse=True) and stated
        assert shares[len(stated) :] == [""] * (len(shares) - len(stated))
        query = page.url.split("?", 1)[1]
        assert query.endswith("&sort=-share") and query.startswith("benchmark=Llama+2+70B")
        page.get_by_role("button", name="Copy the link to this view").click()
        expect(page.locator(".cq-copier [aria-live]")).to_have_text("Link copied.")
        assert page.evaluate("navigator.clipboard.readText()") == page.url
        again = open_page(browser, base, f"figures/b200/?{query}")
        assert visible_rows(again, "figures") == shown
        again.context.close()
        # Scrolled inside the table, its header row is still where it was.
        whole = open_page(browser, base, "figures/b200/")
        table = whole.locator("table[data-cq-table=figures]")
        table.scroll_into_view_if_needed()
        top = table.locator("thead th").first.bounding_box()
        assert table.evaluate("t => { t.scrollTop = 400; return t.scrollTop; }") > 0
        after = table.locator("thead th").first.bounding_box()
        assert top is not None and after is not None and abs(after["y"] - top["y"]) < 1
        whole.context.close()
        page.context.close()


CARD_PAGES = [
    "validations/nebius-nvidia-b200-sxm-180gb-mlperf-inference-v5-1/",
    # A result's systems, each with its description cited by a plain word.
    "validations/coreweave-nvidia-gb300-mlperf-training-v6-0/",
    "providers/nebius/",
    "trial-checklists/nebius-nvidia-b200-sxm-180gb-mlperf-inference-v5-1/",
    # The sortable tables too: their header's sort buttons stay, in a row above the cards.
    "compare/",
    "figures/b200/",
    # Two results side by side: three columns that a phone cut at the second.
    "pairs/azure-gb300-exemplar--nebius-nvidia-gb300-mlperf-training-v6-0/",
    # The home page's providers by program, and the lists of results.
    "",
    "validations/",
    "figures/",
    # A program's concerns and its catalogue of criteria, the workloads index and the data page's
    # endpoints; a summary whose framework build is one long token.
    "programs/semianalysis-clustermax/",
    "workloads/",
    "data/",
    "validations/google-cloud-nvidia-gb200-mlperf-inference-v6-1/",
]


@pytest.mark.parametrize("site_dir", REAL, indirect=True)
def test_result_provider_and_workload_tables_read_as_cards_on_a_phone(
    browser: Browser, site_dir: Path
) -> None:
    """At 390 px a result's, a provider's and a checklist's wide tables are cards: a row each,
    every cell under its column's name, none wider than the screen. At 1280 px they stay
    tables, and without the script they scroll in their box."""
    workload = next(p for p in sorted((site_dir / "workloads").glob("*/index.html")))
    paths = [*CARD_PAGES, workload.parent.relative_to(site_dir).as_posix() + "/"]
    read = """() => [...document.querySelectorAll('table.cq-cards')].map((table) => {
        const cell = table.tBodies[0].rows[0].cells[1];
        return {
          labelled: table.hasAttribute('data-cq-labelled'),
          rowDisplay: getComputedStyle(table.tBodies[0].rows[0]).display,
          label: getComputedStyle(cell, '::before').content,
          header: table.tHead.rows[0].cells[1].textContent.trim(),
          wider: table.getBoundingClientRect().right > window.innerWidth + 1,
        };
      })"""
    with served(site_dir) as base:
        for width, script in ((390, True), (1280, True), (390, False)):
            context = browser.new_context(
                viewport={"width": width, "height": 844}, java_script_enabled=script
            )
            page = context.new_page()
            for path in paths:
                page.goto(base + path)
                tables = page.evaluate(read)
                assert tables, path
                for table in tables:
                    assert table["labelled"] is script, (path, table)
                    cards = width == 390 and script
                    assert (table["rowDisplay"] == "block") is cards, (path, width, table)
                    if cards:
                        # The cell shows its column's name above it (CSS wraps content in quotes).
                        assert table["label"] == f'"{table["header"]}"', (path, table)
                        assert not table["wider"], (path, table)
                if width == 390 and script and page.locator("table[data-cq-table]").count():
                    # Read as cards, a sortable table keeps its sort buttons in reach.
                    sort = page.locator("table[data-cq-table] thead button").first
                    assert sort.is_visible(), path
                    box = sort.bounding_box()
                    assert box is not None and box["x"] + box["width"] <= width, path
                if width == 1280:
                    # A cite that is a plain word reads whole, never "descriptio/n".
                    split = page.evaluate(
                        """() => [...document.querySelectorAll('a.cq-cite--word')]
                          .filter((a) => a.getClientRects().length > 1).length"""
                    )
                    assert split == 0, path
                if not script:
                    continue  # without the script, the tables are as they were: not cards
                wide = page.evaluate(
                    """(width) => [...document.querySelectorAll('.md-content *')]
                      .filter((e) => e.getBoundingClientRect().right > width + 1)
                      .slice(0, 3).map((e) => e.outerHTML.slice(0, 160))""",
                    width,
                )
                assert page.evaluate("document.documentElement.scrollWidth") <= width, (path, wide)
                if width == 390:
                    # Nor does a table scroll in its own box: a value cut at the box's edge is
                    # as lost on a phone as one past the screen's.
                    scrolled = page.evaluate(
                        """() => [...document.querySelectorAll('.md-content table')]
                          .filter((t) => t.offsetParent !== null)
                          // a chart's data table, in its closed disclosure, is not on screen
                          .filter((t) => t.closest('details:not([open])') === null)
                          .filter((t) => t.scrollWidth > t.clientWidth + 1)
                          .map((t) => [t.className, t.scrollWidth, t.clientWidth])"""
                    )
                    assert not scrolled, (path, scrolled)
            context.close()


@pytest.mark.parametrize("site_dir", REAL, indirect=True)
def test_a_filter_hides_the_cards_it_leaves_out_on_a_phone(
    browser: Browser, site_dir: Path
) -> None:
    """Read as cards, a table's rows are blocks: a row a filter leaves out must still be hidden,
    as many shown as the status line counts."""
    with served(site_dir) as base:
        page = open_page(browser, base, "compare/?chip=GB300", width=390)
        status = page.locator(".cq-controls [role=status]").inner_text()
        shown, total = (int(n) for n in re.findall(r"\d+", status)[:2])
        assert 0 < shown < total, status
        rows = page.locator("table[data-cq-table=results] tbody tr")
        assert sum(row.is_visible() for row in rows.all()) == shown
        first = next(row for row in rows.all() if row.is_visible())
        assert first.evaluate("r => getComputedStyle(r).display") == "block"
        page.context.close()
