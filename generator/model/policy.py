"""The build's policy: the date it judges on, and how near a validity end or how old a review has
to be to be flagged.

A module of its own, below everything else: the plugin's options and the command's flags take
their defaults from here without importing the derived facts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime

# Flag a result this many days before its validity ends.
EXPIRY_WARNING_DAYS = 90
# Flag a record whose last review is older than this many days.
REVIEW_MAX_AGE_DAYS = 365
# Where the plugin and `cloudqual build` read the as-of date when the config sets none.
AS_OF_VARIABLE = "CLOUDQUAL_AS_OF"


def parse_as_of(value: object) -> date | None:
    """A date as YYYY-MM-DD, from mkdocs.yml (YAML may already have made it a date) or from the
    environment. Surrounding quotes and spaces are dropped, as a shell user would expect."""
    if value is None or (isinstance(value, date) and not isinstance(value, datetime)):
        return value
    if isinstance(value, str):
        text = value.strip().strip("\"'").strip()
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            try:
                return date.fromisoformat(text)
            except ValueError:
                pass
    raise ValueError(f"expected a date as YYYY-MM-DD, found {value!r}")


@dataclass(frozen=True)
class Policy:
    """When the site is built, and how near an end or how old a review has to be to be flagged."""

    as_of: date
    expiry_warning_days: int = EXPIRY_WARNING_DAYS
    review_max_age_days: int = REVIEW_MAX_AGE_DAYS
