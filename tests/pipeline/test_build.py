"""End to end: `mkdocs build --strict` of the real content, and of broken content."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from build import main_text, make_project, mkdocs_build, mkdocs_serve, tree_digest, wait_for
from conftest import EDIT, MINIMAL, ROOT, copy_content

from generator.checks.loader import load_site
from generator.pipeline.memo import default_cache_dir
from generator.problems import ContentError


def page(site: Path, uri: str) -> str:
    return (site / uri / "index.html").read_text(encoding="utf-8")


def test_crusoe_b300_page_answers_the_analysis(built: Path) -> None:
    text = main_text(page(built, "validations/crusoe-hgx-b300-exemplar"))
    facts = [
        "512 GPUs",
        "Megatron-Bridge",
        "BF16, FP8, NVFP4",
        "dense, moe",
        "Iceland",
        "geothermal",
        # the established result
        "All 13 tested model-and-precision configurations met NVIDIA's Exemplar performance",
        # coverage: 13 configurations are not 8 x 3 = 24
        "8 models in 13 configurations",
        "8 × 3 = 24 combinations, so 13 configurations cannot mean that",
        "Suite: inferred from the reported counts.",
        "has 8 models in 13 configurations",
        "the reported counts match it. The recipe release was not stated.",
        "6 models in 6 configurations, BF16, FP8",
        "Under it, the reported counts exceed it, so it cannot be the suite that ran.",
        # caveats derived by rule, beside the authored ones
        "rule: counts-without-matrix",
        "rule: suite-inferred",
        "rule: specifications-not-speedups",
        "rule: one-deployment",
        "rule: renewable-not-efficiency",
        "rule: threshold-not-sla",
        "The result concerns the Iceland deployment",
        "not a service-level agreement for customer allocations",
        "validity end unknown the result's date is not stated",
        # what it does not establish
        "Every model passed in all three precisions.",
        "A measured generational speedup over HGX B200.",
        "A performance guarantee or service-level agreement for customer allocations.",
        "That Crusoe is faster or cheaper than another provider.",
        "That 1.5x dense NVFP4 compute and 2x attention-layer performance are training speedups.",
        "That NVFP4 training matches the model quality of higher-precision formats.",
        "That every Crusoe region, or future B300 capacity, performs the same.",
        "An energy-efficiency advantage, or zero lifecycle emissions.",
        # dates that no source states
        "Recipe release not stated",
        "cannot be computed: the announcement date is not stated",
        "valid 12 months",
        # the trial checklist, tailored: all 6 items open, the deployment one with them
        "6 apply to this validation, and it leaves 6 open",
        "Request the tested model-and-precision matrix",
        "reproduces the Iceland validation",
        # predecessor and sources
        "Predecessor: Crusoe NVIDIA HGX B200: NVIDIA Exemplar Cloud",
        "NVIDIA Requirements for AI Clouds, version 2.4",
        "No address: we do not hold one.",
    ]
    missing = [fact for fact in facts if fact not in text]
    assert missing == []
    assert "Confirm the proposed deployment" in text  # the tested one never settles it


def test_crusoe_b300_page_links_its_predecessor_and_edit_file(built: Path) -> None:
    html = page(built, "validations/crusoe-hgx-b300-exemplar")
    assert 'href="../crusoe-hgx-b200-exemplar/"' in html
    assert 'href="../../case-studies/"' in html
    assert f'href="{EDIT}content/validations/crusoe-hgx-b300-exemplar.yaml"' in html
    methodology = page(built, "methodology")
    assert f'href="{EDIT}content/pages/methodology.md"' in methodology


def test_program_page_quotes_criteria(built: Path) -> None:
    text = main_text(page(built, "programs/nvidia-exemplar-cloud"))
    for fact in [
        "> 95% baseline performance for all workloads in a given test suite",
        "Requirement BM01 (target), Requirements for AI Clouds v2.4",
        "Run per Scalable Unit, for example, a 512 GPU cluster",
        "within 5% of an NVIDIA-provided target",
        "12 months",
        "keep it for the whole process",
        "B300 v26.08.00 (tag at commit e249aa3; its exemplar.yaml is the file first read at "
        "commit 97b1fd4) 8 13 BF16, FP8, NVFP4",
        "B300 v26.05 (tag at commit ef2f6c2) 7 9 BF16, FP8, NVFP4",
        "B300, v26.05 to v26.06.00 (2026-07-01): added Kimi-K2 1T (FP8); DeepSeek-V3 671B: FP8, "
        "NVFP4 added.",
    ]:
        assert fact in text


def test_other_pages_carry_their_facts(built: Path) -> None:
    cases = main_text((built / "case-studies" / "index.html").read_text(encoding="utf-8"))
    assert "12% to 14%" in cases and "within 3%" in cases and "13% to 53%" in cases
    platform = main_text(page(built, "platforms/hgx-b300"))
    assert "specifications as claimed, not measurements" in platform
    assert "1.5 times the dense NVFP4 compute of HGX B200." in platform
    lambda_page = main_text(page(built, "validations/lambda-gb300-nvl72-mlperf-training-v6"))
    assert "11.59 min" in lambda_page and "18.35 min" in lambda_page
    coreweave = main_text(page(built, "validations/coreweave-clustermax-2"))
    assert "Outcome: Platinum" in coreweave
    compare = main_text((built / "compare" / "index.html").read_text(encoding="utf-8"))
    assert compare.count("Is the model-by-precision matrix published?") == 1
    assert "Applies to results of NVIDIA Exemplar Cloud only." in compare
    checklist = main_text((built / "checklist" / "index.html").read_text(encoding="utf-8"))
    # The checks that published evidence can close, under each program they apply to: matrix,
    # price-performance and reliability for Exemplar; the last two for MLPerf Training;
    # reliability alone for MLPerf Inference and ClusterMAX.
    assert checklist.count("Open unless the validation answers yes") == 3 + 2 + 1 + 1


def test_navigation_lists_sections_not_records(built: Path) -> None:
    html = page(built, "validations/crusoe-hgx-b300-exemplar")
    nav = html[html.index('<nav class="md-nav md-nav--primary') :]
    nav = nav[: nav.index("</nav>")]
    links = re.findall(r'class="md-nav__link[^"]*"[^>]*href="([^"]+)"|href="([^"]+)"', nav)
    targets = {a or b for a, b in links}
    assert not any("crusoe" in target for target in targets)
    assert 8 <= len(targets) <= 16  # the sections, and the page's own headings (toc.integrate)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.urls.append(value)


def test_every_internal_link_resolves_and_nothing_loads_from_elsewhere(engine_built: Path) -> None:
    """On the site as MkDocs builds it and as Zensical builds it, which resolves links itself."""
    built = engine_built
    broken, external_assets = [], []
    for html_file in built.rglob("*.html"):
        parser = _Links()
        parser.feed(html_file.read_text(encoding="utf-8"))
        base = "file://" + html_file.as_posix()
        for url in parser.urls:
            parts = urlsplit(url)
            if parts.scheme in ("http", "https", "mailto"):
                continue
            # 404.html is served from any depth, so MkDocs gives it root-relative links.
            resolved = (
                urljoin("file://" + built.as_posix() + "/", url.lstrip("/"))
                if url.startswith("/")
                else urljoin(base, url)
            )
            target = Path(urlsplit(resolved).path)
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{html_file.relative_to(built)} -> {url}")
        text = html_file.read_text(encoding="utf-8")
        external_assets += re.findall(
            r'<(?:script|link|img)[^>]+(?:src|href)="(https?://[^"]+)"', text
        )
    assert broken == []
    assert external_assets == []


# The six broken records the pipeline issue names: each must fail with path:line:col and leave
# the previous site byte-identical.
BROKEN = [
    "duplicate-key",
    "missing-field",
    "misspelled-field",
    "dangling-reference",
    "tab-indent",
    "empty-file",
]


@pytest.fixture(scope="module")
def good_minimal(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    project = make_project(tmp_path_factory.mktemp("minimal"), MINIMAL)
    result = mkdocs_build(project)
    assert result.returncode == 0, result.stderr
    return project, tree_digest(project / "site")


@pytest.mark.parametrize("case", BROKEN)
def test_a_broken_record_is_refused_at_its_position(case: str, tmp_path: Path) -> None:
    """The loader the build runs refuses each broken record with its first problem's position,
    in-process; test_golden holds every message, and one build below shows it reaches MkDocs."""
    content = copy_content(
        MINIMAL, tmp_path / "content", ROOT / "tests" / "golden" / case / "content"
    )
    with pytest.raises(ContentError) as raised:
        load_site(content)
    expected = (ROOT / "tests" / "golden" / case / "expected.txt").read_text(encoding="utf-8")
    first_problem = expected.splitlines()[0]
    assert re.match(r"^content/[a-z-]+/[a-z0-9-]+\.yaml:\d+:\d+: ", first_problem)
    assert str(raised.value).splitlines()[0] == first_problem


@pytest.mark.parametrize("case", BROKEN[:1])
def test_broken_record_fails_and_keeps_previous_site(
    case: str, good_minimal: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    project, digest = good_minimal
    broken = make_project(
        tmp_path / "project", MINIMAL, ROOT / "tests" / "golden" / case / "content"
    )
    shutil.copytree(project / "site", broken / "site", dirs_exist_ok=True)
    result = mkdocs_build(broken)
    assert result.returncode != 0
    expected = (ROOT / "tests" / "golden" / case / "expected.txt").read_text(encoding="utf-8")
    first_problem = expected.splitlines()[0]
    assert re.match(r"^content/[a-z-]+/[a-z0-9-]+\.yaml:\d+:\d+: ", first_problem)
    assert first_problem in result.stderr
    assert "Traceback" not in result.stderr
    assert tree_digest(broken / "site") == digest


@pytest.mark.build
def test_serve_rebuilds_when_content_changes(tmp_path: Path) -> None:
    project = make_project(tmp_path / "project", MINIMAL)
    with mkdocs_serve(project) as base_url:
        url = base_url + "validations/test-validation/"
        assert "A synthetic validation." in wait_for(url, "A synthetic validation.")
        record = project / "content" / "validations" / "test-validation.yaml"
        record.write_text(
            record.read_text(encoding="utf-8").replace("A synthetic validation.", "Edited live."),
            encoding="utf-8",
        )
        assert "Edited live." in wait_for(url, "Edited live.")
        template = project / "templates" / "validation.md.j2"
        template.write_text(
            template.read_text(encoding="utf-8").replace("## Caveats", "## Limits"),
            encoding="utf-8",
        )
        assert ">Limits<" in wait_for(url, ">Limits<")


def test_printable_checklist_and_downloads(built: Path) -> None:
    """The printable page and both downloads are built and linked; which items each holds, and
    in which words, is test_content_truth's to check across every output."""
    printable = main_text(page(built, "trial-checklists/crusoe-hgx-b300-exemplar"))
    assert "Trial checklist: Crusoe NVIDIA HGX B300: NVIDIA Exemplar Cloud" in printable
    assert "6 of the 6 items apply to this validation; 0 of them are closed" in printable
    folder = built / "downloads" / "crusoe-hgx-b300-exemplar"
    markdown = (folder / "trial-checklist.md").read_text(encoding="utf-8")
    assert markdown.startswith("# Trial checklist: Crusoe NVIDIA HGX B300")
    rows = list(csv.reader(io.StringIO((folder / "trial-checklist.csv").read_text("utf-8"))))
    assert rows[0] == ["validation", "item", "check", "open_because", "as_of"]
    assert markdown.count("- [ ] ") == len(rows) - 1 == printable.count("Open ")
    # The date the items were judged open on, on the page, the Markdown and every CSV row.
    day = {row[4] for row in rows[1:]}
    assert len(day) == 1 and f"as of {day.pop()}" in printable
    assert "As of " in markdown


def test_json_api_separates_raw_and_derived(built: Path) -> None:
    document = json.loads((built / "api" / "v1" / "validations.json").read_text())
    crusoe = next(v for v in document["validations"] if v["id"] == "crusoe-hgx-b300-exemplar")
    assert crusoe["record"]["scope"]["configurations"] == 13
    assert crusoe["record"]["announced"] is None
    assert crusoe["derived"]["likely_suite"] == "nvidia-exemplar-b300-97b1fd4"
    assert crusoe["derived"]["full_grid"] == 24
    assert crusoe["derived"]["validity_status"] == "unknown"
    assert "counts-without-matrix" in [c["rule"] for c in crusoe["derived"]["standard_caveats"]]
    assert crusoe["page"] == "validations/crusoe-hgx-b300-exemplar/"
    assert not set(crusoe["record"]) & set(crusoe["derived"])


def test_home_flags_and_provider_view(built: Path) -> None:
    home = main_text((built / "index.html").read_text(encoding="utf-8"))
    # Flagged for what a buyer must act on: a newer result of the same provider, program and
    # chip (never a rescoring: Nebius's v5.1 H200 times are its v5.0 runs), and a validity
    # period whose end cannot be computed (Crusoe's undated B300 result).
    newer = (
        "Oracle Cloud Infrastructure NVIDIA Blackwell GPU (B200-SXM-180GB): MLPerf Training "
        "v5.0: a newer result of its own: MLPerf Training v5.1"
    )
    assert newer in home
    assert "Nebius NVIDIA H200-SXM5-141GB: MLPerf Training v5.0: a newer" not in home
    assert (
        "Crusoe NVIDIA HGX B300: NVIDIA Exemplar Cloud: validity end cannot be computed: no "
        "source dates the result"
    ) in home
    crusoe = main_text(page(built, "providers/crusoe"))
    assert (
        "No result recorded under MLPerf Training, SemiAnalysis ClusterMAX: a gap in what is "
        "published, not a failure." in crusoe
    )
    # Filler is gone: nothing is said of conflicts that do not exist, or of an unknown website.
    assert "conflict" not in crusoe.lower() and "Website" not in crusoe


@pytest.mark.build
def test_unchanged_rebuild_converts_no_chart(tmp_path: Path) -> None:
    project = make_project(tmp_path / "project", MINIMAL)
    first = mkdocs_build(project)
    second = mkdocs_build(project)
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    converted = re.compile(r"cloudqual: charts: (\d+) SVGs converted")
    first_count = int(converted.search(first.stderr).group(1))  # type: ignore[union-attr]
    assert first_count >= 8
    assert "are reused" in second.stderr and not converted.search(second.stderr)
    # Without the remembered build, the pages are rendered again, but the charts are cached.
    for memo in default_cache_dir(project).glob("site-*.json"):
        memo.unlink()
    third = mkdocs_build(project)
    assert third.returncode == 0, third.stderr
    assert converted.search(third.stderr).group(1) == "0"  # type: ignore[union-attr]
    assert (project / "site" / "charts" / "coverage-test-validation.svg").is_file()


def test_charts_sit_in_figures_with_their_data(built: Path) -> None:
    html = page(built, "validations/crusoe-hgx-b300-exemplar")
    figure = html[html.index('<figure class="cq-chart"') : html.index("</figure>")]
    assert 'src="../../charts/coverage-crusoe-hgx-b300-exemplar.svg"' in figure
    assert 'src="../../charts/coverage-crusoe-hgx-b300-exemplar.dark.svg"' in figure
    assert 'aria-labelledby="chart-coverage-crusoe-hgx-b300-exemplar-caption"' in figure
    assert "<figcaption" in figure and "13 of 24 model and precision cells" in figure
    assert 'href="../../charts/coverage-crusoe-hgx-b300-exemplar.csv" download' in figure
    assert "<details" in figure and figure.count("<tr>") == 25
    for uri, expected in [
        ("index.html", "charts/timeline.svg"),
        ("compare/index.html", "charts/evidence.svg"),
        ("case-studies/index.html", "charts/case-studies.svg"),
    ]:
        assert expected in (built / uri).read_text(encoding="utf-8"), uri
        assert (built / expected).is_file()
    rows = list(csv.reader(io.StringIO((built / "charts" / "case-studies.csv").read_text())))
    assert rows[0][:4] == ["finding", "gap_low_percent", "gap_high_percent", "gap"]
    assert len(rows) == 4


def test_data_page_lists_the_published_files(built: Path) -> None:
    html = (built / "data" / "index.html").read_text(encoding="utf-8")
    for target in (
        "../api/v1/validations.json",
        "../schemas/validations.schema.json",
        "../charts/evidence.csv",
        "../downloads/crusoe-hgx-b300-exemplar/trial-checklist.csv",
    ):
        assert f'href="{target}"' in html
    published = (built / "schemas" / "validations.schema.json").read_text()
    assert published == (ROOT / "schemas" / "validations.schema.json").read_text()


def test_every_in_page_anchor_has_its_target(engine_built: Path) -> None:
    built = engine_built
    missing = []
    for html_file in built.rglob("*.html"):
        text = html_file.read_text(encoding="utf-8")
        ids = set(re.findall(r'\bid="([^"]+)"', text))
        for anchor in set(re.findall(r'href="#([^"]+)"', text)):
            if anchor not in ids:
                missing.append(f"{html_file.relative_to(built)}#{anchor}")
    assert missing == []


def test_search_indexes_what_a_reader_looks_for(built: Path) -> None:
    """Prose is searched; data tables, source lists and the pages that restate a result (its
    checklist, its side-by-side pages) are left out, so the index grows with what is written."""
    index = json.loads((built / "search" / "search_index.json").read_text(encoding="utf-8"))
    locations = [entry["location"] for entry in index["docs"]]
    text = "\n".join(entry["title"] + " " + entry["text"] for entry in index["docs"])
    assert not [loc for loc in locations if loc.startswith(("pairs/", "trial-checklists/"))]
    assert any(loc.startswith("validations/crusoe-hgx-b300-exemplar/") for loc in locations)
    assert "Crusoe NVIDIA HGX B300" in text  # a result's title
    nebius = page(built, "validations/nebius-nvidia-b200-sxm-180gb-mlperf-training-v5-1")
    assert "85.37 min" in nebius and "(1 × 8)" in nebius
    assert "85.37" not in text  # a time, from the measurements table
    assert "(1 × 8)" not in text  # nodes × GPUs, from the systems table
    pair = page(built, "pairs/" + next(p.name for p in sorted((built / "pairs").iterdir())))
    assert "exclude" not in main_text(pair)  # the front matter is not shown


class _Scorecard(HTMLParser):
    """The scorecard's head and, per row, its provider link and each cell's links and text."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0  # inside table.cq-scorecard
        self.head: list[str] = []
        self.rows: list[list[tuple[list[str], str]]] = []
        self.section = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "table" and "cq-scorecard" in (found.get("class") or ""):
            self.depth = 1
        elif self.depth and tag in ("thead", "tbody"):
            self.section = tag
        elif self.depth and tag == "tr" and self.section == "tbody":
            self.rows.append([])
        elif self.depth and tag in ("th", "td"):
            if self.section == "thead":
                self.head.append("")
            else:
                self.rows[-1].append(([], ""))
        # A grade's link to its glossary entry says what the grade means, not the result.
        elif (
            self.depth
            and tag == "a"
            and self.section == "tbody"
            and "cq-term" not in (found.get("class") or "")
        ):
            self.rows[-1][-1][0].append(found.get("href") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.depth = 0

    def handle_data(self, data: str) -> None:
        if not self.depth or self.section == "" or not data.strip():
            return
        if self.section == "thead":
            self.head[-1] += data
        elif self.rows and self.rows[-1]:
            links, text = self.rows[-1][-1]
            self.rows[-1][-1] = (links, f"{text} {data.strip()}".strip())


def test_the_scorecard_shows_each_clouds_strongest_result_under_each_program(
    built: Path,
) -> None:
    """Checked against the records, with the rule written out again here: the result at the
    largest scale a source states, then the newest; an empty cell where there is none."""
    content = load_site(ROOT / "content")

    def scale(v: Any) -> int | None:
        if v.scope.accelerators is not None:
            return int(v.scope.accelerators)
        return max((s.accelerator_count for s in v.systems), default=None)

    def rank(v: Any) -> tuple[bool, int, str, str]:
        count = scale(v)
        day = v.announced.isoformat() if v.announced else ""
        return (count is not None, count or 0, day, v.id)

    names = {p.name: p.id for p in content.programs.values()}
    for uri, up in (("index.html", ""), ("providers/index.html", "../")):
        parser = _Scorecard()
        parser.feed((built / uri).read_text(encoding="utf-8"))
        assert parser.head[0] == "Provider" and len(parser.rows) >= 10, uri
        # The last column counts the concerns a provider's results cover (test_concerns.py).
        assert parser.head[-1] == "Concerns covered", uri
        programs = parser.head[1:-1]
        assert sorted(programs) == sorted(names), uri
        seen = set()
        for row in parser.rows:
            (provider_link,), _ = row[0]
            provider = provider_link.removeprefix(f"{up}providers/").strip("/")
            seen.add(provider)
            (covered,), _ = row[-1]
            assert covered == f"{provider_link}#what-its-results-cover"
            for name, (links, text) in zip(programs, row[1:-1], strict=True):
                results = [
                    v
                    for v in content.validations.values()
                    if v.provider == provider and v.program == names[name]
                ]
                if not results:
                    assert (links, text) == ([], "no result"), (uri, provider, name)
                    continue
                best = max(results, key=rank)
                assert links == [f"{up}validations/{best.id}/"], (uri, provider, name)
                assert text.startswith(best.outcome.result), (uri, provider, name, text)
                assert best.outcome.grade in text
                many = f"strongest of {len(results)}"
                assert (many in text) == (len(results) > 1), (uri, provider, name, text)
        # Every provider with a result that names its cloud has a row.
        clouds = {
            v.provider
            for v in content.validations.values()
            if v.submission is None or v.submission.cloud != "not-named"
        }
        assert clouds <= seen, (uri, clouds - seen)


def test_the_side_by_side_index_links_every_pair_once(built: Path) -> None:
    index = (built / "pairs" / "index.html").read_text(encoding="utf-8")
    linked = re.findall(r"<li><a href=\"([^\"./]+)/\">", index)
    pages = sorted(p.parent.name for p in (built / "pairs").glob("*/index.html"))
    assert pages and sorted(linked) == pages
    assert 'href="../pairs/"' in (built / "compare" / "index.html").read_text(encoding="utf-8")
