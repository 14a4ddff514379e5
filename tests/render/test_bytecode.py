"""The templates' compiled code kept across processes (render/bytecode.py): a new process
compiles no template whose source is unchanged, and what the store holds is read only as Jinja's
own bytecode of the same source."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
import pytest
from conftest import AS_OF, MINIMAL, ROOT, copy_content

from generator.model.options import Options
from generator.model.policy import Policy
from generator.pipeline.memo import Memo, TemplateCode
from generator.pipeline.run import Caches, Inputs, build
from generator.render import environment
from generator.render.bytecode import KEY, SealedBytecode
from generator.render.svg import SvgStore


class _Store:
    def __init__(self) -> None:
        self.kept: dict[str, Any] = {}

    def get(self, key: str) -> Any:
        return self.kept.get(key)

    def put(self, key: str, value: Any) -> None:
        self.kept[key] = value


def _compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    names: list[str] = []
    real = jinja2.Environment.compile

    def counted(self: jinja2.Environment, source: Any, name: str | None = None, *a: Any) -> Any:
        names.append(str(name))
        return real(self, source, name, *a)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    return names


def _environment(folder: Path, store: _Store) -> tuple[jinja2.Environment, SealedBytecode]:
    compiled = SealedBytecode(store)
    loader = jinja2.FileSystemLoader(folder)
    return jinja2.Environment(loader=loader, bytecode_cache=compiled, autoescape=True), compiled


def test_a_new_environment_compiles_only_what_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "page.j2").write_text("Hello {{ name }}", "utf-8")
    (tmp_path / "other.j2").write_text("{{ name }}!", "utf-8")
    store = _Store()
    compiles = _compiles(monkeypatch)
    first, compiled = _environment(tmp_path, store)
    assert first.get_template("page.j2").render(name="<b>") == "Hello &lt;b&gt;"
    assert compiles == ["page.j2"] and store.kept == {}
    compiled.save()
    assert len(store.kept[KEY]) == 1
    # Another process: the code is read, not compiled; it renders the same.
    second, compiled = _environment(tmp_path, store)
    assert second.get_template("page.j2").render(name="<b>") == "Hello &lt;b&gt;"
    second.get_template("other.j2")
    assert compiles == ["page.j2", "other.j2"]
    compiled.save()
    assert len(store.kept[KEY]) == 2  # what it held, and what it compiled
    # A template changed: Jinja's checksum of the source refuses its old code.
    (tmp_path / "page.j2").write_text("Bye {{ name }}", "utf-8")
    third, compiled = _environment(tmp_path, store)
    assert third.get_template("page.j2").render(name="x") == "Bye x"
    assert compiles == ["page.j2", "other.j2", "page.j2"]
    # What is not code of Jinja's is never run: compiled again.
    for held in (
        {KEY: "not a mapping"},
        {KEY: {"x": 1}},
        {KEY: dict.fromkeys(store.kept[KEY], "@@")},
    ):
        store.kept = dict(held)
        again, _ = _environment(tmp_path, store)
        assert again.get_template("other.j2").render(name="y") == "y!"
    assert compiles[-3:] == ["other.j2"] * 3


def test_a_build_in_a_new_process_compiles_no_template_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As after an edit: the environment of a new process, the code kept in the cache folder,
    sealed; every page the same as rendered from compiled templates."""
    content = copy_content(MINIMAL, tmp_path / "content")
    inputs = Inputs(content, Options(ROOT / "templates", Policy(AS_OF)))
    memo = Memo(tmp_path / "cache")
    environment.environment.cache_clear()
    first, _ = build(inputs, Caches(memo, SvgStore(None)), say=print)
    assert list((tmp_path / "cache" / TemplateCode.FOLDER).glob("templates-*.json"))
    environment.environment.cache_clear()  # a new process
    compiles = _compiles(monkeypatch)
    again, _ = build(inputs, Caches(memo, SvgStore(None)), say=print)
    assert compiles == []
    assert again.output.pages == first.output.pages
    # The kept file tampered with fails its seal: every template is compiled again.
    [kept] = (tmp_path / "cache" / TemplateCode.FOLDER).glob("templates-*.json")
    kept.write_bytes(kept.read_bytes().replace(b'"', b"'", 40))
    environment.environment.cache_clear()
    rebuilt, _ = build(inputs, Caches(Memo(tmp_path / "third"), SvgStore(None)), say=print)
    assert compiles and rebuilt.output.pages == first.output.pages
    environment.environment.cache_clear()


def test_the_kept_code_stays_though_a_build_loads_no_template(tmp_path: Path) -> None:
    """A build whose every page is reused loads no template: the code is kept all the same,
    for the next build that renders."""
    content = copy_content(MINIMAL, tmp_path / "content")
    inputs = Inputs(content, Options(ROOT / "templates", Policy(AS_OF)))
    memo = Memo(tmp_path / "cache")
    environment.environment.cache_clear()
    first, _ = build(inputs, Caches(memo, SvgStore(None)), say=print)
    [kept] = (tmp_path / "cache" / TemplateCode.FOLDER).glob("templates-*.json")
    environment.environment.cache_clear()
    caches = Caches(memo, SvgStore(None), previous=first.output.signed)
    again, _ = build(inputs, caches, say=print)
    assert again.output.pages == first.output.pages
    assert list((tmp_path / "cache" / TemplateCode.FOLDER).glob("templates-*.json")) == [kept]
    environment.environment.cache_clear()


def test_the_kept_code_is_keyed_by_the_code_and_the_interpreter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another version of the generator or of a dependency, or another interpreter, reads none
    of the kept code: every template is compiled again."""
    import sys

    from generator.pipeline import memo

    kept = TemplateCode(tmp_path)
    kept.put(KEY, {"a": "b"})
    assert TemplateCode(tmp_path).get(KEY) == {"a": "b"}
    with monkeypatch.context() as patch:
        patch.setattr(memo, "code_version", lambda: "another version")
        assert TemplateCode(tmp_path).get(KEY) is None
    with monkeypatch.context() as patch:
        patch.setattr(sys, "version", sys.version + " (another build)")
        assert TemplateCode(tmp_path).get(KEY) is None
    assert TemplateCode(tmp_path).get(KEY) == {"a": "b"}
