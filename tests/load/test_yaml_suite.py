"""YAML's own conformance suite through the loader: every case loads with the suite's value, or is
refused with a position, and none raises.

The cases are yaml-test-suite's (see tests/fixtures/yaml-test-suite/README.md). Refusing what the
project forbids by design (a top level that is not a mapping, anchors, aliases, tags, several
documents, complex or null keys, unpublishable characters, infinite numbers, other YAML versions)
counts as refused. What ruamel gets wrong is listed below with its reason; an entry that stops
failing fails the test, so the lists only ever shrink.

Run this file as a script to print how many cases load, are refused, and are listed.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from generator.load.reader import load_text

FIXTURE = Path(__file__).parents[1] / "fixtures" / "yaml-test-suite" / "cases.json"
CASES: dict[str, dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))

# The loader's refusals of things content may not use, whatever YAML allows.
BY_DESIGN = re.compile(
    r"expected a mapping of fields|anchors and aliases are not allowed|tags are not allowed"
    r"|expected one YAML document per file|found a complex key|expected a text key"
    r"|expected printable text|expected a finite number|expected YAML 1.2, found a %YAML"
)

# Valid YAML the loader reads with another value than the suite's, or invalid YAML it reads.
# Empty: every such case found so far is fixed or refused in generator/load/.
KNOWN_WRONG: dict[str, str] = {}

_TAB = "ruamel 0.19 does not take a tab for white space here, though YAML 1.2 does"
_FLOW_KEY = "ruamel 0.19 needs a flow mapping's ':' on its key's line (a simple key is one line)"
_MORE_INDENTED = (
    "ruamel 0.19 refuses a block scalar's leading empty lines indented more than its first line"
)
_BARE_END = "ruamel 0.19 expects a document before a '...' that ends no document"
# Valid YAML that ruamel cannot parse, refused with its position; listed so that a ruamel upgrade
# that reads one shows here, and the case then has to load with the suite's value.
REFUSED_BY_PARSER: dict[str, str] = {
    "4ABK": "ruamel 0.19 reads 'omitted value:,' in a flow mapping as the text 'omitted value:', "
    "where YAML 1.2 reads a key and an empty value; the loader refuses rather than misreads",
    "4MUZ/00": _FLOW_KEY,
    "4MUZ/01": _FLOW_KEY,
    "4MUZ/02": _FLOW_KEY,
    "4QFQ": _MORE_INDENTED,
    "5MUD": _FLOW_KEY,
    "6BCT": _TAB,
    "6CA3": _TAB,
    "9MMW": "ruamel 0.19 reads no implicit key with ':' right after a quoted key in a flow list",
    "9SA2": _FLOW_KEY,
    "A2M4": _TAB,
    "CFD4": "ruamel 0.19 reads no empty implicit key in a flow list, as in '[ : value ]'",
    "DC7X": _TAB,
    "DK95/00": _TAB,
    "DK95/03": _TAB,
    "DK95/04": _TAB,
    "DK95/05": _TAB,
    "DK95/07": _TAB,
    "DWX9": _MORE_INDENTED,
    "HS5T": _TAB,
    "HWV9": _BARE_END,
    "J3BT": _TAB,
    "K3WX": _FLOW_KEY,
    "K54U": _TAB,
    "NB6Z": _TAB,
    "NJ66": _FLOW_KEY,
    "Q5MG": _TAB,
    "QT73": _BARE_END,
    "R4YG": _MORE_INDENTED,
    "T26H": _MORE_INDENTED,
    "UT92": _FLOW_KEY,
    "UV7Q": _TAB,
    "VJP3/01": _FLOW_KEY,
    "Y79Y/010": _TAB,
}


def same(loaded: Any, expected: Any) -> bool:
    """Equal as the suite means it: types kept apart (true is not 1), a date is its YYYY-MM-DD
    text (the project's extension of the core schema), and an integer equals its float."""
    if isinstance(loaded, date):
        return expected == loaded.isoformat()
    if isinstance(loaded, bool) or isinstance(expected, bool):
        return type(loaded) is type(expected) and loaded == expected
    if isinstance(loaded, int | float) and isinstance(expected, int | float):
        return loaded == expected
    if isinstance(loaded, dict):
        return (
            isinstance(expected, dict)
            and loaded.keys() == expected.keys()
            and all(same(loaded[key], expected[key]) for key in loaded)
        )
    if isinstance(loaded, list):
        return (
            isinstance(expected, list)
            and len(loaded) == len(expected)
            and all(map(same, loaded, expected))
        )
    return type(loaded) is type(expected) and loaded == expected


_CORE_SCHEMA = [
    (re.compile(r"null|Null|NULL|~|"), lambda text: None),
    (re.compile(r"true|True|TRUE"), lambda text: True),
    (re.compile(r"false|False|FALSE"), lambda text: False),
    (re.compile(r"[-+]?[0-9]+"), int),
    (re.compile(r"0o[0-7]+"), lambda text: int(text[2:], 8)),
    (re.compile(r"0x[0-9a-fA-F]+"), lambda text: int(text[2:], 16)),
    (re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?"), float),
]


def from_events(events: str) -> list[Any]:
    """The documents a `test.event` listing describes, for cases the suite gives no JSON for.

    Plain scalars resolve by the YAML 1.2 core schema, written out here apart from the loader's.
    """
    documents: list[Any] = []
    stack: list[list[Any]] = []
    for line in events.splitlines():
        word, _, rest = line.partition(" ")
        if word in ("+MAP", "+SEQ"):
            stack.append([word])
            continue
        if word in ("-MAP", "-SEQ"):
            kind, *items = stack.pop()
            value: Any = (
                dict(zip(items[::2], items[1::2], strict=True)) if kind == "+MAP" else items
            )
        elif word == "=VAL":
            while rest[0] in "&<":  # an anchor or a tag before the value
                rest = rest.split(" ", 1)[1]
            text = re.sub(
                r"\\(.)", lambda escape: {"n": "\n", "t": "\t"}.get(escape[1], escape[1]), rest[1:]
            )
            value = text
            if rest[0] == ":":
                for pattern, convert in _CORE_SCHEMA:
                    if pattern.fullmatch(text):
                        value = convert(text)
                        break
        else:
            continue
        if stack:
            stack[-1].append(value)
        else:
            documents.append(value)
    return documents


def expected_documents(case: dict[str, Any]) -> list[Any]:
    if case["json"] is not None:
        return list(case["json"])
    return from_events(case["events"])


def outcome(case_id: str) -> tuple[str, str]:
    """How the loader reads one case: "loaded", "refused", "by design" or "wrong", and why."""
    case = CASES[case_id]
    document, problems = load_text("in.yaml", case["yaml"].encode("utf-8"))
    if document is None:
        lines = case["yaml"].count("\n") + 2
        for problem in problems:
            assert problem.path == "in.yaml"
            assert 1 <= problem.position.line <= lines and problem.position.column >= 1, problem
        assert problems, "refused without a problem"
        if not case["error"] and not any(BY_DESIGN.search(p.message) for p in problems):
            return "refused", str(problems[0])
        return ("refused" if case["error"] else "by design"), str(problems[0])
    if case["error"]:
        return "wrong", "loaded a document the suite marks invalid"
    try:
        expected = expected_documents(case)
    except (TypeError, ValueError) as error:  # keys that are lists or mappings
        return "wrong", f"loaded a document the suite's events give no Python value for: {error}"
    if len(expected) == 1 and same(document.value, expected[0]):
        return "loaded", ""
    return "wrong", f"loaded {document.value!r}, the suite says {expected!r}"


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_case_loads_with_the_suites_value_or_is_refused(case_id: str) -> None:
    kind, detail = outcome(case_id)
    if case_id in KNOWN_WRONG:
        assert kind == "wrong", f"{case_id} now reads right: remove it from KNOWN_WRONG"
        return
    assert kind != "wrong", f"{case_id} ({CASES[case_id]['name']}): {detail}"
    valid_but_refused = kind == "refused" and not CASES[case_id]["error"]
    if case_id in REFUSED_BY_PARSER:
        assert valid_but_refused, f"{case_id} is now {kind}: remove it from REFUSED_BY_PARSER"
    else:
        assert not valid_but_refused, (
            f"{case_id} ({CASES[case_id]['name']}) is valid YAML, refused by no project rule: "
            f"{detail}"
        )


def test_fixture_holds_the_whole_suite() -> None:
    assert len(CASES) == 402
    assert sum(case["error"] for case in CASES.values()) == 94
    assert set(KNOWN_WRONG) <= set(CASES) and set(REFUSED_BY_PARSER) <= set(CASES)


if __name__ == "__main__":
    tally = Counter(outcome(case_id)[0] for case_id in CASES)
    print(
        f"{len(CASES)} cases: {tally['loaded']} loaded with the suite's value, "
        f"{tally['refused'] + tally['by design']} refused ({tally['by design']} valid ones by "
        f"design, {len(REFUSED_BY_PARSER)} valid ones ruamel cannot parse, "
        f"{tally['refused'] - len(REFUSED_BY_PARSER)} invalid ones), {tally['wrong']} wrong"
    )
