"""The flat measurements table, as the API's measurements document and the CSV download both
publish it: one row per validation, system and benchmark."""

from __future__ import annotations

from typing import Any

from generator.english import number
from generator.model.measurements import Measurement
from generator.model.site import Site
from generator.model.validation import accelerator_noun
from generator.publish.documents import Row


def accuracy_reported(measurement: Measurement) -> str | None:
    """An open-division run's reported accuracy as one CSV cell: "ROUGE1 41.6143; ROUGE2 …;
    meets: …; misses: 99% of the FP32 reference"."""
    reported = measurement.accuracy
    if reported is None:
        return None
    parts = [f"{v.metric} {number(v.value, grouped=False)}" for v in reported.values]
    parts += [f"meets: {t}" for t in reported.meets]
    parts += [f"misses: {t}" for t in reported.misses]
    return "; ".join(parts)


def measurement_rows(site: Site) -> list[Row]:
    """One row per validation, system and benchmark: every measured value, unrounded, and every
    invalid result, with no value. Measurements without a system keep theirs empty."""
    rows = []
    for validation_id, v in site.validations.items():
        systems = {s.key: s for s in v.systems}
        noun = accelerator_noun(site.platforms.get(v.platform or ""), v)
        base: dict[str, Any] = {
            "validation": validation_id,
            "provider": v.provider,
            "submitter": v.submission.submitter if v.submission else None,
            "cloud": v.submission.cloud if v.submission else None,
            "program": v.program,
            "release": v.program_release,
            "announced": v.announced,
            "accelerator_noun": noun,
        }
        results: list[tuple[Any, dict[str, Any]]] = [
            (m, {"benchmark": m.benchmark, "metric": m.metric, "value": m.value, "unit": m.unit,
                 "valid": True,
                 "first_run": m.runs_started.first if m.runs_started else None,
                 "last_run": m.runs_started.last if m.runs_started else None,
                 "resubmitted_from": m.resubmitted.round if m.resubmitted else None,
                 "scenario": m.scenario, "accuracy_target": m.accuracy_target,
                 "accuracy_reported": accuracy_reported(m),
                 "model_run": m.model_run,
                 "reference_submitter": m.reference.submitter if m.reference else None,
                 "reference_value": m.reference.value if m.reference else None})
            for m in v.measurements
        ]  # fmt: skip
        results += [
            (r, {"benchmark": r.benchmark,
                 "metric": "throughput" if r.scenario else "time to train", "value": None,
                 "unit": "" if r.scenario else "min", "valid": False, "first_run": None,
                 "last_run": None, "resubmitted_from": None, "scenario": r.scenario})
            for r in v.invalid
        ]  # fmt: skip
        for result, fields in results:
            system = systems.get(result.system) if result.system else None
            count = system.accelerator_count if system else None
            rows.append(
                Row(
                    **base,
                    system=result.system,
                    division=system.division if system else None,
                    availability=system.status if system else None,
                    accelerator=system.accelerator if system else None,
                    accelerators=count,
                    gpus=count if noun == "GPU" else None,
                    **fields,
                    source=result.source,
                )
            )
    return rows
