"""The build's policy: the date it judges on, and how near a validity end or how old a review has
to be to be flagged.

A module of its own, below everything else: the plugin's options and the command's flags take
their defaults from here without importing the derived facts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

# Flag a result this many days before its validity ends.
EXPIRY_WARNING_DAYS = 90
# Flag a record whose last review is older than this many days.
REVIEW_MAX_AGE_DAYS = 365


@dataclass(frozen=True)
class Policy:
    """When the site is built, and how near an end or how old a review has to be to be flagged."""

    as_of: date
    expiry_warning_days: int = EXPIRY_WARNING_DAYS
    review_max_age_days: int = REVIEW_MAX_AGE_DAYS
