"""One reader of a build's settings (generator/pipeline/settings.py) for the three ways in: MkDocs'
plugin, `cloudqual build --engine zensical` and `cloudqual render` agree on every option, and
an option given in mkdocs.yml reaches `cloudqual render` as it reaches the other two."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import pytest
from mkdocs.config import load_config
from mkdocs.exceptions import Abort

from generator import cli
from generator.engines import runner
from generator.engines.mkdocs import options as mkdocs_options
from generator.engines.project import read_config
from generator.pipeline import settings
from generator.pipeline.run import Inputs

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "minimal" / "content"

PLUGIN_BLOCK = "  - cloudqual:\n      content_dir: content\n      templates_dir: templates\n"


def _project(folder: Path, options: str) -> Path:
    """This repository's mkdocs.yml, its plugin's options replaced by `options` (YAML lines
    under `- cloudqual:`), with the minimal content as both `content` and `records`."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert PLUGIN_BLOCK in text, "mkdocs.yml's plugin block has moved: update PLUGIN_BLOCK"
    folder.mkdir(parents=True)
    (folder / "mkdocs.yml").write_text(
        text.replace(PLUGIN_BLOCK, "  - cloudqual:\n" + options), encoding="utf-8"
    )
    shutil.copytree(FIXTURE, folder / "content")
    shutil.copytree(FIXTURE, folder / "records")
    shutil.copytree(ROOT / "templates", folder / "templates")
    return folder


def _by_mkdocs(config_file: Path) -> settings.Settings:
    config = load_config(str(config_file))
    plugin = config.plugins["cloudqual"]
    return mkdocs_options.settings_of(plugin.config, config)  # type: ignore[attr-defined]


def _comparable(inputs: Inputs) -> tuple[object, ...]:
    return (
        inputs.content_dir.resolve(),
        inputs.options.templates_dir.resolve(),
        inputs.options.policy,
        inputs.options.site_url,
    )


OPTIONS = (
    "      content_dir: records\n"
    "      as_of: 2026-03-04\n"
    "      expiry_warning_days: 11\n"
    "      review_max_age_days: 22\n"
    "      cache_dir: ../elsewhere\n"
)


def test_mkdocs_and_the_zensical_build_read_the_same_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLOUDQUAL_AS_OF", raising=False)
    monkeypatch.delenv("CLOUDQUAL_CACHE_DIR", raising=False)
    project = _project(tmp_path / "project", OPTIONS)
    config_file = project / "mkdocs.yml"
    by_mkdocs = _by_mkdocs(config_file)
    by_zensical = runner.plugin_options(config_file, read_config(config_file))
    assert _comparable(by_mkdocs.inputs) == _comparable(by_zensical.inputs)
    assert by_mkdocs.inputs.options.policy.as_of == date(2026, 3, 4)
    assert by_mkdocs.inputs.options.policy.expiry_warning_days == 11
    assert by_mkdocs.inputs.content_dir.name == "records"
    assert by_mkdocs.cache_dir.resolve() == by_zensical.cache_dir.resolve()
    assert by_mkdocs.cache_dir.resolve() == (tmp_path / "elsewhere").resolve()


def test_render_reads_the_plugins_options_in_its_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before the one reader, `cloudqual render` judged on today whatever mkdocs.yml's as_of
    said, and read ./content whatever its content_dir said."""
    monkeypatch.delenv("CLOUDQUAL_AS_OF", raising=False)
    project = _project(tmp_path / "project", OPTIONS)
    monkeypatch.chdir(project)
    out = tmp_path / "out"
    assert cli.main(["render", "--out", str(out)]) == 0, capsys.readouterr().err
    built = json.loads((out / "docs" / "api" / "v1" / "index.json").read_text(encoding="utf-8"))
    assert built["as_of"] == "2026-03-04"
    # The cache is the one the options name, outside the project.
    assert (tmp_path / "elsewhere").is_dir()


def test_a_flag_is_laid_over_the_option(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path / "project", OPTIONS)
    monkeypatch.chdir(project)
    out = tmp_path / "out"
    flags = ["render", "--out", str(out), "--as-of", "2026-05-06", "--cache", str(tmp_path / "c")]
    assert cli.main(flags) == 0, capsys.readouterr().err
    built = json.loads((out / "docs" / "api" / "v1" / "index.json").read_text(encoding="utf-8"))
    assert built["as_of"] == "2026-05-06"
    assert (tmp_path / "c").is_dir()


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("      content_dri: content\n", "unknown option 'content_dri'"),
        ("      review_max_age_days: ninety\n", "expected a whole number, found 'ninety'"),
        ("      as_of: someday\n", "expected a date as YYYY-MM-DD, found 'someday'"),
    ],
)
def test_a_bad_option_is_refused_alike_by_all_three(
    tmp_path: Path,
    option: str,
    message: str,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    project = _project(tmp_path / "project", option)
    config_file = project / "mkdocs.yml"
    with pytest.raises(runner.BuildError, match=message):
        runner.plugin_options(config_file, read_config(config_file))
    content, templates = str(project / "content"), str(project / "templates")
    rendered = cli.main(
        ["render", "--out", str(tmp_path / "out"), "--config", str(config_file), "--content",
         content, "--templates", templates]
    )  # fmt: skip
    assert rendered == 1
    assert message in capsys.readouterr().err
    if "unknown" in message:
        # MkDocs warns of an option it does not know, and fails on it in strict mode.
        with pytest.raises(Abort, match="strict"):
            load_config(str(config_file))
        assert "Unrecognised configuration name: content_dri" in caplog.text
        return
    with pytest.raises(Abort):
        _by_mkdocs(config_file)
    assert message in caplog.text


def test_a_date_that_is_none_in_mkdocs_yml_is_named_not_a_traceback(tmp_path: Path) -> None:
    project = _project(tmp_path / "project", "      as_of: 2026-13-01\n")
    config_file = project / "mkdocs.yml"
    with pytest.raises(ValueError, match=r"mkdocs\.yml: month must be in 1\.\.12"):
        read_config(config_file)
