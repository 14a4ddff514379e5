"""A result's systems and measurements agree."""

from __future__ import annotations

from generator.checks.rules.context import Context
from generator.checks.schema import suggest
from generator.derive.caveats.rules import RULES
from generator.load.document import Path_
from generator.model.validation import Validation


def check_systems(ctx: Context, validation: Validation) -> None:
    """Each result names a system of the record, once per benchmark; and the documents the
    caveat rules for systems cite are there to be cited."""
    if validation.systems:
        sources = ctx.present.get("sources", set())
        served = any(m.scenario for m in validation.measurements) or any(
            r.scenario for r in validation.invalid
        )
        for rule_id, rule in RULES.items():
            if rule.served not in (None, served):
                continue  # the rule cannot fire on this kind of result
            if rule.cites is not None and rule.cites not in sources:
                ctx.report(
                    "validations",
                    validation.id,
                    ("systems",),
                    f"expected content/sources/{rule.cites}.yaml, which caveat rule "
                    f"{rule_id} cites for results on described systems, found none",
                )
    keys: set[str] = set()
    for index, system in enumerate(validation.systems):
        if system.key in keys:
            ctx.report(
                "validations",
                validation.id,
                ("systems", index, "key"),
                f"expected unique system keys, found {system.key!r} twice",
            )
        keys.add(system.key)
    seen: set[tuple[str, str, str | None, str | None]] = set()
    results: list[tuple[Path_, str | None, str | None, str | None, str | None]] = []
    for i, m in enumerate(validation.measurements):
        results.append((("measurements", i), m.system, m.benchmark, m.scenario, m.model_run))
    for i, r in enumerate(validation.invalid):
        results.append((("invalid", i), r.system, r.benchmark, r.scenario, None))
    for loc, system_key, benchmark, scenario, model_run in results:
        if system_key is not None and system_key not in keys:
            ctx.report(
                "validations",
                validation.id,
                (*loc, "system"),
                f"expected the key of one of this record's systems "
                f"({', '.join(sorted(keys)) or 'none'}), found {system_key!r}"
                + suggest(system_key, sorted(keys)),
            )
        if system_key is not None and benchmark is not None:
            # An inference benchmark has a result per scenario, and in the open division per
            # model the submitter ran in its place.
            key = (system_key, benchmark, scenario, model_run)
            if key in seen:
                what = " ".join(part for part in (benchmark, scenario, model_run) if part)
                ctx.report(
                    "validations",
                    validation.id,
                    (*loc, "benchmark"),
                    f"expected one result per system and benchmark, found {what!r} on "
                    f"{system_key!r} twice",
                )
            seen.add(key)
