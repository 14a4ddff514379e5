"""When a result stops being valid, and when its record's review falls due: each under a
`Policy`, whose `as_of` date stands for today so that a build is the same whenever it runs."""

from __future__ import annotations

import calendar
from datetime import date, timedelta
from typing import Literal

from generator.model.policy import Policy
from generator.model.programs import Program
from generator.model.validation import Validation


def add_months(start: date, months: int) -> date:
    """`start` moved on by whole months, clamped to the end of a shorter month."""
    month_index = start.month - 1 + months
    year, month = start.year + month_index // 12, month_index % 12 + 1
    return date(year, month, min(start.day, calendar.monthrange(year, month)[1]))


def validity_end(validation: Validation, program: Program) -> date | None:
    """When the result stops being valid; None when the date or the period is not stated."""
    if validation.announced is None or program.validity is None:
        return None
    return add_months(validation.announced, program.validity.months)


ValidityStatus = Literal["valid", "expiring", "expired", "unknown", "no-expiry"]


def validity_status(validation: Validation, program: Program, policy: Policy) -> ValidityStatus:
    """Where the result stands on `policy.as_of`: past, near or before its validity end."""
    if program.validity is None:
        return "no-expiry"
    end = validity_end(validation, program)
    if end is None:
        return "unknown"
    if end < policy.as_of:
        return "expired"
    if end <= policy.as_of + timedelta(days=policy.expiry_warning_days):
        return "expiring"
    return "valid"


def review_is_stale(validation: Validation, policy: Policy) -> bool:
    """True when the record's last review is older than the policy allows."""
    return (policy.as_of - validation.last_reviewed).days > policy.review_max_age_days


def review_due(validation: Validation, policy: Policy) -> date:
    """The last day the record's review is not yet stale: last reviewed plus the window."""
    return validation.last_reviewed + timedelta(days=policy.review_max_age_days)
