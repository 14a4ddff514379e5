"""Every script-injection vector in every string field of every kind of record, and in a
hand-written page: the built site is parsed as HTML (not searched for substrings), and every page
is opened in chromium, where no dialog may fire and nothing may load from another host."""

from __future__ import annotations

import csv
import dataclasses
import functools
import io
import json
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from html.parser import HTMLParser
from io import StringIO
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from browsing import chromium, served
from build import make_project, mkdocs_build, zensical_build
from conftest import EXHAUSTIVE, ROOT
from pydantic import BaseModel
from ruamel.yaml import YAML

from generator.checks import pages
from generator.checks.loader import PAGES_FOLDER, load_site
from generator.derive.site_facts import derive_site
from generator.engines import csp
from generator.escape import first_invisible
from generator.load.reader import load_text
from generator.model.kinds import KINDS
from generator.model.policy import Policy
from generator.model.references import references
from generator.model.site import Site
from generator.problems import ContentError

VECTORS: list[str] = json.loads(
    (ROOT / "tests" / "fixtures" / "xss" / "vectors.json").read_text(encoding="utf-8")
)
# A field holds several vectors at once, joined by new lines; a few builds cover the corpus. The
# groups are small so that one vector (an unclosed comment, say) hides little of the rest.
GROUPS = 4
AS_OF = Policy(date(2026, 12, 1))  # the date the hostile sites are built at
Loc = tuple[str | int, ...]


def _leaves(value: Any, loc: Loc = ()) -> Iterator[Loc]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*loc, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaves(item, (*loc, index))
    elif isinstance(value, str) and loc != ("id",):
        yield loc


def _set(record: Any, loc: Loc, value: object) -> None:
    for part in loc[:-1]:
        record = record[part]
    record[loc[-1]] = value


def _get(record: Any, loc: Loc) -> Any:
    for part in loc:
        record = record[part]
    return record


def _dump(kind: str, record: dict[str, Any]) -> str:
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.allow_unicode = False  # escapes keep tabs and controls visible and the file printable
    stream = StringIO()
    yaml.dump(record, stream)
    return f"# yaml-language-server: $schema=../../schemas/{kind}.schema.json\n" + stream.getvalue()


@dataclass
class Hostile:
    content: Path
    fields: int  # string fields that carry the vectors in the built site
    refused: int  # string fields the schema refused them in (ids, enumerations, addresses)


def _shape(value: Any, loc: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """What a template can branch on in a record or its derived facts: each leaf's place, and
    its value where it is a word (an enumeration, a status), a flag or nothing."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = {field.name: getattr(value, field.name) for field in dataclasses.fields(value)}
    elif isinstance(value, BaseModel):
        value = dict(value)
    if isinstance(value, dict):
        if not value:
            yield (*loc, "{}")
        for key, item in value.items():
            yield from _shape(item, (*loc, key if isinstance(key, str) else "*"))
    elif isinstance(value, list | tuple):
        if not value:
            yield (*loc, "[]")
        for item in value:
            yield from _shape(item, (*loc, "*"))
    elif isinstance(value, bool | None) or (
        isinstance(value, str) and re.fullmatch(r"[A-Za-z_-]{1,24}", value)
    ):
        yield (*loc, value)
    else:
        yield (*loc, type(value).__name__)


@functools.cache
def representative() -> frozenset[str]:
    """The validations the hostile sites hold under make test: few enough that each site builds
    in seconds, and between them every shape of record and of derived fact the real content has
    (greedily chosen), with every result another record names. Each page template and field of
    the real content is still reached, and all but a few lines of the render (measured with
    coverage: a caveat's list of open-division models); the nightly run takes every
    validation."""
    site = load_site(ROOT / "content")
    facts = derive_site(site, AS_OF)
    shapes = {
        vid: {*_shape(v, ("record",)), *_shape(facts.derived[vid], ("derived",))}
        for vid, v in site.validations.items()
    }
    wanted, covered, chosen = set().union(*shapes.values()), set[Any](), set[str]()
    while covered != wanted:
        best = max(sorted(shapes), key=lambda vid: len(shapes[vid] - covered))
        chosen.add(best)
        covered |= shapes[best]
    # Every validation a kept record names (an analysis, a case study, a predecessor), until
    # none is missing.
    records = [r for kind in KINDS if kind != "validations" for r in _records(site, kind)]
    while named := {
        ref for record in [*records, *(site.validations[vid] for vid in chosen)]
        for kind, ref, _ in references(record, type(record)) if kind == "validations"
    } - chosen:  # fmt: skip
        chosen |= named
    return frozenset(chosen)


def _records(site: Site, kind: str) -> list[Any]:
    return list(getattr(site, kind.replace("-", "_")).values())


def hostile_content(folder: Path, payload: str) -> Hostile:
    """The real content (its representative validations, outside the nightly run) with
    `payload` in every string field the schema accepts it in."""
    content = make_project(folder, ROOT / "content") / "content"
    if not EXHAUSTIVE:
        kept = representative()
        for path in (content / "validations").glob("*.yaml"):
            if path.stem not in kept:
                path.unlink()
        # An analysis is of one validation, named by its file: it goes with a left-out one.
        for path in (content / "analyses").glob("*.yaml"):
            if path.stem not in kept:
                path.unlink()
    records: dict[Path, tuple[str, dict[str, Any], dict[str, Any]]] = {}
    carried: dict[Path, set[Loc]] = {}
    for kind in KINDS:
        for path in sorted((content / kind).glob("*.yaml")):
            document, problems = load_text(path.name, path.read_bytes())
            assert document is not None, problems
            original = document.value
            hostile = json.loads(json.dumps(original, default=date.isoformat))
            _restore_dates(hostile, original)
            locs = set(_leaves(original))
            for loc in locs:
                _set(hostile, loc, payload)
            records[path] = (kind, original, hostile)
            carried[path] = locs
    total = sum(map(len, carried.values()))
    # Each pass writes only the records the last one changed, and the loader reads again only
    # the files whose bytes changed (as under `mkdocs serve`); the cross-record checks see all.
    known: dict[Any, Any] = {}
    changed = set(records)
    for _ in range(20):
        for path in sorted(changed):
            kind, _, hostile = records[path]
            path.write_text(_dump(kind, hostile), encoding="utf-8")
        changed = set()
        try:
            load_site(content, known=known)
            break
        except ContentError as error:
            for problem in error.problems:
                path = content.parent / problem.path
                changed.add(path)
                kind, original, hostile = records[path]
                if "expected a file of at most" in problem.message:
                    # A record with many figures (an imported round) outgrows the file limit
                    # with the payload in every field: half of its figures' fields keep their
                    # own values, and the rest still carry it.
                    many = sorted(
                        (loc for loc in carried[path] if loc[:1] == ("measurements",)), key=repr
                    ) or sorted(carried[path], key=repr)
                    for loc in many[: max(1, len(many) // 2)]:
                        _set(hostile, loc, _get(original, loc))
                        carried[path].discard(loc)
                    continue
                loc = _closest(carried[path], problem.field)
                assert loc is not None, str(problem)
                # A name refuses invisible characters: it carries the rest of the payload. Any
                # other refusal puts the record's own value back.
                shown = "".join(c for c in payload if first_invisible(c) is None)
                if "invisible" in problem.message and _get(hostile, loc) != shown:
                    _set(hostile, loc, shown)
                    continue
                _set(hostile, loc, _get(original, loc))
                carried[path].discard(loc)
    else:
        pytest.fail("the hostile content never settled")
    fields = sum(map(len, carried.values()))
    return Hostile(content, fields, total - fields)


def _restore_dates(hostile: Any, original: Any) -> None:
    """json round-trips dates as text; put the date values back."""
    if isinstance(original, dict):
        for key, item in original.items():
            if isinstance(item, date):
                hostile[key] = item
            else:
                _restore_dates(hostile[key], item)
    elif isinstance(original, list):
        for index, item in enumerate(original):
            if isinstance(item, date):
                hostile[index] = item
            else:
                _restore_dates(hostile[index], item)


def _closest(locs: set[Loc], field: str) -> Loc | None:
    """The carried field a problem names: the field itself, or the one beneath it."""
    parts = field.split(".") if field else []
    candidates = [loc for loc in locs if [str(p) for p in loc[: len(parts)]] == parts]
    return min(candidates, key=len) if candidates else None


# --- what the built HTML may hold ------------------------------------------------------------

_ACTIVE = {"iframe", "frame", "frameset", "object", "embed", "applet", "base", "form", "meta"}
_URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "data", "srcdoc", "poster"}
_BAD_SCHEMES = ("javascript:", "vbscript:", "data:")
_SPACE = re.compile(r"[\x00-\x20]+")


class _Active(HTMLParser):
    """Everything in a page that could run script or make a request, except the theme's own."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._script: dict[str, str | None] | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"<{tag} {name}>")
            if name in _URL_ATTRIBUTES and value is not None:
                target = _SPACE.sub("", value).lower()
                if target.startswith(_BAD_SCHEMES):
                    self.found.append(f"<{tag} {name}={value!r}>")
                if tag != "a" and name != "href" and target.startswith(("http:", "https:", "//")):
                    self.found.append(f"<{tag} {name}={value!r}> loads from another host")
        if tag == "link" and (named.get("href") or "").startswith(("http:", "https:", "//")):
            self.found.append(f"<link href={named.get('href')!r}> loads from another host")
        harmless = ("charset" in named or "name" in named or
                    named.get("http-equiv") == "Content-Security-Policy")  # fmt: skip
        if tag == "meta" and harmless:
            return
        if tag in _ACTIVE:
            self.found.append(f"<{tag}>")
        if tag == "script":
            self._script, self._text = named, ""

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag != "script" or self._script is None:
            return
        src, kind = self._script.get("src"), self._script.get("type")
        theme = (
            (src is not None and re.match(r"^(\.\./)*assets/javascripts/bundle\.", src))
            or (kind == "application/json" and self._script.get("id") == "__config")
            or (src is None and kind is None and csp.is_theme_script(self._text))
        )
        if not theme:
            self.found.append(f"<script src={src!r} type={kind!r}>{self._text[:40]!r}")
        self._script = None


def active_parts(site: Path) -> dict[str, list[str]]:
    found = {}
    for path in sorted(site.rglob("*.html")):
        parser = _Active()
        parser.feed(path.read_text(encoding="utf-8"))
        parser.close()
        if parser.found:
            found[path.relative_to(site).as_posix()] = parser.found
    return found


# --- the corpus ------------------------------------------------------------------------------


def test_the_detector_finds_what_it_must(tmp_path: Path) -> None:
    # Unescaped vectors laid into a page must all be seen, or a clean result proves nothing.
    page_html = '<meta charset="utf-8"><title>x</title>' + "".join(VECTORS[:54])
    (tmp_path / "index.html").write_text(page_html, encoding="utf-8")
    found = active_parts(tmp_path)["index.html"]
    assert len(found) >= 45


@pytest.mark.parametrize("vector", VECTORS)
def test_a_page_holding_a_vector_is_refused_or_harmless(vector: str) -> None:
    text = f"# A page\n\nBefore.\n\n{vector}\n\nAfter.\n"
    problems = pages.check_page("content/pages/vectors.md", text.encode("utf-8"))
    rendered = pages.sanitize(pages_render(text))
    parser = _Active()
    parser.feed(rendered)
    assert parser.found == [] or problems, (vector, parser.found)
    assert all(p.position.line >= 1 for p in problems)


def pages_render(text: str) -> str:
    import markdown

    return str(markdown.Markdown(extensions=list(pages.EXTENSIONS)).convert(text))


@pytest.fixture(scope="module", params=["mkdocs", "zensical"])
def engine(request: pytest.FixtureRequest) -> str:
    """Each engine builds the hostile sites: MkDocs through the plugin, Zensical through
    `cloudqual build --engine zensical`, which does the plugin's work around it."""
    name: str = request.param
    return name


@pytest.fixture(scope="module")
def clean_site(engine: str, request: pytest.FixtureRequest) -> Path:
    """The real content's site, as the same engine builds it."""
    site: Path = request.getfixturevalue("built" if engine == "mkdocs" else "zensical_built")
    return site


@pytest.fixture(scope="session")
def hostile_projects(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Path, Hostile]]:
    """The hostile content, made once a session for both engines: a project per group of
    vectors, with every string field carrying them and a hand-written page of them."""
    projects = []
    for group in range(GROUPS):
        vectors = VECTORS[group::GROUPS]
        hostile = hostile_content(tmp_path_factory.mktemp(f"xss{group}"), "\n".join(vectors))
        # The vectors the page check lets through go into a hand-written page too.
        passing = [v for v in vectors if not pages.check_page("p.md", f"# P\n\n{v}\n".encode())]
        page = hostile.content / PAGES_FOLDER / "vectors.md"
        page.write_text("# Vectors\n\n" + "\n\n".join(passing) + "\n", encoding="utf-8")
        projects.append((hostile.content.parent, hostile))
    return projects


@pytest.fixture(scope="module")
def hostile_sites(
    engine: str,
    hostile_projects: list[tuple[Path, Hostile]],
    tmp_path_factory: pytest.TempPathFactory,
) -> list[tuple[Path, Hostile]]:
    """Each hostile project, built by `engine` from a copy of its own."""
    sites = []
    for group, (source, hostile) in enumerate(hostile_projects):
        project = tmp_path_factory.mktemp(f"xss-{engine}-{group}") / "project"
        shutil.copytree(source, project, symlinks=True)
        # One chart cache per hostile content, shared by both engines: the charts are the same.
        charts = tmp_path_factory.getbasetemp() / f"xss-charts-{group}"
        config = project / "mkdocs.yml"
        text = config.read_text(encoding="utf-8")
        option = "      templates_dir: templates\n"
        assert option in text
        config.write_text(text.replace(option, f"{option}      cache_dir: {charts}\n"))
        if engine == "mkdocs":
            result = mkdocs_build(project, CLOUDQUAL_AS_OF=AS_OF.as_of.isoformat(), strict=False)
        else:
            result = zensical_build(project, CLOUDQUAL_AS_OF=AS_OF.as_of.isoformat())
        assert result.returncode == 0, result.stdout + result.stderr
        sites.append((project / "site", hostile))
    return sites


def test_every_string_field_carries_the_vectors(
    hostile_sites: list[tuple[Path, Hostile]],
) -> None:
    for _, hostile in hostile_sites:
        assert hostile.fields >= 300, hostile
        assert hostile.refused >= 50, hostile  # ids, references, vocabularies, addresses


@functools.cache
def _dropped() -> frozenset[str]:
    """The validations the hostile sites leave out: none in the nightly run."""
    every = {path.stem for path in (ROOT / "content" / "validations").glob("*.yaml")}
    return frozenset() if EXHAUSTIVE else frozenset(every - representative())


def _of_dropped(page: str) -> bool:
    """Whether `page` is a left-out validation's own: its page or its checklist."""
    parts = page.split("/")
    return len(parts) == 3 and parts[1] in _dropped()


def test_no_vector_becomes_markup_in_any_page(
    hostile_sites: list[tuple[Path, Hostile]], clean_site: Path
) -> None:
    # The theme's own forms (search, palette) are in every page; each page must hold exactly
    # what the same page of the clean site, built by the same engine, holds.
    clean = active_parts(clean_site)
    for group, (site, _) in enumerate(hostile_sites):
        found = active_parts(site)
        # The hand-written page of vectors holds what any hand-written page holds.
        assert found.pop("vectors/index.html") == clean["contributing/index.html"]
        # Chips and pairs follow the content, so a hostile chip name gives other workload,
        # figures and pair pages: each holds what a clean page of its section, at its depth,
        # holds.
        varying = ("pairs/", "workloads/", "figures/")
        assert {p for p in found if not p.startswith(varying)} == {
            p for p in clean if not p.startswith(varying) and not _of_dropped(p)
        }
        for path, parts in found.items():
            like = clean.get(path) or next(
                clean[p]
                for p in sorted(clean)
                if p.split("/")[0] == path.split("/")[0] and p.count("/") == path.count("/")
            )
            assert parts == like, path
        # And they are shown, as text: the provider's name is the payload.
        heading = _Heading()
        heading.feed((site / "providers" / "crusoe" / "index.html").read_text(encoding="utf-8"))
        shown = " ".join(heading.text.split())
        # Names refuse invisible characters, so the name shows each vector without them.
        visible_only = ["".join(c for c in v if first_invisible(c) is None) for v in VECTORS]
        missing = [v for v in visible_only[group::GROUPS] if " ".join(v.split()) not in shown]
        assert missing == []


class _Heading(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text, self._depth = "", 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._depth += tag == "h1"

    def handle_endtag(self, tag: str) -> None:
        self._depth -= tag == "h1" and self._depth > 0

    def handle_data(self, data: str) -> None:
        if self._depth:
            self.text += data


def test_no_vector_reaches_a_chart_as_markup(hostile_sites: list[tuple[Path, Hostile]]) -> None:
    for site, _ in hostile_sites:
        for svg in sorted((site / "charts").glob("*.svg")):
            for element in ElementTree.parse(svg).iter():  # noqa: S314 - our own build's output
                name = element.tag.rsplit("}", 1)[-1]
                assert name not in ("script", "foreignObject", "a", "image", "use"), svg
                for attribute, value in element.attrib.items():
                    assert not attribute.rsplit("}", 1)[-1].startswith("on"), svg
                    assert not _SPACE.sub("", value).lower().startswith(_BAD_SCHEMES), svg


def visited(site: Path) -> list[Path]:
    """The pages the browser opens: in the nightly run every page; otherwise one page of each
    template, a page of each section at each depth (the home page, an index, a record's page),
    since pages of one template hold the same fields. Every page is still parsed, above."""
    pages = sorted(site.rglob("*.html"))
    if EXHAUSTIVE:
        return pages
    chosen: dict[tuple[str, int], Path] = {}
    for path in pages:
        parts = path.relative_to(site).parts
        chosen.setdefault((parts[0] if len(parts) > 1 else "", len(parts)), path)
    return sorted(chosen.values())


@pytest.mark.browser
def test_no_dialog_fires_and_nothing_loads_from_elsewhere(
    hostile_sites: list[tuple[Path, Hostile]],
) -> None:
    fired: list[str] = []
    foreign: list[str] = []
    with chromium() as browser:
        for site, _ in hostile_sites:
            with served(site) as base_url:
                context = browser.new_context()
                page = context.new_page()
                page.on("dialog", lambda dialog: (fired.append(dialog.message), dialog.dismiss()))
                page.on(
                    "request",
                    lambda request: (
                        None
                        if request.url.startswith((base_url, "data:"))
                        else foreign.append(request.url)
                    ),
                )
                for path in visited(site):
                    page.goto(base_url + path.relative_to(site).as_posix())
                    page.wait_for_load_state("load")
                context.close()
    assert fired == []
    assert foreign == []


# --- the new vectors' own outputs ---------------------------------------------------------------

INVISIBLE = {c for v in VECTORS for c in v if first_invisible(c) is not None}


def _text_of(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def test_no_invisible_character_reaches_a_page_unshown(
    hostile_sites: list[tuple[Path, Hostile]], clean_site: Path
) -> None:
    """An invisible or direction-changing character a record holds is shown as its code point
    ([U+202E]) on every page; a page holds no more of them than the clean site's page does."""
    assert len(INVISIBLE) >= 10
    for site, _ in hostile_sites:
        for path in sorted(site.rglob("*.html")):
            held = INVISIBLE & set(_text_of(path))
            clean = clean_site / path.relative_to(site)
            allowed = INVISIBLE & set(_text_of(clean)) if clean.is_file() else set()
            assert held <= allowed, (
                path.relative_to(site).as_posix(),
                sorted(map(hex, map(ord, held))),
            )


def test_no_vector_starts_a_formula_in_a_csv_download(
    hostile_sites: list[tuple[Path, Hostile]],
) -> None:
    formula = re.compile(r"^[\s\u00a0\u3000]*[=+\-@\uff1d\uff0b\uff0d\uff20]")
    number = re.compile(r"^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")
    checked = 0
    for site, _ in hostile_sites:
        for path in sorted(site.rglob("*.csv")):
            for row in csv.reader(io.StringIO(_text_of(path))):
                for cell in row:
                    checked += 1
                    if number.match(cell):
                        continue
                    assert not formula.match(cell) and not cell.startswith(("\t", "\r", "\n")), (
                        path.name,
                        cell[:60],
                    )
    assert checked > 1000


def test_a_markdown_download_holds_no_tag_and_no_link_from_plain_text(
    hostile_sites: list[tuple[Path, Hostile]],
) -> None:
    """Read as a Markdown tool reads it, without the site's sanitizer, a checklist download
    holds no element a vector made, and its title (a provider's name, plain text) no link."""
    import markdown

    for site, _ in hostile_sites:
        downloads = sorted((site / "downloads").rglob("*.md"))
        assert downloads
        for path in downloads:
            rendered = markdown.markdown(_text_of(path))
            parser = _Active()
            parser.feed(rendered)
            assert parser.found == [], (path.name, parser.found)
            for tag in ("<script", "<img", "<svg", "<iframe", "<style"):
                assert tag not in rendered.lower(), (path.name, tag)
            title = rendered.split("</h1>", 1)[0]
            assert "<a " not in title, path.name
