"""Untrusted content that would make two outputs one, or publish what is not content: download
paths two records share, reserved ids, chip pages whose names collide, and symbolic links into
the repository's own files. Each is refused by `cloudqual check` with its position, or cannot
happen by construction."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import ROOT, copy_content

from generator.checks.loader import load_site
from generator.model.links import checklist_download
from generator.model.options import Options
from generator.model.policy import Policy
from generator.pipeline.run import site_output
from generator.problems import ContentError


@pytest.fixture
def content(tmp_path: Path) -> Path:
    return copy_content(ROOT / "content", tmp_path / "content")


def refused(content: Path) -> list[str]:
    with pytest.raises(ContentError) as raised:
        load_site(content)
    return [str(problem) for problem in raised.value.problems]


@pytest.mark.slow
def test_a_record_cannot_write_another_records_download(content: Path) -> None:
    """A checklist `checklist` and a validation `crusoe-hgx-b300-exemplar-trial` once wrote
    `downloads/crusoe-hgx-b300-exemplar-trial-checklist.md`, the real Crusoe B300 checklist's
    file: the attacker's item replaced the real one."""
    checklists = content / "checklists"
    hostile = (checklists / "trial-checklist.yaml").read_text(encoding="utf-8")
    hostile = hostile.replace("id: trial-checklist", "id: checklist", 1)
    hostile = hostile.replace(
        "Request the tested", "Wire the deposit to the account below; request the tested", 1
    )
    (checklists / "checklist.yaml").write_text(hostile, encoding="utf-8")
    validations = content / "validations"
    copy = (validations / "crusoe-hgx-b300-exemplar.yaml").read_text(encoding="utf-8")
    copy = copy.replace("id: crusoe-hgx-b300-exemplar", "id: crusoe-hgx-b300-exemplar-trial", 1)
    (validations / "crusoe-hgx-b300-exemplar-trial.yaml").write_text(copy, encoding="utf-8")
    site = load_site(content)
    output = site_output(site, Options(ROOT / "templates", Policy(as_of=site_date())))
    real = checklist_download("crusoe-hgx-b300-exemplar", "trial-checklist", "md")
    theirs = checklist_download("crusoe-hgx-b300-exemplar-trial", "checklist", "md")
    assert real != theirs
    assert "Wire the deposit" not in output.data[real].decode()
    assert "Wire the deposit" in output.data[theirs].decode()
    # Every download of every record has a path of its own.
    downloads = [path for path in output.data if path.startswith("downloads/")]
    expected = 2 * len(site.validations) * len(site.checklists) + 1  # and measurements.csv
    assert len(downloads) == len(set(downloads)) == expected


def site_date():  # type: ignore[no-untyped-def]
    from datetime import date

    return date(2026, 12, 4)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["validations", "providers", "programs", "platforms"])
def test_a_record_may_not_take_a_sections_index(content: Path, kind: str) -> None:
    """A record with id `index` would be its section's index page: `check` refuses it, at its
    id, as the build would fail on it."""
    first = sorted((content / kind).glob("*.yaml"))[0]
    text = first.read_text(encoding="utf-8").replace(f"id: {first.stem}\n", "id: index\n", 1)
    (content / kind / "index.yaml").write_text(text, encoding="utf-8")
    problems = refused(content)
    line = text.split("\n").index("id: index") + 1
    assert (
        f"content/{kind}/index.yaml:{line}:5: id: expected an id other than 'index', which is "
        f"the {kind} section's own page, found it" in problems
    )


@pytest.mark.slow
def test_two_chips_whose_pages_would_share_a_name_are_refused(content: Path) -> None:
    """Chip names are free text: "B300" and "b300" would both be workloads/b300. The page is
    never renamed (a hostile record took the real page's name, moving it to b300-2): `check`
    names both records."""
    platforms = content / "platforms"
    text = (platforms / "hgx-b300.yaml").read_text(encoding="utf-8")
    text = text.replace("id: hgx-b300", "id: squatter", 1).replace("chip: B300", "chip: b300", 1)
    (platforms / "squatter.yaml").write_text(text, encoding="utf-8")
    validations = content / "validations"
    result = (validations / "crusoe-hgx-b300-exemplar.yaml").read_text(encoding="utf-8")
    result = result.replace("id: crusoe-hgx-b300-exemplar", "id: squatter-result", 1)
    result = result.replace("platform: hgx-b300", "platform: squatter", 1)
    (validations / "squatter-result.yaml").write_text(result, encoding="utf-8")
    problems = refused(content)
    chip_line = text.split("\n").index("chip: b300") + 1
    assert any(
        p.startswith(
            f"content/platforms/squatter.yaml:{chip_line}:7: chip: expected a chip whose page name"
        )
        and "'B300'" in p
        and "content/platforms/hgx-b300.yaml:" in p
        for p in problems
    ), problems


@pytest.mark.slow
def test_a_chip_name_is_read_without_its_spaces(content: Path) -> None:
    """A platform whose chip is " B300" is the B300's, on its page: not a squatter on its name."""
    platforms = content / "platforms"
    text = (platforms / "hgx-b300.yaml").read_text(encoding="utf-8")
    text = text.replace("id: hgx-b300", "id: spaced", 1).replace("chip: B300", 'chip: " B300"', 1)
    (platforms / "spaced.yaml").write_text(text, encoding="utf-8")
    validations = content / "validations"
    result = (validations / "crusoe-hgx-b300-exemplar.yaml").read_text(encoding="utf-8")
    result = result.replace("id: crusoe-hgx-b300-exemplar", "id: spaced-result", 1)
    result = result.replace("platform: hgx-b300", "platform: spaced", 1)
    (validations / "spaced-result.yaml").write_text(result, encoding="utf-8")
    site = load_site(content)
    output = site_output(site, Options(ROOT / "templates", Policy(as_of=site_date())))
    chips = sorted(uri for uri in output.pages if uri.startswith("workloads/b300"))
    assert chips == ["workloads/b300.md"]
    assert "spaced-result" in output.pages["workloads/b300.md"].markdown


@pytest.mark.parametrize("target", ["../../.git/config", "../.hidden/secret.md"])
def test_a_link_to_the_repositorys_own_files_is_refused(tmp_path: Path, target: str) -> None:
    """`content/pages/git-config.md -> ../../.git/config` once published the repository's
    settings: a link may name only a content file, outside any hidden folder."""
    project = tmp_path / "project"
    content = copy_content(ROOT / "tests" / "fixtures" / "minimal" / "content", project / "content")
    (project / ".git").mkdir()
    (project / ".git" / "config").write_text("[remote]\n  url = secret\n", encoding="utf-8")
    (content / ".hidden").mkdir()
    (content / ".hidden" / "secret.md").write_text("# Secret\n", encoding="utf-8")
    (content / "pages" / "linked.md").symlink_to(target)
    problems = refused(content)
    where = ".git/config" if ".git" in target else "content/.hidden/secret.md"
    assert problems[0].startswith(
        f"content/pages/linked.md:1:1: expected a file in the content folder, found a symbolic "
        f"link to {where}"
    ), problems
    assert not any("secret" in p for p in problems if "url" in p)
    shutil.rmtree(project)


def test_a_link_inside_the_content_folder_still_reads(tmp_path: Path) -> None:
    content = copy_content(
        ROOT / "tests" / "fixtures" / "minimal" / "content", tmp_path / "content"
    )
    (content / "pages" / "method.md").symlink_to("methodology.md")
    assert load_site(content).validations
