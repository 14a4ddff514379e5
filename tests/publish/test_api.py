"""The API, the feeds and the calendar, read as a script, a linter and a subscriber's tools read
them: every JSON document against the schema the site publishes for it, the OpenAPI description
through openapi-spec-validator, the feeds through feedparser, the calendar through icalendar."""

from __future__ import annotations

import copy
import csv
import dataclasses
import io
import json
import posixpath
from datetime import date
from pathlib import Path

import feedparser
import icalendar
import jsonschema
import pytest
from conftest import CHARTS, ROOT, variants
from openapi_spec_validator import validate as validate_openapi

from generator.derive import validity
from generator.model.options import Options
from generator.model.policy import Policy
from generator.model.site import Site
from generator.model.validation import Dating
from generator.pipeline.run import site_output
from generator.publish import api
from generator.render.output import Output
from generator.render.reuse import Reuse

POLICY = Policy(date(2026, 12, 2))
API = "api/v1"


@pytest.fixture(scope="module")
def site(real_site: Site) -> Site:
    return real_site


@pytest.fixture(scope="module")
def output(real_output: Output) -> Output:
    return real_output


def document(output: Output, path: str) -> dict:  # type: ignore[type-arg]
    return json.loads(output.data[path])  # type: ignore[no-any-return]


def documents_by_schema(output: Output) -> dict[str, list[str]]:
    """Every JSON document the index names, grouped by the schema it names for it."""
    index = document(output, f"{API}/index.json")
    templates = {kind["document"]: kind["ids"] for kind in index["records"].values()}
    found: dict[str, list[str]] = {}
    for endpoint in index["endpoints"]:
        if endpoint["schema"] is None:
            continue
        path = endpoint["path"]
        paths = [path.replace("{id}", i) for i in templates[path]] if "{id}" in path else [path]
        found.setdefault(endpoint["schema"], []).extend(paths)
    return found


@pytest.mark.slow
def test_every_api_document_validates_against_its_published_schema(output: Output) -> None:
    by_schema = documents_by_schema(output)
    checked = set()
    for schema_path, paths in by_schema.items():
        schema = document(output, schema_path)
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        for path in paths:
            validator.validate(document(output, path))
            checked.add(path)
    # No document escapes the index: every JSON file of the API but its schemas and its OpenAPI
    # description is one the index names and a schema checks.
    served = {
        p
        for p in output.data
        if p.startswith(f"{API}/") and not p.startswith(f"{API}/schemas/")
        if p != f"{API}/openapi.json"
    }
    assert checked == served
    assert len(checked) > 100


def test_a_document_that_breaks_its_shape_fails_its_schema(output: Output, site: Site) -> None:
    validation = next(iter(site.validations))
    path = f"{API}/validations/{validation}.json"
    schema = document(output, f"{API}/schemas/validations-item.schema.json")
    broken = document(output, path)
    del broken["as_of"]
    with pytest.raises(jsonschema.ValidationError, match="as_of"):
        jsonschema.validate(broken, schema)
    wrong = document(output, path)
    wrong["record"]["provider"] = 7
    with pytest.raises(jsonschema.ValidationError, match="7 is not of type 'string'"):
        jsonschema.validate(wrong, schema)


def test_the_openapi_description_lints_clean_and_names_every_endpoint(output: Output) -> None:
    description = document(output, f"{API}/openapi.json")
    validate_openapi(description)
    index = document(output, f"{API}/index.json")
    assert set(description["paths"]) == {"/" + e["path"] for e in index["endpoints"]}
    # Each JSON response names a component schema, and every component it names exists.
    names = set(description["components"]["schemas"])
    for item in description["paths"].values():
        for content in item["get"]["responses"]["200"]["content"].values():
            if "schema" in content:
                assert content["schema"]["$ref"].rsplit("/", 1)[1] in names


def test_every_document_carries_version_date_and_sources(output: Output, site: Site) -> None:
    for paths in documents_by_schema(output).values():
        for path in paths:
            found = document(output, path)
            assert found["version"] == 1
            assert found["as_of"] == "2026-12-02"
            assert all(source["id"] in site.sources for source in found["sources"])
    crusoe = document(output, f"{API}/validations/crusoe-hgx-b300-exemplar.json")
    assert {"crusoe-b300-announcement", "crusoe-b300-analysis"} <= {
        source["id"] for source in crusoe["sources"]
    }


def test_record_and_derived_stay_apart(output: Output, site: Site) -> None:
    """No derived key shares a name with a record's field, in any kind's documents."""
    for paths in documents_by_schema(output).values():
        for path in paths:
            found = document(output, path)
            if "record" in found:
                assert not set(found["record"]) & set(found["derived"]), path
    for validation_id, validation in site.validations.items():
        found = document(output, f"{API}/validations/{validation_id}.json")
        assert found["record"] == validation.model_dump(mode="json")
        assert not set(found["record"]) & set(found["derived"])
        evidence = {
            answer["question"]: answer["answer"] for answer in found["derived"]["evidence_answers"]
        }
        applies = {
            q.id: q.programs is None or validation.program in q.programs
            for q in site.questions.values()
        }
        assert evidence == {
            q: "not-applicable"
            if not applies[q]
            else (validation.evidence[q].answer if q in validation.evidence else "unanswered")
            for q in site.questions
        }
    # The margin above a threshold means nothing where the program has none.
    mlperf = document(output, f"{API}/validations/lambda-nvidia-gb300-mlperf-training-v5-1.json")
    margin = [
        a for a in mlperf["derived"]["evidence_answers"] if a["question"] == "margin-computable"
    ]
    assert margin[0]["answer"] == "not-applicable"


def test_a_provider_and_a_program_carry_their_results(output: Output, site: Site) -> None:
    measurements = document(output, f"{API}/measurements.json")["measurements"]
    lambda_doc = document(output, f"{API}/providers/lambda.json")
    results = lambda_doc["derived"]["results"]
    assert {r["id"] for r in results} == {
        v.id for v in site.validations.values() if v.provider == "lambda"
    }
    assert [r["measurements"] for r in results] == [
        [row for row in measurements if row["validation"] == r["id"]] for r in results
    ]
    assert sum(len(r["measurements"]) for r in results) > 0
    cited = {s["id"] for s in lambda_doc["sources"]}
    assert {row["source"] for r in results for row in r["measurements"]} <= cited
    program = document(output, f"{API}/programs/nvidia-exemplar-cloud.json")
    assert set(program["derived"]["suites"]) == {
        s.id for s in site.suites.values() if s.program == "nvidia-exemplar-cloud"
    }
    b300 = document(output, f"{API}/platforms/hgx-b300.json")
    assert [r["id"] for r in b300["derived"]["results"]] == ["crusoe-hgx-b300-exemplar"]


def test_each_checklist_csv_reads_back_as_its_api_rows(output: Output, site: Site) -> None:
    compared = 0
    for validation_id in site.validations:
        found = document(output, f"{API}/validations/{validation_id}.json")
        for checklist, checks in found["derived"]["open_checks"].items():
            text = output.data[f"downloads/{validation_id}/{checklist}.csv"].decode()
            rows = list(csv.DictReader(io.StringIO(text)))
            assert [(r["validation"], r["item"], r["check"], r["open_because"]) for r in rows] == [
                (validation_id, c["item"], c["check"], c["open_because"]) for c in checks
            ]
            compared += len(rows)
    assert compared > len(site.validations)


def test_every_feed_parses_and_links_to_a_page(output: Output, site: Site) -> None:
    paths = [
        "feeds/validations.atom",
        "feeds/changelog.atom",
        *(f"feeds/providers/{p}.atom" for p in site.providers),
    ]
    assert {p for p in output.data if p.endswith(".atom")} == set(paths)
    pages = {uri.removesuffix(".md") + "/" for uri in output.pages}
    for path in paths:
        parsed = feedparser.parse(output.data[path])
        assert not parsed.bozo, (path, parsed.get("bozo_exception"))
        ids = [entry.id for entry in parsed.entries]
        assert len(ids) == len(set(ids))
        for entry in parsed.entries:
            target = posixpath.normpath(posixpath.join(posixpath.dirname(path), entry.link))
            assert target + "/" in pages, entry.link
    everything = feedparser.parse(output.data["feeds/validations.atom"])
    # One "new" entry per validation, and one "reviewed" entry per dated one reviewed since.
    reviewed = [
        v for v in site.validations.values() if v.announced and v.last_reviewed > v.announced
    ]
    assert len(everything.entries) == len(site.validations) + len(reviewed)
    lambda_feed = feedparser.parse(output.data["feeds/providers/lambda.atom"])
    assert {e.id.split(":")[3] for e in lambda_feed.entries} == {
        v.id for v in site.validations.values() if v.provider == "lambda"
    }


def _with_dated_exemplar(site: Site) -> Site:
    """The real content with Crusoe's B300 result dated, so its 12-month validity has an end."""
    validations = dict(site.validations)
    crusoe = validations["crusoe-hgx-b300-exemplar"]
    dating = Dating(
        source="crusoe-b300-announcement", grade="provider-reported", basis="publication"
    )
    validations[crusoe.id] = crusoe.model_copy(
        update={"announced": date(2026, 1, 15), "dating": dating, "last_reviewed": date(2026, 2, 1)}
    )
    return dataclasses.replace(site, validations=validations)


def _entries(site: Site, as_of: date) -> dict[str, tuple[str, str]]:
    policy = Policy(as_of)
    rendered = site_output(site, Options(ROOT / "templates", policy))
    parsed = feedparser.parse(rendered.data["feeds/providers/crusoe.atom"])
    assert not parsed.bozo
    return {entry.id: (entry.updated, entry.title) for entry in parsed.entries}


@pytest.mark.slow
def test_feed_entries_keep_their_ids_and_dates_as_the_build_date_moves(site: Site) -> None:
    dated = _with_dated_exemplar(site)
    urn = "urn:cloudqual:validation:crusoe-hgx-b300-exemplar"
    before = _entries(dated, date(2026, 9, 1))  # validity ends 2027-01-15
    warned = _entries(dated, date(2026, 11, 1))
    ended = _entries(dated, date(2027, 2, 1))
    assert f"{urn}:new" in before and f"{urn}:reviewed:2026-02-01" in before
    assert f"{urn}:expiring:2027-01-15" not in before
    assert set(warned) - set(before) == {f"{urn}:expiring:2027-01-15"}
    assert set(ended) - set(warned) == {f"{urn}:expired:2027-01-15"}
    # An entry a reader has seen comes back with the same date and title in every later build.
    assert all(warned[key] == value for key, value in before.items())
    assert all(ended[key] == value for key, value in warned.items())
    assert warned[f"{urn}:expiring:2027-01-15"][0].startswith("2026-10-17")  # 90 days before


@pytest.mark.slow
def test_the_calendar_holds_each_validity_end_and_review_date(site: Site) -> None:
    dated = _with_dated_exemplar(site)
    rendered = site_output(dated, Options(ROOT / "templates", POLICY))
    calendar = icalendar.Calendar.from_ical(rendered.data["feeds/calendar.ics"])
    events = {str(e["uid"]): e for e in calendar.walk("VEVENT")}
    assert len(events) == len(calendar.walk("VEVENT"))
    ends = {
        v.id: validity.validity_end(v, dated.programs[v.program])
        for v in dated.validations.values()
    }
    expected = {f"review-due-{v}@cloudqual" for v in dated.validations} | {
        f"validity-end-{v}@cloudqual" for v, end in ends.items() if end is not None
    }
    assert set(events) == expected
    end = events["validity-end-crusoe-hgx-b300-exemplar@cloudqual"]
    assert end.decoded("dtstart") == date(2027, 1, 15)
    assert "url" not in end  # a relative address means nothing to a calendar application
    review = events["review-due-crusoe-hgx-b300-exemplar@cloudqual"]
    assert review.decoded("dtstart") == date(2027, 2, 1)


@pytest.mark.slow
def test_same_content_and_date_give_the_same_bytes(site: Site, output: Output) -> None:
    again = site_output(copy.deepcopy(site), Options(ROOT / "templates", POLICY))
    data = {p: b for p, b in output.data.items() if p.startswith(("api/", "feeds/"))}
    assert data == {p: b for p, b in again.data.items() if p.startswith(("api/", "feeds/"))}
    # Nothing of the build's clock: the only dates are the content's and the policy's.
    assert b"2026-12-02" in data[f"{API}/index.json"]


# Four renders of the whole site each: make check runs the published address, the nightly both.
@pytest.mark.parametrize(
    "site_url", variants(["https://site.test/q/"], [None, "https://site.test/q/"])
)
def test_the_quoted_data_files_are_the_build_s_own(site: Site, site_url: str | None) -> None:
    """A single build renders its pages from the data files the data page quotes, made alone,
    and makes the others while MkDocs writes the pages: the quoted ones are the same bytes, and
    so is every page."""
    from generator.derive.site_facts import derive_site
    from generator.publish.data_files import build_data, quoted_data

    facts = derive_site(site, POLICY)
    whole = build_data(site, facts, directory_urls=True, site_url=site_url)
    quoted = quoted_data(site, facts, directory_urls=True, site_url=site_url)
    assert len(quoted) == 6 and quoted.items() <= whole.items()
    assert [e.path for e in api.examples(site, quoted)] == list(quoted)
    options = Options(ROOT / "templates", POLICY, site_url=site_url)
    now = site_output(site, options, reuse=Reuse(svg=CHARTS))
    later = site_output(site, options, reuse=Reuse(svg=CHARTS), later=True)
    assert later.pages == now.pages and later.data != now.data
    later.complete()
    assert later.data == now.data


@pytest.mark.slow
def test_absolute_links_under_the_published_address(site: Site) -> None:
    rendered = site_output(
        site, Options(ROOT / "templates", POLICY, site_url="https://site.test/q/")
    )
    parsed = feedparser.parse(rendered.data["feeds/validations.atom"])
    assert all(e.link.startswith("https://site.test/q/validations/") for e in parsed.entries)
    assert parsed.feed.links[0].href == "https://site.test/q/feeds/validations.atom"
    calendar = icalendar.Calendar.from_ical(rendered.data["feeds/calendar.ics"])
    urls = {str(event["url"]) for event in calendar.walk("VEVENT")}
    assert urls == {f"https://site.test/q/validations/{v}/" for v in site.validations}


def test_the_data_page_lists_every_endpoint(output: Output) -> None:
    page = output.pages["data.md"].markdown
    for endpoint in document(output, f"{API}/index.json")["endpoints"]:
        assert f"<code>{endpoint['path']}</code>" in page
    assert 'curl -s "$SITE/api/v1/index.json"' in page
    assert "Apache License 2.0" in page


def test_feeds_are_announced_in_the_head(built: Path) -> None:
    home = (built / "index.html").read_text()
    assert (
        '<link rel="alternate feed" type="application/atom+xml" title="cloudqual: validations" '
        'href="feeds/validations.atom">' in home
    )
    provider = (built / "providers" / "lambda" / "index.html").read_text()
    assert 'href="../../feeds/providers/lambda.atom"' in provider
    assert (built / "feeds" / "providers" / "lambda.atom").is_file()
    assert (
        "application/atom+xml"
        not in (built / "data" / "index.html").read_text().split("</head>")[0]
    )
