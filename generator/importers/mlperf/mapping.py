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
from generator.problems import Problem

PROGRAM = "mlperf-training"
MAPPING = f"{IMPORTS_FOLDER}/{PROGRAM}.yaml"


def read_mapping(content: Path) -> TrainingMapping:
    return shared.read_model(content, TrainingMapping, MAPPING)


def mapping_problems(reading: Round, mapping: TrainingMapping, shown: str) -> list[Problem]:
    """Submitters and accelerators the mapping lacks: named, never guessed."""
    problems = []
    for system in reading.systems:
        if system.submitter not in mapping.submitters:
            problems.append(
                shared.unknown_submitter(system.path, shown, system.submitter, "maps to a provider")
            )
        if system.accelerator not in mapping.accelerators:
            problems.append(shared.unknown_accelerator(system.path, shown, system.accelerator))
    return problems
