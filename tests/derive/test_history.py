"""What an imported result says of itself beyond its time: whether it repeats an earlier round's
runs, when it was published, who submitted it and on whose cloud, what framework its runs used,
and what its accelerators are called.

The import runs on tests/fixtures/mlperf/, trimmed folders of the published rounds that hold two
results submitted again (NVIDIA's v4.1 GPT-3, v4.0's runs with other bytes; Nebius's v5.1 H200,
v5.0's logs byte for byte) beside the folders they repeat, and two Oracle descriptions whose
framework is not what their runs' logs give.
"""

from __future__ import annotations

import csv
import json
import re
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import ROOT, copy_content
from golden_files import assert_golden

from generator.checks.loader import load_site
from generator.cli import main
from generator.derive.caveats.benchmark import framework_differs, resubmitted_results
from generator.derive.site_facts import derive_site
from generator.load.reader import load_text
from generator.model.mlperf import same_release
from generator.model.policy import Policy
from generator.model.site import Site
from generator.model.validation import Validation
from generator.problems import ContentError

FIXTURE = ROOT / "tests" / "fixtures" / "mlperf"
MAPPING = "imports/mlperf-training.yaml"
NEBIUS = "nebius-nvidia-h200-sxm5-141gb-mlperf-training-v5-1"
NVIDIA = "nvidia-nvidia-h100-sxm5-80gb-mlperf-training-v4-1"


@pytest.fixture
def content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return copy_content(ROOT / "content", tmp_path / "content")


def record(content: Path, kind: str, record_id: str) -> dict[str, object]:
    path = content / kind / f"{record_id}.yaml"
    document, problems = load_text(path.name, path.read_bytes())
    assert document is not None, problems
    assert isinstance(document.value, dict)
    return document.value


def imported(
    capsys: pytest.CaptureFixture[str], content: Path, round_name: str, *extra: str
) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(
        [
            "import",
            "mlperf-training",
            str(FIXTURE / round_name),
            "--round",
            round_name,
            "--content",
            str(content),
            *extra,
        ]
    )
    printed = capsys.readouterr()
    assert "Traceback" not in printed.err
    return code, printed.out, printed.err


def measurement(content: Path, validation: str, system: str) -> dict[str, object]:
    found = record(content, "validations", validation)["measurements"]
    assert isinstance(found, list)
    (only,) = [m for m in found if m["system"] == system]
    return dict(only)


# --- results submitted again ------------------------------------------------------------------


@pytest.mark.slow
def test_logs_equal_to_an_earlier_rounds_mark_a_result_submitted_again(
    capsys: pytest.CaptureFixture[str], content: Path
) -> None:
    earlier = str(FIXTURE / "v5.0")
    code, out, err = imported(capsys, content, "v5.1", "--earlier", earlier)
    assert code == 0, err
    folder = "Nebius/results/nebius_soperator_8xH200_n64_ngc25.01_nemo/llama31_405b"
    assert (
        f"submitted again: Nebius/results/nebius_h200_n64/llama31_405b: round v5.0 ({folder})"
    ) in out
    repeated = measurement(content, NEBIUS, "nebius_h200_n64")
    again = repeated["resubmitted"]
    assert isinstance(again, dict)
    assert {k: again[k] for k in ("round", "folder", "identical_logs", "runs", "before")} == {
        "round": "v5.0",
        "folder": folder,
        "identical_logs": 3,
        "runs": 3,
        "before": date(2025, 6, 4),
    }
    assert repeated["runs_started"] == {"first": date(2025, 4, 30), "last": date(2025, 5, 1)}
    # The folder it repeats is cited, at the earlier round's commit.
    source = record(content, "sources", str(again["source"]))
    assert source["url"] == (
        "https://github.com/mlcommons/training_results_v5.0/tree/"
        f"0fdc28f013256aea84fa36fdaf1e0fa46094b18c/{folder}"
    )
    # New results of the round are not marked.
    lambda_v51 = record(content, "validations", "lambda-nvidia-gb300-mlperf-training-v5-1")
    assert all("resubmitted" not in m for m in lambda_v51["measurements"])  # type: ignore[union-attr]
    # The page's claims say which time was not measured for the round, and why.
    claims = record(content, "validations", NEBIUS)["claims"]
    assert isinstance(claims, list)
    (repeat,) = [c for c in claims if "measured for round v5.1" in c["text"]]
    assert repeat["grade"] == "not-established"
    assert f"All 3 of its run logs are round v5.0's, in {folder}" in repeat["reason"]


@pytest.mark.slow
def test_the_same_mllog_entries_are_the_same_run_whatever_else_differs(
    capsys: pytest.CaptureFixture[str], content: Path
) -> None:
    folder = "NVIDIA/results/eos-dfw_n1452_ngc24.04_nemo/gpt3"
    # v4.0's logs carry :::SYSJSON lines that v4.1's lack: other bytes, the same runs.
    for name in ("result_0.txt", "result_1.txt", "result_2.txt"):
        assert (FIXTURE / "v4.0" / folder / name).read_bytes() != (
            FIXTURE / "v4.1" / folder / name
        ).read_bytes()
    code, _, err = imported(capsys, content, "v4.1", "--earlier", str(FIXTURE / "v4.0"))
    assert code == 0, err
    again = measurement(content, NVIDIA, "eos-dfw_n1452_ngc24.04_nemo")["resubmitted"]
    assert isinstance(again, dict)
    assert (again["round"], again["folder"], again["identical_logs"]) == ("v4.0", folder, 3)


@pytest.mark.slow
def test_runs_before_the_previous_rounds_publication_mark_it_without_the_earlier_folder(
    capsys: pytest.CaptureFixture[str], content: Path
) -> None:
    mapping = content / MAPPING
    text = mapping.read_text(encoding="utf-8")
    mapping.write_text(text.replace("    earlier: v5.0\n", ""), encoding="utf-8")
    code, _, err = imported(capsys, content, "v5.1")
    assert code == 0, err
    again = measurement(content, NEBIUS, "nebius_h200_n64")["resubmitted"]
    assert isinstance(again, dict)
    # Only the date shows it, so the round's date source is cited, and no folder.
    assert again["folder"] is None and again["identical_logs"] == 0
    assert again["before"] == date(2025, 6, 4)
    assert again["source"] == "mlperf-training-v5-0-press-release"


def test_a_round_compared_with_an_earlier_one_needs_its_folder(
    capsys: pytest.CaptureFixture[str], content: Path
) -> None:
    before = sorted(p.read_bytes() for p in content.rglob("*.yaml"))
    code, _, err = imported(capsys, content, "v5.1")
    assert code == 1
    assert err == (
        "content/imports/mlperf-training.yaml:1:1: rounds.v5.1.earlier: expected the folder of "
        "round v5.0, whose run logs v5.1's are compared with, found none: give it with --earlier "
        "FOLDER\ncloudqual import mlperf-training: 1 problem; nothing was written.\n"
    )
    assert sorted(p.read_bytes() for p in content.rglob("*.yaml")) == before


# --- frameworks as run --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("described", "logged", "same"),
    [
        ("NVIDIA NeMo Framework Release 25.09", "PyTorch NVIDIA Release 25.09", True),
        ("NeMo 2.1.0, Megatron-LM, PyTorch NVIDIA Release 25.09", "PyTorch NVIDIA Release 25.09",
         True),
        ("PyTorch NVIDIA Release 23.09", "PyTorch NVIDIA Release 25.04", False),
        ("MXNet NVIDIA Release 24.04 or PyTorch NVIDIA Release 24.04",
         "PyTorch NVIDIA Release 24.09", False),
        (None, "PyTorch NVIDIA Release 24.09", False),
        ("maxtext", "MaxText", True),
        ("maxtext", "jax", False),
        ("Release 125.09", "PyTorch NVIDIA Release 25.09", False),
    ],
)  # fmt: skip
def test_a_release_is_compared_by_its_number(
    described: str | None, logged: str, same: bool
) -> None:
    assert same_release(described, logged) is same


@pytest.mark.slow
def test_the_frameworks_the_logs_give_stand_beside_the_descriptions(
    capsys: pytest.CaptureFixture[str], content: Path
) -> None:
    code, _, err = imported(capsys, content, "v5.1", "--earlier", str(FIXTURE / "v5.0"))
    assert code == 0, err
    site = load_site(content)
    oracle = site.validations["oracle-nvidia-b200-sxm-180gb-mlperf-training-v5-1"]
    (system,) = [s for s in oracle.systems if s.key == "1xBM.GPU.B200.8"]
    assert system.framework == "MXNet NVIDIA Release 24.04 or PyTorch NVIDIA Release 24.04"
    assert system.framework_in_logs == "PyTorch NVIDIA Release 25.09"
    facts = derive_site(site, Policy(as_of=date(2026, 12, 4)))
    caveats = {c.rule: c for c in facts.derived[oracle.id].standard_caveats}
    assert "1xBM.GPU.B200.8: the logs give PyTorch NVIDIA Release 25.09" in (
        caveats["framework-differs"].text
    )
    # Lambda's logs give the release its description gives: no caveat, the description stands.
    lambda_v51 = site.validations["lambda-nvidia-gb300-mlperf-training-v5-1"]
    assert lambda_v51.systems[0].framework_in_logs == "PyTorch NVIDIA Release 25.09"
    rules = {c.rule for c in facts.derived[lambda_v51.id].standard_caveats}
    assert "framework-differs" not in rules


# --- the published content -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def real(real_site: Site) -> Site:
    return real_site


def test_every_imported_result_carries_its_rounds_date(real: Site) -> None:
    text = (ROOT / "content" / MAPPING).read_text(encoding="utf-8")
    dates = dict(
        re.findall(r"^  (v\d+\.\d+):\n(?:    .*\n)*?    published: \{date: (\S+),", text, re.M)
    )
    assert set(dates) >= {"v4.1", "v5.0", "v5.1"}
    imported_results = [
        v for v in real.validations.values() if v.systems and v.program == "mlperf-training"
    ]
    assert len(imported_results) >= 20
    for v in imported_results:
        assert v.announced is not None and v.dating is not None, v.id
        assert v.announced.isoformat() == dates[v.program_release or ""], v.id
    # v4.1 is dated by its results commit alone, and says so.
    v41 = real.validations[NVIDIA]
    assert v41.dating is not None and v41.dating.basis == "commit"


def test_the_real_resubmissions_are_marked_and_fire_their_caveat(real: Site) -> None:
    marked = {
        (v.id, m.system)
        for v in real.validations.values()
        for m in v.measurements
        if m.resubmitted is not None
    }
    assert marked == {
        (NEBIUS, "nebius_h200_n64"),
        (NEBIUS, "nebius_h200_n128"),
        (NVIDIA, "eos-dfw_n1452_ngc24.04_nemo"),
    }
    facts = derive_site(real, Policy(as_of=date(2026, 12, 4)))
    fired = {
        v
        for v, d in facts.derived.items()
        for c in d.standard_caveats
        if c.rule == "resubmitted-results"
    }
    assert fired == {NEBIUS, NVIDIA}


def test_whose_cloud_is_said_as_the_submission_says_it(real: Site) -> None:
    facts = derive_site(real, Policy(as_of=date(2026, 12, 4)))
    coreweave = real.validations["coreweave-nvidia-gb200-mlperf-training-v5-0"]
    assert coreweave.submission is not None
    assert (coreweave.submission.submitter, coreweave.submission.cloud) == (
        "CoreWeave + IBM + NVIDIA",
        "joint",
    )
    assert "the joint submission of CoreWeave + IBM + NVIDIA" in coreweave.claims[0].text
    assert "CoreWeave's" not in coreweave.claims[0].text
    assert facts.derived[NVIDIA].submitted_by == ("NVIDIA, on a cloud the submission does not name")
    assert facts.rows[NVIDIA].provider == "NVIDIA (its description names no cloud)"
    # NVIDIA is a submitter, never listed among the clouds.
    assert "nvidia" in facts.submitters and "nvidia" not in facts.clouds
    assert {"coreweave", "lambda", "nebius", "oracle", "verda"} <= set(facts.clouds)
    verda = real.validations["verda-nvidia-b200-sxm-180gb-mlperf-training-v5-1"]
    assert verda.submission is not None and "Datacrunch" in (verda.submission.note or "")
    assert any(c.source == "mlperf-training-v5-1-verda-rename" for c in verda.claims)


def test_a_tpu_is_counted_as_a_tpu_chip(real: Site) -> None:
    facts = derive_site(real, Policy(as_of=date(2026, 12, 4)))
    tpu = "google-cloud-google-tpu-v5p-mlperf-training-v4-1"
    assert facts.derived[tpu].scale == "8 to 6,144 TPU chips (7 systems)"
    assert all("GPU" not in c.text for c in facts.derived[tpu].standard_caveats)
    assert all(row.count and row.count.endswith("TPU chips") for row in facts.derived[tpu].figures)


# --- check: no progress over a result submitted again -------------------------------------------


def _hand_typed_follower(content: Path) -> Path:
    """A hand-typed record of Nebius's v5.0 H200 figures that names the v5.1 record, whose
    figures are v5.0's submitted again, as its predecessor."""
    source = content / "validations" / "nebius-nvidia-h200-sxm5-141gb-mlperf-training-v5-0.yaml"
    text = source.read_text(encoding="utf-8").replace("# Written by", "# Was written by")
    text = text.replace(
        "id: nebius-nvidia-h200-sxm5-141gb-mlperf-training-v5-0", "id: nebius-h200-follower"
    )
    text = text.replace("predecessor: null", f"predecessor: {NEBIUS}")
    path = content / "validations" / "nebius-h200-follower.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.slow
def test_a_record_cannot_follow_a_result_submitted_again(content: Path) -> None:
    path = _hand_typed_follower(content)
    with pytest.raises(ContentError) as raised:
        load_site(content)
    (problem,) = raised.value.problems
    line = path.read_text(encoding="utf-8").split("\n").index(f"predecessor: {NEBIUS}") + 1
    assert str(problem) == (
        f"content/validations/nebius-h200-follower.yaml:{line}:14: predecessor: expected a "
        f"result whose figures were measured for its round, found {NEBIUS}, whose Llama 3.1 "
        "405B figures are round v5.0's results submitted again: follow the result of round v5.0 "
        "that first published them, or say in a claim what the comparison spans"
    )


@pytest.mark.slow
def test_a_result_submitted_again_compares_no_generations(content: Path) -> None:
    analysis = content / "analyses" / f"{NEBIUS}.yaml"
    analysis.write_text(
        "# yaml-language-server: $schema=../../schemas/analyses.schema.json\n"
        f"id: {NEBIUS}\n"
        "evidence:\n"
        "  generational-comparison:\n"
        "    answer: yes\n"
        "    detail: v5.1 against v5.0.\n"
        "    source: mlperf-training-v5-1-nebius-nebius-h200-n64\n",
        encoding="utf-8",
    )
    with pytest.raises(ContentError) as raised:
        load_site(content)
    (problem,) = raised.value.problems
    assert str(problem) == (
        f"content/analyses/{NEBIUS}.yaml:5:13: evidence.generational-comparison.answer: "
        f"expected not-stated or no, found yes: every figure of {NEBIUS} is an earlier round's "
        "submitted again, which compares nothing"
    )


@pytest.mark.slow
def test_a_date_cites_its_source(content: Path) -> None:
    path = content / "validations" / "coreweave-clustermax-2.yaml"
    text = re.sub(r"^dating: .*\n", "", path.read_text(encoding="utf-8"), flags=re.M)
    path.write_text(text, encoding="utf-8")
    line = text.split("\n").index("announced: 2025-11-06") + 1
    with pytest.raises(ContentError) as raised:
        load_site(content)
    (problem,) = raised.value.problems
    assert str(problem) == (
        f"content/validations/coreweave-clustermax-2.yaml:{line}:12: announced: expected a dating "
        "(source, grade and basis) beside the date 2025-11-06, found none: a date cites its "
        "source"
    )


def test_the_caveat_rules_read_the_marks() -> None:
    # Each rule fires on its mark and on nothing else: the minimal record has neither.
    site = load_site(ROOT / "tests" / "fixtures" / "minimal" / "content")
    from generator.derive.caveats.finding import Facts
    from generator.derive.suites import reconcile

    v: Validation = site.validations["test-validation"]
    facts = Facts(v, site.programs[v.program], None, "x", reconcile(v, None, []), ())
    assert resubmitted_results(facts) is None
    assert framework_differs(facts) is None


# --- the built site: a TPU is never a GPU --------------------------------------------------------

GPU = re.compile(r"\bGPUs?\b")
GPU_COUNT = re.compile(r"\d\s*(?:×\s*\d+\s*)?GPUs?\b|\bGPUs?\s*\(\d")
BLOCKS = {"p", "li", "td", "th", "caption", "figcaption", "dd", "dt", "title"} | {
    "h1",
    "h2",
    "h3",
    "h4",
}


class Blocks(HTMLParser):
    """The text of each block of a page whose tag is in `tags`. With `innermost`, a block's
    text leaves out the blocks inside it: a row of the home page's table holds one provider's
    programs side by side, a TPU result in one cell and a GPU result in the next, and each cell
    is one statement. Without it, a block holds all of its text (a row, its every cell)."""

    def __init__(self, tags: set[str] = BLOCKS, *, innermost: bool = True) -> None:
        super().__init__(convert_charrefs=True)
        self.tags = tags
        self.innermost = innermost
        self.open: list[list[str]] = []
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.tags:
            self.open.append([])

    def handle_endtag(self, tag: str) -> None:
        if tag in self.tags and self.open:
            self.found.append(" ".join("".join(self.open.pop()).split()))

    def handle_data(self, data: str) -> None:
        for block in self.open[-1:] if self.innermost else self.open:
            block.append(data)


def blocks(path: Path) -> list[str]:
    parser = Blocks()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.found


def test_no_page_or_data_file_calls_a_tpu_a_gpu(built: Path, real: Site) -> None:
    tpus = sorted(
        v.id
        for v in real.validations.values()
        if v.platform is not None and real.platforms[v.platform].accelerator_noun == "TPU chip"
    )
    assert len(tpus) == 4  # two MLPerf Training results, two MLPerf Inference v4.1
    pages = sorted(built.rglob("*.html"))
    assert len(pages) > 100
    # Anywhere: a cell, item or paragraph that speaks of a TPU never counts GPUs.
    mixed = [
        (page.relative_to(built).as_posix(), text)
        for page in pages
        for text in blocks(page)
        if "TPU" in text and GPU_COUNT.search(text)
    ]
    assert mixed == []
    # A TPU result's own pages and downloads never say GPU at all.
    for validation_id in tpus:
        own = [
            built / "validations" / validation_id / "index.html",
            built / "trial-checklists" / validation_id / "index.html",
            *sorted((built / "downloads" / validation_id).glob("*")),
        ]
        for path in own:
            text = path.read_text(encoding="utf-8")
            if path.suffix == ".html":
                text = " ".join(blocks(path))
            assert "TPU chips" in text or path.parent.parent.name == "downloads", path
            assert not GPU.search(text), (path, GPU.search(text))
    # The data: a TPU row has no GPU count, and names its accelerators.
    with (built / "downloads" / "measurements.csv").open(encoding="utf-8", newline="") as stream:
        rows = list(csv.DictReader(stream))
    tpu_rows = [row for row in rows if row["validation"] in tpus]
    assert tpu_rows and all(
        row["gpus"] == "" and row["accelerator_noun"] == "TPU chip" and int(row["accelerators"])
        for row in tpu_rows
    )
    gpu_rows = [row for row in rows if row["accelerator_noun"] == "GPU" and row["accelerators"]]
    assert gpu_rows and all(row["gpus"] == row["accelerators"] for row in gpu_rows)
    document = json.loads((built / "api" / "v1" / "measurements.json").read_text("utf-8"))
    for row in document["measurements"]:
        if row["validation"] in tpus:
            assert row["gpus"] is None and row["accelerator_noun"] == "TPU chip", row
    for validation_id in tpus:
        api = (built / "api" / "v1" / "validations" / f"{validation_id}.json").read_text("utf-8")
        assert not GPU.search(api), validation_id


# --- golden: the import's report on the fixture's rounds ------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("round_name", "earlier"),
    [("v4.1", "v4.0"), ("v5.0", "v4.1"), ("v5.1", "v5.0"), ("v6.0", "v5.1")],
)
def test_the_import_reports_exactly(
    round_name: str, earlier: str, capsys: pytest.CaptureFixture[str], content: Path
) -> None:
    """What the import prints of each fixture round: its systems, dropped runs, systems without
    results and results submitted again. CLOUDQUAL_UPDATE_GOLDEN=training-imports rewrites the
    expected text."""
    code, out, err = imported(capsys, content, round_name, "--earlier", str(FIXTURE / earlier))
    printed = f"exit {code}\n--- stdout\n{out}--- stderr\n{err}"
    assert_golden("training-imports", FIXTURE / f"{round_name}.expected.txt", printed)
