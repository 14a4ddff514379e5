"""The house stays readable: no module of generator/ over MAX_MODULE lines, no function over
MAX_FUNCTION. A module that grows past the bound is split by what its parts do (STYLE.md), not
given a larger bound."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "generator"
MAX_MODULE = 450
MAX_FUNCTION = 80


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def too_long_modules(paths: list[Path], most: int) -> list[str]:
    found = []
    for path in paths:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > most:
            found.append(f"{path.relative_to(path.parents[1])}: {lines} lines")
    return found


def too_long_functions(paths: list[Path], most: int) -> list[str]:
    """Each function, method and nested function over `most` lines, from its `def` (or its
    first decorator) to its last line."""
    found = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                length = (node.end_lineno or node.lineno) - start + 1
                if length > most:
                    where = path.relative_to(path.parents[1])
                    found.append(f"{where}:{node.lineno}: {node.name}, {length} lines")
    return found


def test_no_module_is_over_the_bound() -> None:
    assert len(_modules()) > 100  # the walk finds the package
    assert too_long_modules(_modules(), MAX_MODULE) == []


def test_no_function_is_over_the_bound() -> None:
    assert too_long_functions(_modules(), MAX_FUNCTION) == []


def test_the_measures_find_what_they_refuse(tmp_path: Path) -> None:
    body = "\n".join(f"    x = {n}" for n in range(MAX_FUNCTION))
    sample = tmp_path / "pkg" / "probe.py"
    sample.parent.mkdir()
    sample.write_text(
        f"@decorated\ndef long():\n{body}\n\nclass C:\n    async def short(self):\n        pass\n",
        encoding="utf-8",
    )
    assert too_long_functions([sample], MAX_FUNCTION) == ["pkg/probe.py:2: long, 82 lines"]
    assert too_long_modules([sample], MAX_FUNCTION) == ["pkg/probe.py: 86 lines"]
    assert too_long_modules([sample], 86) == []
