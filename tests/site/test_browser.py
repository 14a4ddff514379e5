"""The built site in a real browser: Debian's chromium, driven by Playwright. Every test runs on
the site as MkDocs builds it and as Zensical builds it (`engine_built`): the same reader's steps
must work on both."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from browsing import chromium, served
from conftest import ROOT
from playwright.sync_api import Browser, ConsoleMessage, Locator, Page, expect

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def base_url(engine_built: Path) -> Iterator[str]:
    with served(engine_built) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    yield opened
    context.close()


def search(page: Page, term: str) -> tuple[Locator, Locator]:
    """Type `term` into the site's search, as a reader does: Material's search field in the
    header, or the button that opens Zensical's search dialog. Returns where each shows the
    number of results ("N matching documents", "N results") and the results themselves."""
    # Material builds its index in a worker from search_index.json; typing before that is ignored.
    page.wait_for_load_state("networkidle")
    zensical = page.locator(".md-search__button")
    if zensical.count():
        zensical.click()
        dialog = page.locator('dialog[aria-label="Search"]')
        dialog.locator("input").press_sequentially(term, delay=50)
        return dialog.locator("[role=status]"), dialog.locator("[role=listbox]")
    page.locator(".md-search__input").click()
    page.locator(".md-search__input").press_sequentially(term, delay=50)
    return page.locator(".md-search-result__meta"), page.locator(".md-search-result__list")


def test_validation_page_renders_and_requests_only_this_host(page: Page, base_url: str) -> None:
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto(base_url + "validations/crusoe-hgx-b300-exemplar/")
    page.wait_for_load_state("networkidle")
    assert page.title().startswith("Crusoe NVIDIA HGX B300")
    heading = page.get_by_role("heading", name="What this does not establish")
    assert heading.is_visible()
    assert page.get_by_text("8 × 3 = 24 combinations").is_visible()
    badges = page.locator(".cq-statements--not .cq-grade--not-established")
    assert badges.count() >= 8
    assert all(badge.is_visible() for badge in badges.all()[:3])
    foreign = [url for url in requested if not url.startswith(base_url)]
    assert foreign == []
    assert len(requested) > 3  # the page, its stylesheets and scripts were really fetched


def test_dark_mode_toggle_changes_scheme_and_grade_colours(page: Page, base_url: str) -> None:
    page.goto(base_url + "validations/crusoe-hgx-b300-exemplar/")
    badge = page.locator(".cq-grade--not-established").first
    scheme = page.locator("body").get_attribute("data-md-color-scheme")
    light_colour = badge.evaluate("e => getComputedStyle(e).color")
    page.get_by_title("Switch to dark mode").click()
    page.wait_for_function("document.body.dataset.mdColorScheme === 'slate'")
    dark_colour = badge.evaluate("e => getComputedStyle(e).color")
    assert scheme == "default"
    assert light_colour != dark_colour


def test_navigation_reaches_a_record_through_its_section(page: Page, base_url: str) -> None:
    page.goto(base_url)
    # Exactly "Validations": the home page's own headings ("Latest validations") are in the
    # navigation too, the table of contents being integrated into it.
    nav = page.locator(".md-nav--primary")
    nav.get_by_role("link", name="Validations", exact=True).first.click()
    page.wait_for_url("**/validations/")
    page.get_by_role("link", name="Crusoe NVIDIA HGX B300: NVIDIA Exemplar Cloud").click()
    page.wait_for_url("**/validations/crusoe-hgx-b300-exemplar/")
    page.get_by_role("link", name="Crusoe NVIDIA HGX B200: NVIDIA Exemplar Cloud").click()
    page.wait_for_url("**/validations/crusoe-hgx-b200-exemplar/")
    assert page.get_by_text("Norway").first.is_visible()


def test_search_finds_content_offline(page: Page, base_url: str) -> None:
    page.goto(base_url)
    count, results = search(page, "Megatron")
    expect(count).to_have_text(re.compile(r"^\d+ (matching documents?|results?)$"), timeout=15000)
    expect(results).to_contain_text("Crusoe NVIDIA HGX B300")


def test_search_for_inference_finds_the_program(page: Page, base_url: str) -> None:
    page.goto(base_url)
    count, results = search(page, "inference")
    expect(count).to_have_text(re.compile(r"^\d+ (matching documents?|results?)$"), timeout=15000)
    expect(results).to_contain_text("MLPerf Inference")


def test_search_finds_the_2026_round(page: Page, base_url: str) -> None:
    page.goto(base_url)
    count, results = search(page, "v6.1")
    expect(count).to_have_text(re.compile(r"^\d+ (matching documents?|results?)$"), timeout=15000)
    expect(results).to_contain_text("MLPerf Inference v6.1")


def test_a_result_read_from_mlcommons_table_says_so(page: Page, base_url: str) -> None:
    """A v6.1 result: its figures are MLCommons' table's, undated, beside the maker's own."""
    page.goto(base_url + "validations/crusoe-amd-instinct-mi355x-mlperf-inference-v6-1/")
    main = page.locator("article")
    expect(main).to_contain_text("MLCommons' table's, as published")
    expect(main).to_contain_text("could not be read")
    expect(main.locator("table").filter(has_text="Scenario").first).to_contain_text(
        "closed division, available"
    )
    expect(main).to_contain_text("Announced")
    expect(page.locator("th", has_text="Announced").locator("xpath=..")).to_contain_text(
        "not stated"
    )


def test_the_gb300_workloads_page_crosses_clouds_and_rounds(page: Page, base_url: str) -> None:
    page.goto(base_url + "workloads/gb300/")
    # First, who has results on the chip: a row a provider, each result by program and round.
    who = page.locator("article table.cq-who")
    expect(who.locator("caption")).to_contain_text("Who has results on GB300")
    coreweave = who.locator("tbody tr").filter(has_text="CoreWeave")
    expect(coreweave).to_contain_text("MLPerf Inference v6.1")
    expect(coreweave).to_contain_text("MLPerf Training v6.0")
    table = page.locator("article table.cq-workloads")
    for provider in ("CoreWeave", "Nebius", "Oracle"):
        expect(table.locator("thead")).to_contain_text(provider)
    expect(table).to_contain_text("MLPerf Inference v6.0")
    expect(table).to_contain_text("MLPerf Inference v6.1")
    expect(page.locator("article")).to_contain_text("MLPerf Training v6.0")


def test_a_time_scored_from_excerpts_of_its_logs_says_so(page: Page, base_url: str) -> None:
    """A v6.0 training time read from excerpts of a copy's logs: its note says what was read,
    and that the compliance check was not run; the grade is the copy's, secondary."""
    page.goto(base_url + "validations/coreweave-nvidia-gb300-mlperf-training-v6-0/")
    main = page.locator("article")
    expect(main.locator("table").filter(has_text="Runs started").first).to_contain_text("secondary")
    expect(main).to_contain_text("Scored from excerpts of its 3 run logs, not the whole logs")
    expect(main).to_contain_text("compliance checker")
    expect(main).to_contain_text("a copy not authored by MLCommons")


def test_charts_show_the_image_for_each_scheme(page: Page, base_url: str) -> None:
    """Each chart has a light and a dark SVG; a page fetches only the scheme on show, and the
    other when the reader switches to it (both are lazy, and a hidden image is never near the
    viewport)."""
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(base_url + "compare/")
    light = page.locator("#chart-evidence img.cq-chart__img--light")
    dark = page.locator("#chart-evidence img.cq-chart__img--dark")
    light.scroll_into_view_if_needed()
    light.evaluate("img => img.decode()")
    page.wait_for_load_state("networkidle")
    svgs = sorted(url.rsplit("/", 1)[-1] for url in fetched if url.endswith(".svg"))
    assert svgs == ["evidence.svg"]
    assert light.is_visible() and not dark.is_visible()
    assert light.evaluate("img => img.complete && img.naturalWidth > 300")
    assert page.get_by_role("img", name="Evidence by program: For each program").first.is_visible()
    page.get_by_title("Switch to dark mode").click()
    page.wait_for_function("document.body.dataset.mdColorScheme === 'slate'")
    # A lazy image has no box until it is fetched, which a busy machine may not have done yet:
    # wait for it, as a reader would, rather than look once.
    expect(dark).to_be_visible()
    expect(light).to_be_hidden()
    dark.evaluate("img => img.decode()")
    assert dark.evaluate("img => img.complete && img.naturalWidth > 300")
    assert any(url.endswith("/charts/evidence.dark.svg") for url in fetched)
    page.locator("#chart-evidence summary").click()
    assert page.locator("#chart-evidence details table").is_visible()


def test_a_reader_in_dark_mode_fetches_only_dark_charts(browser: Browser, base_url: str) -> None:
    context = browser.new_context(color_scheme="dark")
    page = context.new_page()
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto(base_url)
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"
    dark = page.locator("#chart-timeline img.cq-chart__img--dark")
    dark.scroll_into_view_if_needed()
    dark.evaluate("img => img.decode()")
    page.wait_for_load_state("networkidle")
    svgs = sorted(url.rsplit("/", 1)[-1] for url in fetched if url.endswith(".svg"))
    assert svgs == ["timeline.dark.svg"]
    assert dark.evaluate("img => img.complete && img.naturalWidth > 300")
    context.close()


AXE = ROOT / "tests" / "lint" / "node_modules" / "axe-core" / "axe.min.js"
PAGES = [
    "",
    "validations/crusoe-hgx-b300-exemplar/",
    "compare/",
    "case-studies/",
    "providers/crusoe/",
    "programs/nvidia-exemplar-cloud/",
    "trial-checklists/crusoe-hgx-b300-exemplar/",
]


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_pages_have_no_wcag_aa_violations(browser: Browser, base_url: str, scheme: str) -> None:
    if not AXE.is_file():
        pytest.fail("axe-core is not installed: run `make test`, which installs it")
    # axe is injected as an inline script, which the site's own policy rightly refuses.
    page = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True).new_page()
    found = {}
    for path in PAGES:
        page.goto(base_url + path)
        page.wait_for_load_state("networkidle")
        # Measure the scheme's end state, not a colour transition on its way there.
        page.add_style_tag(content="*, *::before, *::after { transition: none !important; }")
        page.evaluate(f"document.body.setAttribute('data-md-color-scheme', '{scheme}')")
        page.add_script_tag(path=str(AXE))
        violations = page.evaluate(
            "async () => (await axe.run(document, {runOnly: "
            "['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']})).violations"
            ".map(v => `${v.id}: ${v.nodes.map(n => n.target.join(' ')).join(', ')}`)"
        )
        if violations:
            found[path] = violations
    assert found == {}


def test_theme_works_under_the_security_policy(page: Page, base_url: str) -> None:
    blocked: list[str] = []

    def watch(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            blocked.append(message.text)

    page.on("console", watch)
    for path in PAGES:
        page.goto(base_url + path)
        page.wait_for_load_state("networkidle")
    # The palette toggle and its stored choice run from the theme's inline scripts.
    page.get_by_title("Switch to dark mode").click()
    page.wait_for_function("document.body.dataset.mdColorScheme === 'slate'")
    page.reload()
    page.wait_for_function("document.body.dataset.mdColorScheme === 'slate'")
    # Search runs in a worker loaded from the site. Only Crusoe's B300 result names this
    # framework in its prose (tables are not indexed).
    count, _ = search(page, "Megatron")
    expect(count).to_have_text(re.compile(r"^1 (matching document|result)$"), timeout=15000)
    assert blocked == []
    # An inline script of one's own is refused: the policy is in force, not merely present.
    refused = page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
        " document.body.append(s); return window.ran === undefined; }"
    )
    assert refused
    page.wait_for_timeout(200)  # console messages arrive asynchronously
    assert len(blocked) == 1  # the one refusal just provoked
