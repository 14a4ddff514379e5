"""The changelog: each commit of the content compared with the last one before it that passes
today's checks, shown by day on a page and in an Atom feed.

The history is a real git repository made in a temporary folder, with commits dated on three
days: the minimal content, an edit, a commit whose records fail the checks, and its fix.
"""

from __future__ import annotations

import dataclasses
import os
import posixpath
import re
import shutil
import subprocess
from datetime import UTC, date, datetime
from pathlib import Path
from typing import get_args

import feedparser
import pytest
import yaml
from conftest import AS_OF, MINIMAL, ROOT

from generator.changes.changelog import BUYER_WORDS, buyer_line, day_line
from generator.changes.compare import Change, What, changes
from generator.changes.history import History, history
from generator.changes.result_facts import snapshot
from generator.changes.revisions import revisions
from generator.checks.loader import load_site
from generator.derive.site_facts import derive_site
from generator.model.options import Options
from generator.model.policy import Policy
from generator.model.site import Site
from generator.pipeline.run import site_output

RECORD = "content/validations/test-validation.yaml"
ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")  # a record's id, as a change's subject holds it


def _git(repository: Path, *args: str, day: str | None = None) -> str:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    if day is not None:
        moment = f"{day}T12:00:00+00:00"
        env |= {"GIT_AUTHOR_DATE": moment, "GIT_COMMITTER_DATE": moment}
    done = subprocess.run(
        ["git", "-C", str(repository), "-c", "user.name=Test", "-c", "user.email=t@test.invalid",
         *args],
        capture_output=True, text=True, check=True, env=env,
    )  # fmt: skip
    return done.stdout.strip()


def _edit(repository: Path, old: str, new: str) -> None:
    path = repository / RECORD
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _commit(repository: Path, day: str, message: str) -> str:
    _git(repository, "add", "-A")
    _git(repository, "commit", "-q", "-m", message, day=day)
    return _git(repository, "rev-parse", "HEAD")


def _project(folder: Path, day: str) -> Path:
    """A git repository whose one commit, on `day`, adds the minimal content."""
    folder.mkdir(parents=True)
    _git(folder, "init", "-q", "-b", "main")
    shutil.copytree(MINIMAL, folder / "content")
    _commit(folder, day, "the minimal content")
    return folder


@pytest.fixture(scope="module")
def repository(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A project whose content has four commits, on 2026-11-01, 11-02 and two on 11-03."""
    repository = _project(tmp_path_factory.mktemp("history") / "project", "2026-11-01")
    commits = [_git(repository, "rev-parse", "HEAD")]
    _edit(repository, "  result: pass\n", "  result: fail\n")
    _edit(repository, "  accelerators: 64\n", "  accelerators: 128\n")
    commits.append(_commit(repository, "2026-11-02", "an edit"))
    (repository / "README.md").write_text("a commit outside content/\n")  # not content's
    _commit(repository, "2026-11-02", "not content")
    _edit(repository, "  result: fail\n", "  result: 12\n")
    commits.append(_commit(repository, "2026-11-03", "records that fail the checks"))
    _edit(repository, "  result: 12\n", "  result: pass\n")
    commits.append(_commit(repository, "2026-11-03", "fixed"))
    return repository, commits


def test_each_commit_is_compared_with_the_last_that_passes(
    repository: tuple[Path, list[str]],
) -> None:
    folder, commits = repository
    found = revisions(folder / "content")
    assert found.why is None and found.folder == "content"
    # The commit outside content/ is not one of its commits.
    assert [c for c, _ in found.commits] == commits
    steps = history(found).steps
    first, edit, broken, fixed = steps
    assert (first.day, first.base, first.results, first.changes) == (date(2026, 11, 1), None, 1, [])
    assert edit.base == commits[0] and edit.day == date(2026, 11, 2)
    assert {(c.what, c.before, c.after) for c in edit.changes} >= {
        ("outcome", "pass", "fail"),
        ("scale", "64 GPUs", "128 GPUs"),
    }
    assert (broken.results, broken.base, broken.changes) == (None, None, [])
    # The fix is compared with the edit, the last commit that passed, across the broken one.
    assert fixed.base == commits[1]
    assert ("outcome", "fail", "pass") in {(c.what, c.before, c.after) for c in fixed.changes}
    days = History(steps=steps).days()
    assert [day for day, _ in days] == [date(2026, 11, 3), date(2026, 11, 2), date(2026, 11, 1)]
    assert [s.commit for s in days[0][1]] == commits[2:]


def test_no_history_says_why(tmp_path: Path, repository: tuple[Path, list[str]]) -> None:
    copy = shutil.copytree(MINIMAL, tmp_path / "content")
    assert revisions(copy).why == "the content folder is not in a git repository"
    folder, _ = repository
    shallow = tmp_path / "shallow"
    _git(tmp_path, "clone", "-q", "--depth", "2", f"file://{folder}", str(shallow))
    found = revisions(shallow / "content")
    assert found.why == "the repository is a shallow clone" and found.commits == ()
    assert history(found) == History(steps=[], why="the repository is a shallow clone")


def test_the_page_and_the_feed_show_each_day_and_link_to_the_results(
    repository: tuple[Path, list[str]],
) -> None:
    folder, commits = repository
    found = history(revisions(folder / "content"))
    output = site_output(
        load_site(folder / "content"),
        Options(ROOT / "templates", Policy(date(2026, 12, 2))),
        history=found,
    )
    page = output.pages["changelog.md"].markdown
    headings = re.findall(r"^## (.+)$", page, flags=re.MULTILINE)
    assert headings == ["2026-11-03", "2026-11-02", "2026-11-01"]
    # In a buyer's terms: no commit hash on the page (the feed's links keep them); the commits
    # that changed nothing a buyer reads, or cannot be compared, counted under their day.
    assert not any(commit[:7] in page for commit in commits)
    assert "1 change made to records that do not pass today&#39;s checks" in page
    assert "<p>A change: the first whose records pass today&#39;s checks, with 1 result" in page
    assert "<p>A change:</p>" in page
    assert '<a href="../validations/test-validation/">' in page
    assert "<li>outcome changed: fail → pass</li>" in page
    feed = feedparser.parse(output.data["feeds/changelog.atom"])
    assert not feed.bozo, feed.get("bozo_exception")
    assert [e.id for e in feed.entries] == [
        f"urn:cloudqual:changelog:2026-11-0{n}" for n in (3, 2, 1)
    ]
    assert feed.entries[0].link == "../changelog/#2026-11-03"
    assert feed.entries[0].summary.startswith("2 changes to 1 result in 2 commits")
    assert feed.entries[1].summary.startswith("4 changes to 1 result in 1 commit")
    assert "No commit of the day was compared" in feed.entries[2].summary
    target = posixpath.normpath(posixpath.join("feeds", feed.entries[0].link.split("#")[0]))
    assert target + ".md" in output.pages


def test_contributors_text_in_the_changelog_is_escaped(tmp_path: Path) -> None:
    folder = _project(tmp_path / "project", "2026-11-01")
    claim = "{text: It passed., source: test-source, grade: provider-reported}"
    _edit(folder, claim, claim.replace("It passed.", '"<script>alert(1)</script>"'))
    _commit(folder, "2026-11-02", "a hostile statement")
    output = site_output(
        load_site(folder / "content"),
        Options(ROOT / "templates", Policy(date(2026, 12, 2))),
        history=history(revisions(folder / "content")),
    )
    page = output.pages["changelog.md"].markdown
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def _has_history() -> bool:
    found = revisions(ROOT / "content")
    return found.why is None and any(c.startswith("c974c91") for c, _ in found.commits)


@pytest.mark.slow
@pytest.mark.skipif(not _has_history(), reason="a checkout without the content's history")
def test_the_real_history_of_the_content() -> None:
    every = revisions(ROOT / "content")
    # From the last commit today's checks refuse to the re-reviews: the history this test reads.
    start = next(i for i, (c, _) in enumerate(every.commits) if c.startswith("8313f63"))
    end = next(i for i, (c, _) in enumerate(every.commits) if c.startswith("088fde3"))
    found = history(dataclasses.replace(every, commits=every.commits[start : end + 1]))
    by_commit = {step.commit[:7]: step for step in found.steps}
    # Records before this one were written to an earlier schema, so today's checks refuse them.
    assert by_commit["c974c91"].base is None and by_commit["c974c91"].results == 28
    assert by_commit["8313f63"].results is None
    changed = {(c.result, c.what, c.subject) for c in by_commit["10ebe15"].changes}
    assert (
        "lambda-gb300-nvl72-mlperf-training-v6",
        "authored caveat removed",
        "under-review",
    ) in changed
    # The page names each subject as a buyer reads it, never by a record's id: a trial check by
    # its sentence, a source by its title, a figure by what ran, a caveat by its text alone.
    lines = {
        c.subject: buyer_line(c)
        for step in found.steps
        for c in step.changes
        if c.subject is not None and (ID.fullmatch(c.subject) or " · " in c.subject)
    }
    assert {"under-review", "training-results-v6-0-copy"} <= set(lines), lines
    for subject, line in lines.items():
        assert subject not in line, (subject, line)
    assert lines["under-review"].startswith("caveat removed: was ")
    reviewed = {(c.result, c.what, c.after) for c in by_commit["088fde3"].changes}
    assert ("lambda-hgx-b200-mlperf-training-v6", "last reviewed", "2026-12-04") in reviewed
    assert [day for day, _ in found.days()] == [date(2026, 12, 4), date(2026, 12, 3)]


@pytest.mark.build
def test_a_built_site_links_each_feed_entry_to_its_day(
    tmp_path: Path, repository: tuple[Path, list[str]]
) -> None:
    from build import make_project, mkdocs_build

    folder, _ = repository
    project = make_project(tmp_path / "project", folder / "content")
    _git(project, "init", "-q", "-b", "main")
    _commit(project, "2026-11-01", "the minimal content")
    _edit(project, "  result: pass\n", "  result: fail\n")
    _commit(project, "2026-11-02", "an edit")
    result = mkdocs_build(project, CLOUDQUAL_AS_OF="2026-12-02")
    assert result.returncode == 0, result.stderr
    html = (project / "site" / "changelog" / "index.html").read_text(encoding="utf-8")
    feed = feedparser.parse((project / "site" / "feeds" / "changelog.atom").read_bytes())
    assert len(feed.entries) == 2
    for entry in feed.entries:
        page, anchor = entry.link.split("#")
        assert page == "../changelog/" and f'id="{anchor}"' in html
    assert 'href="../validations/test-validation/"' in html
    assert "outcome changed: pass → fail" in html
    # The navigation lists the changelog on every page.
    home = (project / "site" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a href="changelog/" class="md-nav__link">(\s|<[^>]*>)*Changelog\s', home)


def test_a_commit_dated_before_the_one_it_follows_takes_that_ones_day(tmp_path: Path) -> None:
    folder = _project(tmp_path / "project", "2026-11-02")
    _edit(folder, "  accelerators: 64\n", "  accelerators: 128\n")
    _commit(folder, "1970-01-02", "a commit whose author's clock was wrong")
    found = revisions(folder / "content")
    assert [day for _, day in found.commits] == [date(2026, 11, 2), date(2026, 11, 2)]
    # Judged on 2026-11-02, not 1970: the edit is the scale, not a validity the calendar moved.
    (_, edit) = history(found).steps
    assert {c.what for c in edit.changes} == {"scale", "table row"}


def test_a_commit_todays_code_cannot_read_is_listed_and_the_rest_compared(
    repository: tuple[Path, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from generator.changes import diff as diff_module
    from generator.changes import history as history_module

    folder, commits = repository
    real = diff_module.facts_of

    def failing(content: Path, policy: Policy) -> object:
        if "result: fail" in (content / "validations" / "test-validation.yaml").read_text():
            raise RuntimeError("a defect in today's code")
        return real(content, policy)

    monkeypatch.setattr(diff_module, "facts_of", failing)
    history_module._facts.cache_clear()
    try:
        steps = history(revisions(folder / "content")).steps
    finally:
        history_module._facts.cache_clear()
    assert [(s.results, s.unread) for s in steps] == [
        (1, None),
        (None, "error"),
        (None, "checks"),
        (1, None),
    ]
    assert steps[3].base == commits[0]  # the fix is compared with the last commit read


def test_what_each_commit_held_is_kept_across_builds_and_sealed(
    tmp_path: Path, repository: tuple[Path, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from generator.changes import history as history_module
    from generator.pipeline.memo import Kept

    folder, _ = repository
    found = revisions(folder / "content")
    history_module._facts.cache_clear()
    first = history(found, Kept(tmp_path, "history"))
    folder = tmp_path / "cloudqual-history"  # a folder of the cache of its own, marked
    assert (folder / ".cloudqual-history").is_file()
    kept = sorted(folder.glob("history-*.json"))
    assert len(kept) == 6  # four commits on their days, and two bases read on a later day

    def unread(*args: object) -> object:
        raise AssertionError("read from git again")

    # A new process: nothing in memory, everything kept on disk.
    history_module._facts.cache_clear()
    monkeypatch.setattr(history_module, "_facts", unread)
    assert history(found, Kept(tmp_path, "history")) == first
    # A kept file changed by anyone but the build is not used: its seal no longer holds.
    kept[0].write_bytes(kept[0].read_bytes().replace(b'"results"', b'"result"', 1) + b" ")
    with pytest.raises(AssertionError, match="read from git again"):
        history(found, Kept(tmp_path, "history"))
    # A build removes what it did not use.
    (folder / "history-0123.json").write_bytes(kept[1].read_bytes())
    store = Kept(tmp_path, "history")
    monkeypatch.undo()
    history(found, store)
    store.prune()
    assert sorted(folder.glob("history-*.json")) == kept


def test_kept_history_never_writes_into_a_folder_it_did_not_make(
    tmp_path: Path, repository: tuple[Path, list[str]]
) -> None:
    from generator.changes import history as history_module
    from generator.pipeline.memo import Kept
    from generator.render.output import Refused

    theirs = tmp_path / "cloudqual-history"
    theirs.mkdir()
    (theirs / "notes.txt").write_text("mine\n")
    store = Kept(tmp_path, "history")
    with pytest.raises(Refused, match=r"notes\.txt"):
        store.check()
    history_module._facts.cache_clear()
    with pytest.raises(Refused):
        history(revisions(repository[0] / "content"), store)
    store.prune()
    assert [p.name for p in theirs.iterdir()] == ["notes.txt"]


# --- commits dated after the build, and how far back the changelog reads ---------------------


def _future_dated(tmp_path: Path) -> tuple[Path, list[str]]:
    """A project whose second commit git dates in the year 9999 (its committer's clock, or a
    contributor's choice), then a commit on 2026-11-03."""
    folder = _project(tmp_path / "project", "2026-11-01")
    commits = [_git(folder, "rev-parse", "HEAD")]
    _edit(folder, "  accelerators: 64\n", "  accelerators: 128\n")
    # git reads no ISO date past 9999-12-31's year as such: the moment is given in seconds.
    moment = f"@{int(datetime(9999, 6, 1, 12, tzinfo=UTC).timestamp())} +0000"
    env = {**os.environ, "GIT_AUTHOR_DATE": moment, "GIT_COMMITTER_DATE": moment}
    _git(folder, "add", "-A")
    subprocess.run(
        ["git", "-C", str(folder), "-c", "user.name=Test", "-c", "user.email=t@test.invalid",
         "commit", "-q", "-m", "a commit dated in the future"],
        check=True, env={**env, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"},
    )  # fmt: skip
    commits.append(_git(folder, "rev-parse", "HEAD"))
    _edit(folder, "  result: pass\n", "  result: fail\n")
    commits.append(_commit(folder, "2026-11-03", "a commit after it"))
    return folder, commits


def _changelog_by(way: str, project: Path, tmp_path: Path) -> tuple[str, bytes]:
    """The changelog page and feed as `cloudqual render` writes them, or as the pipeline every
    engine calls (pipeline/run.build) makes them, both on 2026-12-02."""
    from generator.cli import main
    from generator.pipeline.memo import Memo
    from generator.pipeline.run import Caches, Inputs, build
    from generator.render.svg import SvgStore

    if way == "render":
        out = tmp_path / "out"
        code = main(
            ["render", "--out", str(out), "--content", str(project / "content"), "--templates",
             str(ROOT / "templates"), "--config", str(ROOT / "mkdocs.yml"), "--cache",
             str(tmp_path / "cache"), "--as-of", "2026-12-02"]
        )  # fmt: skip
        assert code == 0
        docs = out / "docs"
        return (docs / "changelog.md").read_text("utf-8"), (
            docs / "feeds/changelog.atom"
        ).read_bytes()
    inputs = Inputs(
        project / "content", Options(ROOT / "templates", Policy(date(2026, 12, 2))), history=True
    )
    memo = Memo(tmp_path / "cache")
    remembered, _ = build(inputs, Caches(memo, SvgStore(None)), say=print)
    output = remembered.output
    return output.pages["changelog.md"].markdown, output.data["feeds/changelog.atom"]


@pytest.mark.parametrize("way", ["render", "pipeline"])
def test_a_commit_dated_after_the_build_is_listed_on_the_builds_date(
    tmp_path: Path, way: str
) -> None:
    """Before, the commit dated 9999 dated itself and every later commit 9999-12-31, and the
    feed's `updated` stayed there for good."""
    folder, _ = _future_dated(tmp_path)
    page, atom = _changelog_by(way, folder, tmp_path)
    assert re.findall(r"^## (.+)$", page, flags=re.MULTILINE) == ["2026-12-02", "2026-11-01"]
    said = re.findall(r"\(dated ([0-9-]+), later than the date this site was built on", page)
    assert said == ["9999-06-01"]  # the commit after it took its day from it, as ever
    feed = feedparser.parse(atom)
    assert feed.feed.updated.startswith("2026-12-02")
    assert [e.id for e in feed.entries] == [
        f"urn:cloudqual:changelog:2026-1{d}" for d in ("2-02", "1-01")
    ]
    # The commit after it is compared as ever, on the build's date.
    assert page.count("<p>A change") == 3  # the first, the future-dated one, the one after


def test_the_commits_are_dated_no_later_than_the_builds_date(tmp_path: Path) -> None:
    folder, commits = _future_dated(tmp_path)
    found = revisions(folder / "content", date(2026, 12, 2))
    assert found.commits == (
        (commits[0], date(2026, 11, 1)),
        (commits[1], date(2026, 12, 2)),
        (commits[2], date(2026, 12, 2)),
    )
    assert found.later == {commits[1]: date(9999, 6, 1)}
    (_, future, after) = history(found).steps
    assert (future.dated, after.dated) == (date(9999, 6, 1), None)


def test_only_the_latest_commits_are_compared_and_the_page_says_the_rest_are_in_git(
    repository: tuple[Path, list[str]],
) -> None:
    """Each commit compared costs a second or so, and CI keeps nothing between publishes: the
    changelog compares the latest commits only (history.LATEST_COMMITS), and says where the
    rest are. The first one listed is compared with the commit before it, as any other."""
    folder, commits = repository
    found = history(revisions(folder / "content"), latest=2)
    broken, fixed = found.steps
    assert [broken.commit, fixed.commit] == commits[2:]
    assert fixed.base == commits[1]  # read, though not listed, as the last that passes
    assert (broken.earlier, fixed.earlier) == (2, 0)
    output = site_output(
        load_site(folder / "content"),
        Options(ROOT / "templates", Policy(date(2026, 12, 2))),
        history=found,
    )
    page = output.pages["changelog.md"].markdown
    assert re.findall(r"^## (.+)$", page, flags=re.MULTILINE) == ["2026-11-03"]
    assert "Earlier commits of the content (2) are not listed" in page
    assert "<code>git log --first-parent</code>" in page
    assert history(revisions(folder / "content"), latest=4).steps[0].earlier == 0


def test_the_commits_compared_fit_the_publishing_workflows_time() -> None:
    """At the slowest measured, 1.6 s a commit, the changelog takes at most half the time the
    Pages workflow gives its build job, whatever the length of the history."""
    from generator.changes import history as history_module

    workflow = yaml.safe_load((ROOT / ".github/workflows/pages.yml").read_text("utf-8"))
    minutes = workflow["jobs"]["build"]["timeout-minutes"]
    slowest = history_module.LATEST_COMMITS * 1.6  # seconds
    assert slowest <= minutes * 60 / 2


def test_every_kind_of_change_has_words_for_a_buyer() -> None:
    """The changelog page says each kind of change in a buyer's words: a kind added to the
    comparison without words would stop the page."""
    assert set(BUYER_WORDS) == set(get_args(What))
    assert BUYER_WORDS["result added"] == "new result"
    assert BUYER_WORDS["measurement changed"] == "figure changed"


def test_a_day_is_counted_in_one_line_new_results_and_figures_first() -> None:
    """A buyer scanning the days reads what kind of day it was before its lines."""

    def change(what: str) -> Change:
        return Change(result="r", title="R", what=what)  # type: ignore[arg-type]

    kinds = ["last reviewed", "measurement changed", "result added", "measurement changed"]
    assert day_line([change(k) for k in kinds]) == (
        "1 new result, 2 figures changed, 1 other change"
    )
    grades = ["outcome grade", "measurement grade", "source added", "source removed"]
    assert day_line([change(k) for k in grades]) == "2 grades changed, 2 other changes"
    assert day_line([]) is None


def test_a_long_wording_is_not_repeated_on_the_page() -> None:
    """A figure's note on how it was scored runs to a paragraph: the page says that it changed,
    and leaves the wording to the result's page; a short value still reads in the line."""
    note = "Scored from excerpts of its 10 run logs, not the whole logs: " + "each line. " * 20
    long = Change(
        result="r",
        title="R",
        what="measurement shown",
        subject="m",
        subject_words="Llama 3.1 8B",
        before=note,
        after=note + " Rescored.",
    )
    line = buyer_line(long)
    assert line == "how a figure is shown changed: Llama 3.1 8B: too long to repeat here"
    assert "excerpts" not in line
    short = long.model_copy(update={"before": "8 GPUs", "after": "16 GPUs"})
    assert buyer_line(short).endswith(": Llama 3.1 8B: 8 GPUs → 16 GPUs")


def test_a_changed_check_source_and_figure_are_named_as_a_buyer_reads_them(
    real_site: Site,
) -> None:
    """A trial check is named by its sentence, a source by its title, a figure by what ran; the
    diff for reviewers keeps the ids (`Change.subject`)."""
    base = snapshot(real_site, derive_site(real_site, Policy(AS_OF)))
    result = "lambda-nvidia-b200-sxm-180gb-mlperf-training-v5-0"
    old = base[result]
    checklist, items = next((c, i) for c, i in old.open_items.items() if i)
    figure = next(iter(old.measurements))
    source = old.sources[0]
    new = old.model_copy(
        update={
            "open_items": {**old.open_items, checklist: items[1:]},
            "measurements": {
                k: f.model_copy(update={"value": "1.00 min"}) for k, f in old.measurements.items()
            },
            "sources": old.sources[1:],
        }
    )
    lines = {c.what: (c.subject, buyer_line(c)) for c in changes({result: old}, {result: new})}
    subject, line = lines["item closed"]
    assert subject == f"{checklist}: {items[0]}"
    assert line == f"trial check settled by the evidence: {old.labels[subject]}"
    assert items[0] not in line and len(old.labels[subject]) > 40
    subject, line = lines["measurement changed"]
    assert subject == figure and " · " not in line
    assert line.startswith(f"figure changed: {old.labels[figure]}: ")
    # A part of a figure's row that moved is named alone: the note beside it, unchanged, is not
    # written out again.
    part = "against the chip maker's own"
    noted = next(k for k, f in old.measurements.items() if "note" in f.shown)
    figure_now = old.measurements[noted].model_copy(
        update={"shown": {**old.measurements[noted].shown, part: "90%"}}
    )
    moved = changes(
        {result: old},
        {result: old.model_copy(update={"measurements": {**old.measurements, noted: figure_now}})},
    )
    (shown,) = [c for c in moved if c.what == "measurement shown"]
    was = old.measurements[noted].shown.get(part)
    assert buyer_line(shown) == (
        f"how a figure is shown changed: {old.labels[noted]}, {part}: "
        + (f"{was} → 90%" if was else "90%")
    )
    subject, line = lines["source removed"]
    assert subject == source and line == f"source removed: {old.labels[source]}"
    assert source not in line
