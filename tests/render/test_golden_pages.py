"""Golden outputs: the pages and data documents a content folder renders to, kept beside its
input (tests/fixtures/CASE/content -> tests/fixtures/CASE/expected), as mkdocs-literate-nav
keeps each case's output beside its input. A change to a template, a view or a document shows
in these folders' diff, where a reviewer reads what a reader will see.

- `minimal`: one result of a program that is not MLPerf, and every file it renders to.
- `mlperf-site`: two rounds of one provider's MLPerf Training results on one chip, copied from
  content/ with what they cite (one invalid result added, as the import writes one; the
  program nvidia-exemplar-cloud because the questions and the checklist name it), rendered
  from a git history of three days: their result pages with their systems, measurements,
  results submitted again and invalid results, the pair page that sets them side by side, and
  the changelog and its feed. The documents that do not depend on the content (the schemas,
  the OpenAPI description) are `minimal`'s to pin.

Regenerate after a deliberate change, then read the diff before committing it:

    CLOUDQUAL_UPDATE_GOLDEN=pages .venv/bin/pytest tests/render/test_golden_pages.py
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path

import pytest
from conftest import MINIMAL, ROOT
from golden_files import assert_golden, rewrite_folder

from generator.changes.history import history
from generator.changes.revisions import revisions
from generator.checks.loader import load_site
from generator.model.options import Options
from generator.model.policy import Policy
from generator.pipeline.run import site_output
from generator.render.output import Output

AS_OF = Policy(as_of=date(2026, 12, 2))
MLPERF_SITE = ROOT / "tests" / "fixtures" / "mlperf-site" / "content"
FIRST = "validations/nebius-nvidia-h200-sxm5-141gb-mlperf-training-v5-0.yaml"
SECOND = "validations/nebius-nvidia-h200-sxm5-141gb-mlperf-training-v5-1.yaml"
# Drawn by vl-convert, whose bytes move with its release: the chart tests hold the charts, and
# each chart's data table is in its page here.
DRAWN = (".svg",)
# The same whatever the content: `minimal` pins them.
CONTENT_FREE = ("data/schemas/", "data/api/v1/schemas/", "data/api/v1/openapi.json")


def _minimal() -> Output:
    return site_output(load_site(MINIMAL), Options(ROOT / "templates", AS_OF))


def _mlperf_site() -> Output:
    with tempfile.TemporaryDirectory() as folder:
        content = _history_of_mlperf_site(Path(folder))
        found = history(revisions(content, AS_OF.as_of))
        return site_output(load_site(content), Options(ROOT / "templates", AS_OF), history=found)


@dataclass(frozen=True)
class Case:
    content: Path
    render: Callable[[], Output]
    left_out: tuple[str, ...]  # the paths, by how they start or end, its golden folder leaves out

    @property
    def expected(self) -> Path:
        return self.content.parent / "expected"

    def keeps(self, path: str) -> bool:
        return not any(path.startswith(part) or path.endswith(part) for part in self.left_out)


CASES = {
    "minimal": Case(MINIMAL, _minimal, DRAWN),
    "mlperf-site": Case(MLPERF_SITE, _mlperf_site, DRAWN + CONTENT_FREE),
}


@cache
def rendered(name: str) -> dict[str, bytes]:
    """Every file the case's content renders to that its golden folder keeps, by its path in
    the folder; with the switch on, the folder is rewritten to hold them first."""
    case = CASES[name]
    output = case.render()
    files = {f"pages/{uri}": page.markdown.encode("utf-8") for uri, page in output.pages.items()}
    files |= {f"data/{path}": data for path, data in output.data.items()}
    kept = {path: data for path, data in files.items() if case.keeps(path)}
    rewrite_folder("pages", case.expected, kept)
    return kept


def expected(name: str) -> list[str]:
    folder = CASES[name].expected
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_same_files_are_rendered(name: str) -> None:
    assert sorted(rendered(name)) == expected(name)


GOLDEN_FILES = [(name, path) for name in sorted(CASES) for path in expected(name)]


@pytest.mark.parametrize(
    ("name", "path"), GOLDEN_FILES, ids=[f"{name}:{path}" for name, path in GOLDEN_FILES]
)
def test_each_file_is_rendered_exactly(name: str, path: str) -> None:
    files = rendered(name)
    assert path in files, f"{path} is no longer rendered"
    assert_golden("pages", CASES[name].expected / path, files[path])


def test_the_mlperf_site_pins_what_the_minimal_one_cannot() -> None:
    """The sections and pages only MLPerf results and a history make, each in its golden file:
    a trim of the fixture that lost one would leave it unpinned."""
    pages = CASES["mlperf-site"].expected / "pages"
    first = (pages / FIRST.replace(".yaml", ".md")).read_text(encoding="utf-8")
    for section in ("Systems", "Measurements", "Invalid results"):
        assert f"\n## {section}\n" in first, section
    assert "llama2_70b_lora" in first  # the invalid result
    pair = "--".join(Path(record).stem for record in (FIRST, SECOND))
    assert "Llama 3.1 405B" in (pages / "pairs" / f"{pair}.md").read_text(encoding="utf-8")
    changelog = (pages / "changelog.md").read_text(encoding="utf-8")
    days = re.findall(r"^## (.+)$", changelog, flags=re.MULTILINE)
    assert days == ["2026-11-03", "2026-11-02", "2026-11-01"]


# --- the mlperf-site's history ------------------------------------------------------------------

INVALID_WORDS = " 1 submitted result is invalid under the rules and not scored."
INVALID_RESULT = re.compile(r"^# Not in the real record.*\Z", flags=re.MULTILINE | re.DOTALL)


def _git(repository: Path, *args: str, day: str | None = None) -> None:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    if day is not None:
        moment = f"{day}T12:00:00+00:00"
        env |= {"GIT_AUTHOR_DATE": moment, "GIT_COMMITTER_DATE": moment}
    subprocess.run(
        ["git", "-C", str(repository), "-c", "user.name=Test", "-c", "user.email=t@test.invalid",
         *args],
        capture_output=True, check=True, env=env,
    )  # fmt: skip


def _commit(repository: Path, day: str, message: str) -> None:
    _git(repository, "add", "-A")
    _git(repository, "commit", "-q", "-m", message, day=day)


def _history_of_mlperf_site(folder: Path) -> Path:
    """A git repository whose content/ ends as the fixture's: on 2026-11-01 the v5.0 result as
    imported, with no invalid result; on 11-02 the v5.1 result; on 11-03 the v5.0 result's
    invalid one. Its content folder."""
    _git(folder, "init", "-q", "-b", "main")
    content = folder / "content"
    for path in sorted(MLPERF_SITE.rglob("*")):
        if path.is_file() and path.relative_to(MLPERF_SITE).as_posix() != SECOND:
            (content / path.relative_to(MLPERF_SITE)).parent.mkdir(parents=True, exist_ok=True)
            (content / path.relative_to(MLPERF_SITE)).write_bytes(path.read_bytes())
    record = (MLPERF_SITE / FIRST).read_text(encoding="utf-8")
    assert record.count(INVALID_WORDS) == 2 and INVALID_RESULT.search(record), FIRST
    imported = INVALID_RESULT.sub("invalid: []\n", record.replace(INVALID_WORDS, ""))
    (content / FIRST).write_text(imported, encoding="utf-8")
    _commit(folder, "2026-11-01", "the v5.0 result")
    (content / SECOND).write_bytes((MLPERF_SITE / SECOND).read_bytes())
    _commit(folder, "2026-11-02", "the v5.1 result")
    (content / FIRST).write_bytes((MLPERF_SITE / FIRST).read_bytes())
    _commit(folder, "2026-11-03", "an invalid result of v5.0")
    return content
