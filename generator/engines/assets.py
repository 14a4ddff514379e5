"""Static files the pages need: shipped in `templates/assets/`, served under `assets/cloudqual/`."""

from __future__ import annotations

from pathlib import Path

STYLESHEET = "assets/cloudqual/cloudqual.css"
# Sorting and filtering of results tables; each page reads the same without it.
SCRIPT = "assets/cloudqual/cloudqual.js"


def load(templates_dir: Path) -> dict[str, bytes]:
    """Every asset file, by the path it is served at."""
    folder = templates_dir / "assets"
    return {
        f"assets/cloudqual/{path.relative_to(folder).as_posix()}": path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }
