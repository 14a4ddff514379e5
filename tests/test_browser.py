"""The built site in a real browser: Debian's chromium, driven by Playwright."""

from __future__ import annotations

import functools
import shutil
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import ROOT
from playwright.sync_api import Browser, Page, expect, sync_playwright

pytestmark = pytest.mark.browser

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# As the machine's own probe found: without these, Chromium reaches for Google's hosts at start.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def base_url(built: Path) -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(built))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is required: run `make test`, which installs it")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened = context.new_page()
    yield opened
    context.close()


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
    page.locator(".md-nav--primary").get_by_role("link", name="Validations").first.click()
    page.wait_for_url("**/validations/")
    page.get_by_role("link", name="Crusoe NVIDIA HGX B300: NVIDIA Exemplar Cloud").click()
    page.wait_for_url("**/validations/crusoe-hgx-b300-exemplar/")
    page.get_by_role("link", name="Crusoe NVIDIA HGX B200: NVIDIA Exemplar Cloud").click()
    page.wait_for_url("**/validations/crusoe-hgx-b200-exemplar/")
    assert page.get_by_text("Norway").first.is_visible()


def test_search_finds_content_offline(page: Page, base_url: str) -> None:
    page.goto(base_url)
    # Material builds its index in a worker from search_index.json; typing before that is ignored.
    page.wait_for_load_state("networkidle")
    page.locator(".md-search__input").click()
    page.locator(".md-search__input").press_sequentially("Megatron", delay=50)
    expect(page.locator(".md-search-result__meta")).to_have_text(
        "1 matching document", timeout=15000
    )
    assert "Crusoe NVIDIA HGX B300" in page.locator(".md-search-result__list").inner_text()


def test_charts_show_the_image_for_each_scheme(page: Page, base_url: str) -> None:
    page.goto(base_url + "compare/")
    page.wait_for_load_state("networkidle")
    light = page.locator("#chart-evidence img.cq-chart__img--light")
    dark = page.locator("#chart-evidence img.cq-chart__img--dark")
    assert light.is_visible() and not dark.is_visible()
    assert light.evaluate("img => img.complete && img.naturalWidth > 300")
    assert page.get_by_role("img", name="Evidence matrix: Every validation").first.is_visible()
    page.get_by_title("Switch to dark mode").click()
    page.wait_for_function("document.body.dataset.mdColorScheme === 'slate'")
    assert dark.is_visible() and not light.is_visible()
    assert dark.evaluate("img => img.complete && img.naturalWidth > 300")
    page.locator("#chart-evidence summary").click()
    assert page.locator("#chart-evidence details table").is_visible()


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
def test_pages_have_no_wcag_aa_violations(page: Page, base_url: str, scheme: str) -> None:
    if not AXE.is_file():
        pytest.fail("axe-core is not installed: run `make test`, which installs it")
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
