"""`cloudqual watch`, against local git repositories built here as MLCommons' would be: a pinned
round that has not moved, one whose result a submitter corrected, a new round with a submitter the
mapping lacks, and a round that is not there. No network: the watch reads repositories through
git alone, and the tests name a local folder as the base."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from conftest import MINIMAL, copy_content

from generator.cli import main
from generator.watch.pin import PinError, pin
from generator.watch.rounds import next_rounds, submitter_of

MODELINE = "# yaml-language-server: $schema=../../schemas/imports-mlperf-training.schema.json\n"
LAMBDA = {
    "submitter": "Lambda",
    "accelerator_model_name": "NVIDIA H100-SXM5-80GB",
    "status": "Available cloud",
}


def _git(folder: Path, *arguments: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(folder), *arguments],
        capture_output=True,
        text=True,
        check=True,
        env={
            "GIT_AUTHOR_NAME": "MLCommons",
            "GIT_AUTHOR_EMAIL": "results@mlcommons.test",
            "GIT_COMMITTER_NAME": "MLCommons",
            "GIT_COMMITTER_EMAIL": "results@mlcommons.test",
            "GIT_AUTHOR_DATE": "2026-11-12T00:00:00Z",
            "GIT_COMMITTER_DATE": "2026-11-12T00:00:00Z",
            "PATH": "/usr/bin:/bin",
            "HOME": str(folder),
        },
    )
    return done.stdout.strip()


def _commit(repository: Path, files: dict[str, str], message: str) -> str:
    for path, text in files.items():
        target = repository / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    _git(repository, "add", "-A")
    _git(repository, "commit", "-q", "-m", message)
    return _git(repository, "rev-parse", "HEAD")


def _repository(base: Path, name: str) -> Path:
    repository = base / name
    repository.mkdir(parents=True)
    _git(repository, "init", "-q", "-b", "main")
    return repository


def _mapping(content: Path, commit: str) -> Path:
    path = content / "imports" / "mlperf-training.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        MODELINE
        + "# A maintainer's comment, which pinning keeps.\n"
        + "rounds:\n"
        + "  v5.1:\n"
        + "    repository: https://github.com/mlcommons/training_results_v5.1\n"
        + "    # Read at the commit that published the round.\n"
        + f"    commit: {commit}\n"
        + "    reviewed: 2026-12-04\n"
        + "    published: {date: 2025-11-12, basis: publication, source: test-source, "
        + "grade: program-owner}\n"
        + "submitters:\n"
        + "  Lambda: {provider: test-provider, cloud: submitter}\n"
        + "accelerators:\n"
        + "  NVIDIA H100-SXM5-80GB: {platform: test-platform, vendor: NVIDIA, chip: H100, "
        + "noun: GPU}\n",
        encoding="utf-8",
    )
    return path


@pytest.fixture
def world(tmp_path: Path) -> dict[str, object]:
    """MLCommons as a folder of repositories: v5.1 published, then a corrected Lambda result
    and an NVIDIA file; v6.0 published with a submitter the mapping lacks; no v5.2."""
    base = tmp_path / "mlcommons"
    v51 = _repository(base, "training_results_v5.1")
    first = _commit(
        v51,
        {
            "Lambda/systems/lambda_8x.json": json.dumps(LAMBDA),
            "Lambda/results/lambda_8x/llama2_70b_lora/result_0.txt": ":::MLLOG run_stop\n",
            "NVIDIA/systems/dgx.json": json.dumps(
                {**LAMBDA, "submitter": "NVIDIA", "status": "Available on-premise"}
            ),
        },
        "Publishing results",
    )
    v60 = _repository(base, "training_results_v6.0")
    new_head = _commit(
        v60,
        {
            "Acme/systems/acme_8x.json": json.dumps(
                {**LAMBDA, "submitter": "Acme Cloud", "accelerator_model_name": "Chip X9"}
            ),
            "Lambda/systems/lambda_8x.json": json.dumps(LAMBDA),
        },
        "Publishing results",
    )
    content = copy_content(MINIMAL, tmp_path / "content")
    mapping = _mapping(content, first)
    return {
        "base": base,
        "v51": v51,
        "first": first,
        "new_head": new_head,
        "content": content,
        "mapping": mapping,
        "cache": tmp_path / "cache",
    }


def _watch(world: dict[str, object], capsys: pytest.CaptureFixture[str], *extra: str) -> object:
    code = main(
        [
            "watch",
            "--content",
            str(world["content"]),
            "--base",
            str(world["base"]),
            "--cache",
            str(world["cache"]),
            "--format",
            "json",
            *extra,
        ]
    )
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


def _by_round(found: object) -> dict[str, dict[str, object]]:
    assert isinstance(found, list)
    return {f["round"]: f for f in found}


def test_an_unmoved_round_a_new_one_and_one_not_there(
    world: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    found = _by_round(_watch(world, capsys))
    assert set(found) == {"v5.1", "v5.2", "v6.0"}
    assert found["v5.1"]["status"] == "unchanged" and found["v5.1"]["head"] == world["first"]
    assert found["v5.2"]["status"] == "absent" and found["v5.2"]["head"] is None
    assert not found["v5.2"]["actionable"] and not found["v5.1"]["actionable"]
    new = found["v6.0"]
    assert new["status"] == "new" and new["head"] == world["new_head"] and new["actionable"]
    # Without --read, what the mapping lacks is the round itself, for a person to date.
    assert new["lacks"] == [
        "content/imports/mlperf-training.yaml: rounds.v6.0: its repository, commit and "
        "publication date, with the source that dates it (a person adds these)"
    ]


def test_a_new_round_lists_what_the_mapping_lacks_as_the_import_names_it(
    world: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    new = _by_round(_watch(world, capsys, "--read"))["v6.0"]
    assert new["lacks"][1:] == [
        "Acme/systems/acme_8x.json:1:1: accelerator_model_name: expected an accelerator that "
        "content/imports/mlperf-training.yaml maps to a platform, found 'Chip X9': add it "
        "under accelerators",
        "Acme/systems/acme_8x.json:1:1: submitter: expected a submitter that "
        "content/imports/mlperf-training.yaml maps to a provider, found 'Acme Cloud': add it "
        "under submitters",
    ]
    assert Path(str(new["checkout"])).joinpath("Acme/systems/acme_8x.json").is_file()


def test_a_corrected_result_moves_the_round_and_is_pinned_with_nothing_else_changed(
    world: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    v51 = world["v51"]
    assert isinstance(v51, Path)
    corrected = _commit(
        v51,
        {
            "Lambda/results/lambda_8x/llama2_70b_lora/result_0.txt": ":::MLLOG corrected\n",
            "NVIDIA/results/dgx/note.txt": "another submitter's file\n",
        },
        "Correct Lambda's result",
    )
    mapping = world["mapping"]
    assert isinstance(mapping, Path)
    before = mapping.read_text(encoding="utf-8")
    moved = _by_round(_watch(world, capsys, "--read", "--pin"))["v5.1"]
    assert moved["status"] == "moved" and moved["actionable"]
    assert moved["pinned"] == world["first"] and moved["head"] == corrected
    assert moved["followed"] == ["Lambda/results/lambda_8x/llama2_70b_lora/result_0.txt"]
    assert moved["others"] == 1 and moved["lacks"] == []
    after = mapping.read_text(encoding="utf-8")
    assert after == before.replace(f"commit: {world['first']}", f"commit: {corrected}")
    # Pinned, the round is unchanged on the next run, and nothing is written.
    again = _by_round(_watch(world, capsys, "--read", "--pin"))["v5.1"]
    assert again["status"] == "unchanged"
    assert mapping.read_text(encoding="utf-8") == after


def test_a_round_lacking_an_entry_is_not_pinned(
    world: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    v51 = world["v51"]
    assert isinstance(v51, Path)
    _commit(
        v51,
        {"Lambda/systems/lambda_16x.json": json.dumps({**LAMBDA, "accelerator_model_name": "B9"})},
        "Add a system",
    )
    mapping = world["mapping"]
    assert isinstance(mapping, Path)
    before = mapping.read_text(encoding="utf-8")
    moved = _by_round(_watch(world, capsys, "--read", "--pin"))["v5.1"]
    assert moved["status"] == "moved"
    assert [line.split(": ")[1] for line in moved["lacks"]] == ["accelerator_model_name"]
    assert mapping.read_text(encoding="utf-8") == before


def test_the_text_report_names_each_round(
    world: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["watch", "--content", str(world["content"]), "--base", str(world["base"]),
         "--cache", str(world["cache"])]
    )  # fmt: skip
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[0] == f"mlperf-training v5.1: unchanged at {world['first']}"
    assert out[1] == "mlperf-training v5.2: not there"
    assert out[2] == f"mlperf-training v6.0: new at {world['new_head']}"
    assert out[3].startswith("  lacks: content/imports/mlperf-training.yaml: rounds.v6.0")


def test_git_that_cannot_answer_stops_the_watch(
    world: dict[str, object], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A host git cannot reach is an error, never a round 'not there'."""
    refused = "http://127.0.0.1:9/mlcommons"  # the discard port: the connection is refused
    code = main(["watch", "--content", str(world["content"]), "--base", refused])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith("cloudqual watch: git ls-remote "), err
    assert "training_results_v5.1" in err


def test_the_next_rounds_and_whose_folder_a_path_is_in() -> None:
    assert next_rounds(["v5.0", "v5.1"]) == ["v5.2", "v6.0"]
    assert next_rounds(["v6.0"]) == ["v6.1", "v7.0"]
    assert next_rounds([]) == []
    assert submitter_of("mlperf-training", "Lambda/results/x/result_0.txt") == "Lambda"
    assert submitter_of("mlperf-training", "README.md") is None
    assert submitter_of("mlperf-inference", "closed/Nebius/results/x.json") == "Nebius"
    assert submitter_of("mlperf-inference", "summary_results.json") == ""


def test_pinning_refuses_a_mapping_that_changed_under_it(tmp_path: Path) -> None:
    path = _mapping(tmp_path, "a" * 40)
    with pytest.raises(PinError, match=r"expected b{40}, found another"):
        pin(path, "v5.1", "b" * 40, "c" * 40)
    with pytest.raises(PinError, match="expected the round's block"):
        pin(path, "v9.9", "a" * 40, "c" * 40)


def test_the_issue_shows_a_rounds_values_as_code(
    world: dict[str, object], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A round's repository is untrusted: a submitter named to ping or to inject markup is shown
    as a code span in the issue the workflow opens."""
    base = world["base"]
    assert isinstance(base, Path)
    hostile = "@maintainer <script>alert(1)</script> `[x](https://evil.test)`"
    v60 = base / "training_results_v6.0"
    _commit(v60, {"Evil/systems/e.json": json.dumps({**LAMBDA, "submitter": hostile})}, "More")
    code = main(
        ["watch", "--content", str(world["content"]), "--base", str(base),
         "--cache", str(world["cache"]), "--read", "--format", "markdown"]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("## mlperf-training v6.0: new at `") and lines[1] == ""
    items = [line for line in lines if line.startswith("- ")]
    assert len(items) == 4  # the round's entry, Acme's submitter and chip, the hostile one
    evil = next(line for line in items if "maintainer" in line)
    assert evil.startswith("- ``") and evil.endswith("``")  # fenced past the backtick inside
    outside = re.sub(r"(`+)(.*?)\1", "", "\n".join(items))
    assert "@" not in outside and "<" not in outside and "](" not in outside
