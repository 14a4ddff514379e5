"""One number format, every digit kept: pages group thousands ("1,042,980.5 Tokens/s"), data
files write the number alone ("1042980.5"), and neither rounds what the source published nor
writes it in exponent notation (Python's `g` format wrote 1,042,980.5 as "1.04298e+06")."""

from __future__ import annotations

import json
import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.derive.provenance import value_words
from generator.english import number
from generator.model.site import Site
from generator.render.output import Output

# A number in exponent notation, as "1.04298e+06"; not a name that holds one, as "tpu-v5e-4".
EXPONENT = re.compile(r"(?<![\w.-])\d+(?:\.\d+)?e[+-]\d", re.IGNORECASE)


@pytest.mark.parametrize(
    ("value", "shown", "data"),
    [
        (5.0, "5", "5"),
        (102725.0, "102,725", "102725"),
        (1042980.5, "1,042,980.5", "1042980.5"),
        (41.6143, "41.6143", "41.6143"),
        (90.21494616303566, "90.21494616303566", "90.21494616303566"),
        (1e-7, "0.0000001", "0.0000001"),
        (-3.5, "-3.5", "-3.5"),
    ],
)
def test_a_number_is_written_whole(value: float, shown: str, data: str) -> None:
    assert number(value) == shown
    assert number(value, grouped=False) == data


def test_a_number_that_is_not_finite_is_named_not_a_crash() -> None:
    assert [number(v) for v in (math.inf, -math.inf, math.nan)] == ["inf", "-inf", "nan"]


def test_minutes_keep_two_decimals_and_other_units_every_digit() -> None:
    assert value_words(1234.5, "min") == "1,234.50 min"
    assert value_words(1042980.5, "Tokens/s") == "1,042,980.5 Tokens/s"


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e18, max_value=1e18))
def test_every_float_reads_back_as_itself(value: float) -> None:
    for grouped in (True, False):
        text = number(value, grouped=grouped)
        assert not EXPONENT.search(text)
        assert math.isclose(float(text.replace(",", "")), value, rel_tol=0, abs_tol=0)


def test_no_page_or_data_file_writes_a_figure_in_exponent_notation(
    real_site: Site, real_output: Output
) -> None:
    largest = max(
        (m for v in real_site.validations.values() for m in v.measurements),
        key=lambda m: m.value,
    )
    assert largest.value > 1_000_000  # the real content has figures past a million
    pages = [page.markdown for page in real_output.pages.values()]
    assert not [text for text in pages if EXPONENT.search(re.sub(r"<[^>]*>", " ", text))]
    assert any(value_words(largest.value, largest.unit) in text for text in pages)
    rows = json.loads(real_output.data["api/v1/measurements.json"])
    reported = [
        row["accuracy_reported"] for row in rows["measurements"] if row.get("accuracy_reported")
    ]
    assert reported and not [text for text in reported if EXPONENT.search(text)]
