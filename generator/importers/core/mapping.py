"""How every import reads its mapping (its schema is model/imports.py), and the problems every
import raises of a round and a mapping alike (no entry for the round, no folder, never reviewed,
an unmapped submitter or accelerator).

A submitter or accelerator the mapping lacks stops an import: a result is never given to a
provider, or grouped under a platform, by guess.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from generator.checks.schema import validate
from generator.load.reader import load_text
from generator.model.base import Strict
from generator.model.imports import RoundEntry
from generator.problems import Position, Problem


class ImportFailure(Exception):
    """The import cannot go on; `problems` say where, and nothing was written."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems)
        super().__init__("\n".join(map(str, self.problems)))


M = TypeVar("M", bound=Strict)


def read_model(content: Path, model: type[M], relative: str) -> M:
    """The mapping at `relative` under `content`, validated as `model`: each import's own; every
    problem is an ImportFailure at its position."""
    path = content / relative
    shown = f"{content.name}/{relative}"
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise ImportFailure(
            [Problem(shown, Position(1, 1), "", f"cannot be read: {error.strerror}")]
        ) from None
    document, problems = load_text(shown, raw)
    if document is None:
        raise ImportFailure(problems)
    found, problems = validate(model, document)
    if found is None:
        raise ImportFailure(problems)
    return found


def check_round(rounds: dict[str, RoundEntry], round_name: str, root: Path, shown: str) -> None:
    """Raises ImportFailure where the mapping (shown as `shown`) has no entry for the round, the
    round's folder is not one, or the round was never reviewed."""
    if round_name not in rounds:
        problem = Problem(
            shown,
            Position(1, 1),
            "rounds",
            f"expected an entry for {round_name} (its repository and commit), found none",
        )
        raise ImportFailure([problem])
    if not root.is_dir():
        found = "a file" if root.exists() else "none"
        raise ImportFailure(
            [Problem(str(root), Position(1, 1), "", f"expected a folder, found {found}")]
        )
    if rounds[round_name].reviewed is None:
        problem = Problem(
            shown,
            Position(1, 1),
            f"rounds.{round_name}.reviewed",
            "expected the date its records were last checked against the round, found none",
        )
        raise ImportFailure([problem])


def unknown_submitter(path: str, shown: str, submitter: str, wanted: str) -> Problem:
    """A submitter the mapping (`shown`) does not list; `wanted` says what an entry gives."""
    return Problem(
        path,
        Position(1, 1),
        "submitter",
        f"expected a submitter that {shown} {wanted}, found {submitter!r}: add it under submitters",
    )


def unknown_accelerator(path: str, shown: str, accelerator: str) -> Problem:
    """An accelerator of a cloud's system that the mapping (`shown`) does not map."""
    return Problem(
        path,
        Position(1, 1),
        "accelerator_model_name",
        f"expected an accelerator that {shown} maps to a platform, found {accelerator!r}: add "
        "it under accelerators",
    )


def missing_provider(shown: str, submitter: str, provider: str) -> Problem:
    """A provider the content holds no record of, and the mapping gives no name for."""
    return Problem(
        shown,
        Position(1, 1),
        f"submitters.{submitter}",
        f"expected a name and summary for provider {provider!r}, which content/providers/ does "
        "not hold, found none",
    )
