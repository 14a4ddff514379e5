"""Feeds for subscribers: Atom feeds of validations, site-wide and per provider (feedgen), and an
iCalendar file of validity ends and review due dates (icalendar).

A reader must never see an old entry twice, so every id and date comes from the content alone:
ids are URNs of the validation and the event, and dates are the record's own (announced, last
reviewed, validity end), never the build's clock. Which entries a feed holds depends on the build's
`as_of` date: a validation enters the expiring and expired entries as that date passes. One entry
moves: a result no source dates is "new" as of its last review, so a later review re-dates it and
a reader sees it again, as the review it is.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

import icalendar
from feedgen.feed import FeedGenerator

from generator.changes.history import History
from generator.derive.validity import review_due
from generator.english import plural
from generator.model.links import page_url
from generator.model.validation import Validation
from generator.publish.api import FEEDS
from generator.publish.api_documents import Documents

NAME = "cloudqual"


@dataclass(frozen=True)
class Entry:
    """One event in a validation's life that a subscriber hears of."""

    id: str
    day: date
    title: str
    summary: str
    validation: Validation
    published: date | None = None


def _moment(day: date) -> datetime:
    return datetime.combine(day, time(0, 0), tzinfo=UTC)


def entries(builder: Documents, validation: Validation) -> list[Entry]:
    """A validation's entries: new, reviewed since it was announced, entering its expiry warning
    window, expired; each only once the build's date has reached it."""
    title = builder.titles[validation.id]
    derived = builder.derived[validation.id]
    policy = builder.policy
    urn = f"urn:{NAME}:validation:{validation.id}"
    found = []
    if validation.announced is not None:
        found.append(
            Entry(f"{urn}:new", validation.announced, f"New result: {title}", validation.summary,
                  validation, published=validation.announced)
        )  # fmt: skip
        if validation.last_reviewed > validation.announced:
            found.append(
                Entry(f"{urn}:reviewed:{validation.last_reviewed}", validation.last_reviewed,
                      f"Reviewed: {title}", f"Checked against its sources on "
                      f"{validation.last_reviewed}.", validation)
            )  # fmt: skip
    else:
        found.append(
            Entry(f"{urn}:new", validation.last_reviewed, f"New result: {title}",
                  f"{validation.summary} No source we hold states when it was announced; this "
                  f"entry is dated by the record's last review.", validation)
        )  # fmt: skip
    end = derived.validity_end
    if end is not None:
        warned = end - timedelta(days=policy.expiry_warning_days)
        if warned <= policy.as_of:
            found.append(
                Entry(f"{urn}:expiring:{end}", warned, f"Expiring on {end}: {title}",
                      f"Its validity ends on {end}, {policy.expiry_warning_days} days after "
                      "this entry.", validation)
            )  # fmt: skip
        if derived.validity_status == "expired":
            found.append(
                Entry(f"{urn}:expired:{end}", end, f"Expired on {end}: {title}",
                      f"Its validity ended on {end}.", validation)
            )  # fmt: skip
    return found


def _link(builder: Documents, validation: Validation, feed: str, site_url: str | None) -> str:
    """The validation's page: absolute under the site's address, else relative to the feed."""
    page = builder.page("validations", validation.id) or ""
    if site_url:
        return site_url.rstrip("/") + "/" + page
    relative = posixpath.relpath(page, posixpath.dirname(feed))
    return relative + "/" if page.endswith("/") else relative


def atom(
    builder: Documents,
    path: str,
    title: str,
    validations: list[Validation],
    site_url: str | None,
) -> bytes:
    """An Atom feed of the validations' entries, newest first."""
    found = sorted(
        (e for v in validations for e in entries(builder, v)),
        key=lambda e: (e.day, e.id),
        reverse=True,
    )
    feed = FeedGenerator()
    feed.id(f"urn:{NAME}:feed:{path}")
    feed.title(title)
    feed.author({"name": NAME})
    feed.language("en")
    feed.subtitle("New, reviewed, expiring and expired results, with their sources on each page.")
    if site_url:
        feed.link(href=site_url.rstrip("/") + "/" + path, rel="self")
    # An empty feed is as old as the build's date: nothing in it changed since.
    feed.updated(_moment(found[0].day if found else builder.policy.as_of))
    for entry in found:
        item = feed.add_entry(order="append")
        item.id(entry.id)
        item.title(entry.title)
        item.updated(_moment(entry.day))
        if entry.published is not None:
            item.published(_moment(entry.published))
        item.link(href=_link(builder, entry.validation, path, site_url), rel="alternate")
        item.summary(entry.summary)
    return feed.atom_str(pretty=True)  # type: ignore[no-any-return]


def calendar(builder: Documents, site_url: str | None) -> bytes:
    """An all-day event for each validity end that can be computed, and for each validation's
    review due date, each linking to its result."""
    cal = icalendar.Calendar()
    cal.add("prodid", f"-//{NAME}//validity ends and reviews//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", f"{NAME}: validity ends and reviews")
    for validation in builder.facts.validations:
        title = builder.titles[validation.id]
        page = builder.page("validations", validation.id) or ""
        # A calendar lives apart from the site, so only an absolute address means anything in it.
        url = site_url.rstrip("/") + "/" + page if site_url else None
        events = [("review-due", review_due(validation, builder.policy), f"Review due: {title}")]
        end = builder.derived[validation.id].validity_end
        if end is not None:
            events.insert(0, ("validity-end", end, f"Validity ends: {title}"))
        for kind, day, summary in events:
            event = icalendar.Event()
            event.add("uid", f"{kind}-{validation.id}@{NAME}")
            # The record's own date, not the build's clock: the same content gives the same file.
            event.add("dtstamp", _moment(validation.last_reviewed))
            event.add("dtstart", day)
            event.add("dtend", day + timedelta(days=1))
            event.add("summary", summary)
            if url is not None:
                event.add("url", url)
            event.add("description", f"{validation.summary}\n{url}" if url else validation.summary)
            cal.add_component(event)
    return bytes(cal.to_ical())


CHANGELOG = f"{FEEDS}/changelog.atom"


def changelog(builder: Documents, history: History | None, site_url: str | None) -> bytes:
    """An Atom feed of the changelog: an entry a day, linking to that day on the changelog page.
    A day's id and date are the day's own, so a later build re-issues no entry; a commit later
    on the same day updates that day's entry, as its content does."""
    feed = FeedGenerator()
    feed.id(f"urn:{NAME}:feed:{CHANGELOG}")
    feed.title(f"{NAME}: changelog")
    feed.author({"name": NAME})
    feed.language("en")
    feed.subtitle("What each day's changes to the records changed for a buyer.")
    if site_url:
        feed.link(href=site_url.rstrip("/") + "/" + CHANGELOG, rel="self")
    page = page_url("changelog.md", builder.directory_urls)
    days = history.days() if history is not None else []
    feed.updated(_moment(days[0][0] if days else builder.policy.as_of))
    for day, steps in days:
        changes = [change for step in steps for change in step.changes]
        results = sorted({change.title for change in changes})
        compared = [step for step in steps if step.base is not None]
        summary = (
            f"{plural('change', len(changes))} to {plural('result', len(results))} in "
            f"{plural('commit', len(steps))}" + (f": {', '.join(results)}." if results else ".")
        )
        if not compared:
            summary += " No commit of the day was compared with an earlier one."
        item = feed.add_entry(order="append")
        item.id(f"urn:{NAME}:changelog:{day.isoformat()}")
        item.title(f"Changes on {day.isoformat()}")
        item.updated(_moment(day))
        target = f"{page}#{day.isoformat()}"
        if site_url:
            href = site_url.rstrip("/") + "/" + target
        else:
            href = posixpath.relpath(page or ".", posixpath.dirname(CHANGELOG))
            href = (href + "/" if page.endswith("/") else href) + f"#{day.isoformat()}"
        item.link(href=href, rel="alternate")
        item.summary(summary)
    return feed.atom_str(pretty=True)  # type: ignore[no-any-return]


SITE_FEED = f"{FEEDS}/validations.atom"
CALENDAR = f"{FEEDS}/calendar.ics"


def build_feeds(builder: Documents, site_url: str | None) -> dict[str, bytes]:
    """The site-wide feed, one feed per provider, and the calendar, by path."""
    files = {SITE_FEED: site_feed(builder, site_url)}
    for provider in builder.site.providers.values():
        path = f"{FEEDS}/providers/{provider.id}.atom"
        own = builder.facts.by_provider[provider.id]
        files[path] = atom(builder, path, f"{NAME}: {provider.name}", own, site_url)
    files[CALENDAR] = calendar(builder, site_url)
    return files


def site_feed(builder: Documents, site_url: str | None) -> bytes:
    """The feed of every validation."""
    validations = builder.facts.validations
    return atom(builder, SITE_FEED, f"{NAME}: validations", validations, site_url)
