"""What the training import maps (its schema: model/imports.py `TrainingMapping`): each round's
repository, commit and publication date, each submitter's provider and whose cloud its results
ran on, each accelerator's platform, each benchmark's name, and what a submitter says of its
deployment.

A submitter or accelerator the mapping lacks stops the import: a result is never given to a
provider, or grouped under a platform, by guess.
"""

from __future__ import annotations

from pathlib import Path

from generator.checks.loader import IMPORTS_FOLDER
from generator.importers.core import mapping as shared
from generator.importers.mlperf.rounds import Round
from generator.model.imports import TrainingMapping
from generator.problems import Position, Problem

PROGRAM = "mlperf-training"
MAPPING = f"{IMPORTS_FOLDER}/{PROGRAM}.yaml"


def read_mapping(content: Path) -> TrainingMapping:
    return shared.read_model(content, TrainingMapping, MAPPING)


def mapping_problems(
    reading: Round, mapping: TrainingMapping, shown: str, round_name: str
) -> list[Problem]:
    """Submitters and accelerators the mapping lacks: named, never guessed; and excerpts and
    statements named of result folders or systems the round does not hold, which would mark
    nothing."""
    held = {scored.folder for scored in (*reading.scores, *reading.references)}
    problems = [
        Problem(
            shown,
            Position(1, 1),
            "excerpts",
            f"expected a result folder of round {round_name} (a cloud's, or a chip maker's it "
            f"is set against), found {folder!r}, which the round's folder does not hold",
        )
        for folder in sorted(mapping.excerpt_folders(round_name) - held)
    ]
    keys = {(system.submitter, system.key) for system in reading.systems}
    submitters = {submitter for submitter, _ in keys}
    for said in mapping.statements:
        if said.round != round_name:
            continue
        # Each key listed, or the submitter itself: one mistyped key among good ones is named.
        lacking = [key for key in said.systems or [] if (said.submitter, key) not in keys]
        if said.systems is None and said.submitter not in submitters:
            lacking = ["every system"]
        problems += [
            Problem(
                shown,
                Position(1, 1),
                "statements",
                f"expected a statement on a submitter's systems of round {round_name}, found "
                f"one of {said.submitter!r} on {key}, which the round's folder does not hold: "
                "it would be shown with no result",
            )
            for key in lacking
        ]
    for system in reading.systems:
        if system.submitter not in mapping.submitters:
            problems.append(
                shared.unknown_submitter(system.path, shown, system.submitter, "maps to a provider")
            )
        if system.accelerator not in mapping.accelerators:
            problems.append(shared.unknown_accelerator(system.path, shown, system.accelerator))
    return problems
