"""What a render may take from earlier ones instead of making it again, as one value.

The pipeline (pipeline/run.py `build`) fills it from its caches; a render without it makes
every page, chart and compiled template afresh, as a test or `cloudqual diff` wants.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from generator.load.snapshot import Store
    from generator.render.output import Page
    from generator.render.svg import SvgStore


@dataclass(frozen=True)
class Reuse:
    """The last render's pages by path, each with its signature (a page whose signature is
    unchanged is reused); the converted charts; and a store that keeps the templates' compiled
    code across processes (render/bytecode.py)."""

    previous: dict[str, tuple[str, Page]] = field(default_factory=dict)
    svg: SvgStore | None = None
    code: Store | None = None
