"""NVIDIA Exemplar's suites at every release tag that defines one, held equal to the tag's
exemplar.yaml (committed copies, tests/fixtures/exemplar/TAG/), and a result reconciled only
against the releases tagged by the day it was announced."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from generator.derive.suites import reconcile, release_changes, suite_counts
from generator.model.site import Site

FIXTURES = Path(__file__).parents[1] / "fixtures" / "exemplar"
TAGS = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir())


def _tagged(real_site: Site) -> dict[tuple[str, str], object]:
    return {
        (s.release.split(" ")[0], s.chip): s
        for s in real_site.suites.values()
        if s.program == "nvidia-exemplar-cloud" and s.tagged is not None
    }


@pytest.mark.parametrize("tag", TAGS)
def test_each_tags_suites_are_its_file(real_site: Site, tag: str) -> None:
    published = YAML(typ="safe").load((FIXTURES / tag / "exemplar.yaml").read_text())
    held = _tagged(real_site)
    for chip, entries in published["workloads"].items():
        suite = held[(tag, chip.upper())]
        assert suite.gpus == published["config"]["scale"] == 512  # type: ignore[attr-defined]
        found = {
            (w.size, tuple(sorted(p.lower() for p in w.precisions)))
            for w in suite.workloads  # type: ignore[attr-defined]
        }
        wanted = set()
        for entry in entries:
            ((key, value),) = entry.items()
            size = re.fullmatch(r"pretrain_.+_(\d+[bt])", key)
            assert size is not None
            wanted.add((size[1].upper(), tuple(sorted(value["dtypes"]))))
        assert found == wanted, (tag, chip)
    assert {c for (t, c) in held if t == tag} == {c.upper() for c in published["workloads"]}


def test_nine_releases_are_held_for_every_chip_they_name(real_site: Site) -> None:
    held = _tagged(real_site)
    assert sorted({t for t, _ in held}) == TAGS and len(TAGS) == 9
    assert len(held) == 3 * 4 + 6 * 5  # four chips until v26.02 added B300


def test_crusoes_b300_counts_fit_only_the_release_of_2026_08_18(real_site: Site) -> None:
    crusoe = real_site.validations["crusoe-hgx-b300-exemplar"]
    assert crusoe.announced is None  # undated: every release is a candidate
    platform = real_site.platforms.get(crusoe.platform or "")
    found = reconcile(crusoe, platform, list(real_site.suites.values()))
    assert found.basis == "inferred-from-counts" and found.suite is not None
    assert found.suite.tagged == date(2026, 8, 18)
    assert (found.counts.models, found.counts.configurations) == (8, 13)  # type: ignore[union-attr]
    # Announced before v26.08.00 was tagged, the same counts fit no release in force.
    earlier = crusoe.model_copy(update={"announced": date(2026, 8, 1)})
    assert reconcile(earlier, platform, list(real_site.suites.values())).basis == "not-found"


def test_each_release_change_is_named(real_site: Site) -> None:
    suites = [s for s in real_site.suites.values() if s.program == "nvidia-exemplar-cloud"]
    changes = {(c.chip, *c.releases): c.words for c in release_changes(suites)}
    assert changes[("GB200", "v26.02", "v26.02.01")] == "Llama 3.1 70B: NVFP4 dropped"
    assert changes[("H100", "v26.05", "v26.06.00")] == "removed DeepSeek-V3 671B (FP8)"
    assert ("B300", "v26.02", "v26.02.01") not in changes  # the same file
    b300 = [s for s in suites if s.chip == "B300" and s.tagged is not None]
    assert [suite_counts(s).configurations for s in sorted(b300, key=lambda s: s.tagged)] == [
        6,
        6,
        9,
        12,
        12,
        13,
    ]
