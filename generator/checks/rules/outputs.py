"""No two records write to one path of the site."""

from __future__ import annotations

from generator.checks.rules.context import Context
from generator.model.links import RESERVED_IDS, SECTIONS, chip_name, chip_slug
from generator.model.providers import Platform
from generator.model.validation import Validation


def check_outputs(ctx: Context) -> None:
    """No two records name one output: a record may not take its section's own page, and two
    chips may not give one page name under workloads/ (a page is never renamed to make room,
    so a hostile record cannot move a real chip's page)."""
    for kind in SECTIONS:
        for record_id in sorted(ctx.records.get(kind, {})):
            if record_id in RESERVED_IDS:
                ctx.report(
                    kind,
                    record_id,
                    ("id",),
                    f"expected an id other than {record_id!r}, which is the {kind} "
                    "section's own page, found it",
                )
    named: dict[str, list[tuple[str, str, str]]] = {}  # slug -> (chip, kind, record id)
    for platform in ctx.records.get("platforms", {}).values():
        assert isinstance(platform, Platform)
        named.setdefault(chip_slug(platform.chip), []).append(
            (chip_name(platform.chip), "platforms", platform.id)
        )
    for validation in ctx.records.get("validations", {}).values():
        assert isinstance(validation, Validation)
        if validation.platform is None and validation.chip is not None:
            named.setdefault(chip_slug(validation.chip), []).append(
                (chip_name(validation.chip), "validations", validation.id)
            )
    for slug, holders in sorted(named.items()):
        for chip, kind, record_id in holders:
            if slug in ("", *RESERVED_IDS):
                why = "none" if not slug else f"workloads/{slug}, the section's own page"
                ctx.report(
                    kind,
                    record_id,
                    ("chip",),
                    f"expected a chip name that gives a page name under workloads/, found "
                    f"{chip!r}, which gives {why}",
                )
                continue
            others = sorted({(c, k, r) for c, k, r in holders if c != chip})
            if others:
                other, other_kind, other_id = others[0]
                document = ctx.documents[(other_kind, other_id)]
                at = document.position(("chip",))
                where = f"{document.path}:{at.line}:{at.column}"
                ctx.report(
                    kind,
                    record_id,
                    ("chip",),
                    f"expected a chip whose page name (workloads/{slug}) no other chip takes, "
                    f"found {chip!r}, whose page name is that of {other!r} ({where}): write "
                    "the chip as the other record does, or tell them apart",
                )
