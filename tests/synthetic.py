"""Synthetic content at scale: the real content, plus copies of its validations up to a total.

Each copy is its own record, as real ones are: its own id, an announced date spread over three
years (every fifth left undated, as many real results are), and its measured values scaled by a
few percent, so no two copies share a title, a date and a figure. The copies are written to a
temporary folder by the tests and benchmarks that need them, never to content/.
"""

from __future__ import annotations

import re
import shutil
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRST_DAY = date(2024, 1, 1)


def synthetic_content(destination: Path, total: int) -> Path:
    """A content folder at `destination` holding `total` validations."""
    shutil.copytree(ROOT / "content", destination)
    folder = destination / "validations"
    originals = sorted(folder.glob("*.yaml"))
    for index in range(total - len(originals)):
        source = originals[index % len(originals)]
        text = source.read_text(encoding="utf-8")
        record_id = f"{source.stem}-s{index:04d}"
        day = FIRST_DAY + timedelta(days=(index * 37) % 1000)
        announced = "null" if index % 5 == 0 else day.isoformat()
        text = re.sub(r"^id: .*$", f"id: {record_id}", text, count=1, flags=re.MULTILINE)
        text = re.sub(
            r"^announced: .*$", f"announced: {announced}", text, count=1, flags=re.MULTILINE
        )
        # A date cites its source: a dated copy cites its outcome's, an undated one none.
        text = re.sub(r"^dating:.*\n(?:  .*\n)*", "", text, count=1, flags=re.MULTILINE)
        if announced != "null":
            outcome = re.search(r"^outcome:\n((?:  .*\n)+)", text, flags=re.MULTILINE)
            assert outcome is not None, source
            cited = dict(re.findall(r"^  (source|grade): (\S+)$", outcome[1], flags=re.MULTILINE))
            dating = (
                f"dating: {{source: {cited['source']}, grade: {cited['grade']}, "
                "basis: publication}\n"
            )
            text = re.sub(r"^(announced: .*\n)", rf"\g<1>{dating}", text, count=1, flags=re.M)
        factor = 1 + (index % 13) / 100
        text = re.sub(
            r"^(    value: )([0-9.]+)$",
            lambda match, factor=factor: f"{match[1]}{float(match[2]) * factor!r}",
            text,
            flags=re.MULTILINE,
        )
        (folder / f"{record_id}.yaml").write_text(text, encoding="utf-8")
    return destination
