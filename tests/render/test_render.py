"""Rendering: links, page paths, and content that is data, never a template."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from conftest import ROOT

from generator.checks.loader import load_site
from generator.derive import workloads
from generator.derive.page_words import undated
from generator.derive.site_facts import derive_site
from generator.model.links import page_url, relative_file, relative_url, safe_path
from generator.model.options import Options
from generator.model.policy import Policy
from generator.model.site import Site
from generator.pipeline.run import site_output
from generator.render.output import Output

POLICY = Policy(as_of=date(2026, 12, 2))


@pytest.mark.parametrize(
    ("here", "target", "directory", "expected"),
    [
        ("index.md", "validations/x.md", True, "validations/x/"),
        ("validations/x.md", "providers/y.md", True, "../../providers/y/"),
        ("validations/x.md", "index.md", True, "../../"),
        ("validations/index.md", "validations/x.md", True, "x/"),
        ("validations/x.md", "validations/index.md", True, "../"),
        ("compare.md", "compare.md", True, "./"),
        ("validations/x.md", "providers/y.md", False, "../providers/y.html"),
        ("index.md", "compare.md", False, "compare.html"),
    ],
)
def test_relative_url(here: str, target: str, directory: bool, expected: str) -> None:
    assert relative_url(here, target, directory) == expected


def test_page_url() -> None:
    assert page_url("index.md", True) == ""
    assert page_url("a/index.md", True) == "a/"
    assert page_url("a/b.md", False) == "a/b.html"


@pytest.mark.parametrize(
    "uri", ["../x.md", "/etc/x.md", "a/../../x.md", "a\\b.md", "a/b.html", "c:/x.md", "a//b.md"]
)
def test_unsafe_page_paths_are_refused(uri: str) -> None:
    with pytest.raises(ValueError, match="unsafe output path"):
        safe_path(uri, ".md")


def test_relative_file_climbs_to_the_site_root() -> None:
    assert relative_file("validations/x.md", "downloads/x.csv", True) == "../../downloads/x.csv"
    assert relative_file("validations/x.md", "downloads/x.csv", False) == "../downloads/x.csv"
    assert relative_file("index.md", "downloads/x.csv", True) == "downloads/x.csv"


@pytest.mark.slow
def test_content_is_data_not_template(minimal_content: Path) -> None:
    record = minimal_content / "validations" / "test-validation.yaml"
    text = record.read_text(encoding="utf-8").replace(
        "summary: A synthetic validation.",
        'summary: "{{ 7 * 7 }} {% raw %} <script>alert(1)</script> **kept**"',
    )
    record.write_text(text, encoding="utf-8")
    pages = site_output(load_site(minimal_content), Options(ROOT / "templates", POLICY)).pages
    page = pages["validations/test-validation.md"].markdown
    assert "{{ 7 * 7 }} {% raw %}" in page
    assert "49" not in page
    assert "<script>" not in page
    assert "<strong>kept</strong>" in page


def test_every_record_page_and_section_is_rendered(real_site: Site, real_output: Output) -> None:
    """The pages expected from the content files themselves, not from the code under test: a
    page per record file of each kind with pages, a workloads page per chip the records name,
    and pair pages only of two real results on one chip."""
    site, pages = real_site, real_output.pages
    content = ROOT / "content"
    expected = {
        "index.md",
        "compare.md",
        "checklist.md",
        "case-studies.md",
        "data.md",
        "changelog.md",
        "glossary.md",
        "concerns.md",
    }
    expected |= {"workloads/index.md", "pairs/index.md"}
    for kind in ("validations", "providers", "programs", "platforms"):
        expected.add(f"{kind}/index.md")
        expected |= {f"{kind}/{path.stem}.md" for path in (content / kind).glob("*.yaml")}
    expected |= {
        f"trial-checklists/{path.stem}.md" for path in (content / "validations").glob("*.yaml")
    }
    chips = {}
    for v in site.validations.values():
        chip = site.platforms[v.platform].chip if v.platform else v.chip
        if chip is not None:
            chips[v.id] = " ".join(chip.split())
    expected |= {
        "workloads/" + re.sub(r"[^a-z0-9]+", "-", chip.lower()).strip("-") + ".md"
        for chip in chips.values()
    }
    # A figures page per chip a measured figure is of.
    expected.add("figures/index.md")
    expected |= {
        "figures/" + re.sub(r"[^a-z0-9]+", "-", chips[v.id].lower()).strip("-") + ".md"
        for v in site.validations.values()
        if v.id in chips and v.measurements
    }
    pairs = {uri for uri in pages if uri.startswith("pairs/") and uri != "pairs/index.md"}
    assert set(pages) - pairs == expected
    for uri in pairs:
        first, second = uri.removeprefix("pairs/").removesuffix(".md").split("--")
        assert first < second and chips[first] == chips[second], uri
    # Every result that shares its chip with another has a side-by-side page.
    paired = {part for uri in pairs for part in uri[6:-3].split("--")}
    sharing = {v for v, chip in chips.items() if list(chips.values()).count(chip) > 1}
    assert paired == sharing
    page = pages["validations/crusoe-hgx-b300-exemplar.md"]
    assert page.edit_path == "content/validations/crusoe-hgx-b300-exemplar.yaml"


@pytest.fixture(scope="module")
def real_pages(real_output: Output) -> dict[str, str]:
    return {uri: page.markdown for uri, page in real_output.pages.items()}


def test_a_title_names_only_what_its_source_states(real_pages: dict[str, str]) -> None:
    azure = real_pages["validations/azure-gb300-exemplar.md"]
    assert azure.startswith("# Microsoft Azure GB300: NVIDIA Exemplar Cloud\n")
    # Other results' titles may name NVL72 in the side-by-side links; Azure's own text never.
    own = re.sub(r'<tr><th scope="row">Side by side</th>.*?</tr>', "", azure)
    assert "NVL72" not in own
    assert "<td>GB300 (no platform stated)</td>" in azure
    # The GB300 suite is the one that matters for Azure, and its page lists it.
    assert "Recorded NVIDIA Exemplar Cloud suites for GB300:" in azure
    assert "8 models in 14 configurations" in azure


def test_derived_caveats_show_the_fact_and_the_reasoning_apart(real_pages: dict[str, str]) -> None:
    page = real_pages["validations/crusoe-hgx-b300-exemplar.md"]
    caveat = page[page.index('<li id="caveat-one-deployment">') :]
    caveat = caveat[: caveat.index("</li>")]
    fact, reasoning = caveat.split("; reasoning: ")
    assert "#source-crusoe-b300-announcement" in fact and "provider-reported" in fact
    assert "#source-crusoe-b300-analysis" in reasoning and "secondary" in reasoning


def test_the_suite_grid_is_graded_as_the_program_owners(real_pages: dict[str, str]) -> None:
    page = real_pages["validations/crusoe-hgx-b300-exemplar.md"]
    # The chart's data table is the grid; no second table repeats it.
    assert '<table class="cq-table cq-matrix">' not in page
    caption = page[page.index('<figcaption id="chart-coverage-crusoe-hgx-b300-exemplar') :]
    caption = caption[: caption.index("</figcaption>")]
    assert "graded program-owner" in caption
    assert "Which cells Crusoe ran is not published." in caption
    assert "tested" not in caption


def test_pages_state_only_what_the_sources_do(real_pages: dict[str, str]) -> None:
    cases = real_pages["case-studies.md"]
    assert "not any provider recorded here" not in cases
    assert "the same model and the same global batch size" in cases
    assert "should be applied indiscriminately" in cases
    crusoe = real_pages["providers/crusoe.md"]
    lead = crusoe[: crusoe.index("## What Crusoe has proven")]
    assert "around available energy sources" in lead and "cq-grade--provider-reported" in lead
    checklist = real_pages["checklist.md"]
    # Each program's checks, worded for no one result: plain words, never a placeholder.
    exemplar = checklist[checklist.index("## NVIDIA Exemplar Cloud") :]
    assert "one of the validated configurations" in exemplar.split("\n## ")[0]
    inference = checklist[checklist.index("## MLPerf Inference") :].split("\n## ")[0]
    assert "model-and-precision matrix" not in inference and "training" not in inference
    assert not re.search(r"\[[a-z]+\]", checklist)
    assert "a close match" not in checklist  # the guidance is the analysis's, in its words
    assert "closely matches the tested configurations" in checklist
    for uri, page in real_pages.items():
        assert "rack-scale" not in page, uri
        assert "current B300 suite" not in page, uri


def test_one_chip_under_two_names_is_one_family(real_pages: dict[str, str]) -> None:
    """B200 results sit on two platform records, named as their sources name them (an HGX
    system, and the accelerator in MLCommons' descriptions): the platforms page sets them under
    one chip heading, and each page links the other and the chip's page of every result."""
    index = real_pages["platforms/index.md"]
    b200 = index[index.index("\n## B200\n") :].split("\n## ")[1]
    assert 'href="hgx-b200/"' in b200 and 'href="nvidia-b200-sxm-180gb/"' in b200
    assert 'href="../workloads/b200/"' in b200
    for page, other in [
        ("hgx-b200", "nvidia-b200-sxm-180gb"),
        ("nvidia-b200-sxm-180gb", "hgx-b200"),
    ]:
        text = real_pages[f"platforms/{page}.md"]
        assert f'href="../{other}/"' in text and 'href="../../workloads/b200/"' in text, page
    alone = real_pages["platforms/nvidia-l40s.md"]
    assert "under another name" not in alone


def test_workload_cells_keep_the_results_scale_and_say_whose_architecture(
    real_pages: dict[str, str],
) -> None:
    """Crusoe's B300 pass covers its inferred suite at 512 GPUs: each of its cells says so. The
    suite labels no model's architecture, while Crusoe states the suite's as a whole: the pages
    say which is which, rather than "not stated" on one and "dense, moe" on the other."""
    b300 = real_pages["workloads/b300.md"]
    deepseek = next(line for line in b300.splitlines() if "<td>DeepSeek-V3 (671B)</td>" in line)
    assert "not labelled by the suite" in deepseek
    assert "in inferred suite</span>, result at 512 GPUs" in deepseek
    crusoe = real_pages["validations/crusoe-hgx-b300-exemplar.md"]
    assert "architectures across the whole suite, not per model: dense, moe" in crusoe


def test_each_grade_and_answer_links_the_glossary_at_first_use(
    real_pages: dict[str, str],
) -> None:
    """On every page, the first badge of each grade and each answer links its glossary entry,
    and no later one does; every entry linked is on the glossary page."""
    glossary = real_pages["glossary.md"]
    entries = set(re.findall(r'<dt id="([a-z-]+)">', glossary))
    assert {
        "grade-program-owner",
        "answer-not-published",
        "answer-not-stated",
        "analysis",
    } <= entries
    linked_pages = 0
    for uri, text in real_pages.items():
        if uri == "glossary.md":
            assert 'class="cq-term"' not in text
            continue
        badges = re.finditer(
            r'(<a class="cq-term" href="[^"#]*glossary/#([a-z-]+)">)?'
            r'<span class="cq-(grade|answer) cq-(?:grade|answer)--([a-z-]+)"',
            text,
        )
        seen: set[str] = set()
        for badge in badges:
            name = f"{badge[3]}-{badge[4]}"
            assert bool(badge[1]) == (name not in seen), (uri, name)
            if badge[1]:
                assert badge[2] == name and name in entries, (uri, name)
            seen.add(name)
        linked_pages += bool(seen)
    assert linked_pages > 100


def test_citations_are_numbered_notes_to_the_pages_sources(real_pages: dict[str, str]) -> None:
    """A citation is the number of its source in the page's list, so a source's title is read
    once, in the list, however often the page cites it (Crusoe's B300 page cited one title 34
    times in running text)."""
    page = real_pages["validations/crusoe-hgx-b300-exemplar.md"]
    listed = re.findall(r'<li id="source-([a-z0-9-]+)"><strong>([^<]+)</strong>', page)
    note = (
        r'<a class="cq-cite cq-cite--note" href="#source-([a-z0-9-]+)" '
        r'title="[^"]*" aria-label="Source (\d+): [^"]*">\[(\d+)\]</a>'
    )
    notes = re.findall(note, page)
    assert len(notes) > 30
    ids = [source_id for source_id, _ in listed]
    for source_id, number, shown in notes:
        assert number == shown and ids[int(number) - 1] == source_id
    visible = re.sub(r"<[^>]+>", "", page)
    for _, title in listed:
        assert visible.count(title) == 1, title


@pytest.mark.slow
def test_the_same_content_renders_the_same_bytes_under_any_hash_seed(tmp_path: Path) -> None:
    """Sets and dicts of strings iterate in an order that changes with PYTHONHASHSEED; no page,
    document, feed or chart may depend on it."""
    import os
    import subprocess
    import sys

    from build import tree_digest

    digests = []
    for seed in ("1", "2"):
        out = tmp_path / f"seed-{seed}"
        command = [sys.executable, "-m", "generator.cli", "render", "--out", str(out)]
        command += ["--as-of", "2026-12-02", "--cache", str(tmp_path / "cache")]
        subprocess.run(
            command, cwd=ROOT, check=True, capture_output=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )  # fmt: skip
        digests.append(tree_digest(out))
    assert digests[0] == digests[1]
    assert any(path.startswith("docs/pairs/") for path in digests[0])


@pytest.mark.slow
def test_pairs_match_workloads_by_name_and_stay_few_per_result() -> None:
    """A hand-typed record has no benchmark ids where an imported one has: Lambda's GB300
    results of v6.0 and v5.1 both measured Llama 3.1 8B, and their pair says so."""

    site = load_site(ROOT / "content")
    results = list(site.validations.values())
    derived = derive_site(site, POLICY).derived
    chosen = workloads.partners(derived, results)
    assert max(len(others) for others in chosen.values()) <= workloads.PARTNERS
    pairs = {p.id: p for p in workloads.pairs(site, chosen)}
    lambda_gb300 = workloads.pair_id(
        "lambda-gb300-nvl72-mlperf-training-v6", "lambda-nvidia-gb300-mlperf-training-v5-1"
    )
    shared = {name: (a, b) for name, a, b in pairs[lambda_gb300].shared}
    assert shared["Llama 3.1 8B"] == ("11.59 min at 72 GPUs", "14.25 min at 72 GPUs")


@pytest.mark.parametrize(
    ("total", "shown", "after_dated", "words"),
    [
        (0, 0, True, None),
        (5, 0, True, "5 results whose sources state no announcement date cannot be placed in "
         "time, so they are not among the latest: the list of all validations holds them."),
        (5, 2, True, "Then the results whose sources state no announcement date: 5 in all, of "
         "which the first 2 by id. They cannot be placed in time, so they come last."),
        (1, 1, False, "Results whose sources state no announcement date: 1 in all. They cannot "
         "be placed in time, so they come last."),
    ],
)  # fmt: skip
def test_the_home_page_says_what_it_lists_of_the_undated(
    total: int, shown: int, after_dated: bool, words: str | None
) -> None:
    assert undated(total, shown, after_dated) == words


def test_a_checklist_drawn_from_another_providers_analysis_says_so(
    real_pages: dict[str, str],
) -> None:
    """Nebius's checklist cites the analysis of Crusoe's announcement its items come from: the
    citation says it is about the list, not about Nebius's result."""
    page = real_pages["trial-checklists/nebius-nvidia-b200-sxm-180gb-mlperf-training-v5-1.md"]
    assert "a source about the list, not about this result" in page
    own = real_pages["trial-checklists/crusoe-hgx-b300-exemplar.md"]
    assert "a source about the list, not about this result" not in own


def test_a_trial_checklist_dates_its_result_and_names_each_figures_metric(
    real_pages: dict[str, str],
) -> None:
    """What a buyer reproduces: each figure with its metric, and the result's own date beside
    the day the checklist was judged on (an undated result says so)."""
    page = real_pages["trial-checklists/coreweave-nvidia-gb300-mlperf-training-v6-0.md"]
    assert "(the result itself is dated 2026-06-16)" in page
    assert 'min <span class="cq-served">(time to train)</span>' in page
    undated = real_pages["trial-checklists/crusoe-hgx-b300-exemplar.md"]
    assert "(the result itself is undated)" in undated
