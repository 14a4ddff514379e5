"""The house in layers: one folder per stage, each importing only the folders before it.

A module that reached up would make a stage depend on what it feeds (the checks on the importer,
the derived facts on how charts are drawn), and two modules that import each other are one
module split in two. Every import counts: at the top, inside a function, or for types only.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from conftest import ROOT

PACKAGE = ROOT / "generator"
# The stages in the order they may import each other: each may import those before it, never
# one after. english, problems and escape are the words everything shares; the checks come after the
# derived facts because a check reads what the rules derive (a caveat rule's id may not be
# reused, a suite's counts must reconcile); publish comes before render because the data page
# shows the API's own documents. The rest are entry points: the importer, the report of
# problems, the scaffold, the commands and the command line that reads their arguments, and
# the two names MkDocs is configured with.
ORDER = (
    "english",
    "problems",
    "escape",
    "model",
    "load",
    "derive",
    "checks",
    "changes",
    "publish",
    "render",
    "pipeline",
    "engines",
    "importers",
    "watch",
    "report",
    "scaffold",
    "commands",
    "cli",
    "plugin",
    "extension",
)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def stage(module: str) -> str:
    """generator.derive.caveats.rules -> derive; generator.cli -> cli."""
    return module.split(".")[1]


def is_module(name: str) -> bool:
    where = ROOT.joinpath(*name.split("."))
    return where.with_suffix(".py").is_file() or (where / "__init__.py").is_file()


def imports(path: Path, module: str | None = None) -> list[tuple[int, str]]:
    """Each generator module the file imports, with its line, in any form: relative, absolute,
    `from generator import x`, inside functions and under TYPE_CHECKING. `module` is the file's
    module name, when it is not where the file is."""
    module = module or module_name(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target == "generator" or target.startswith("generator."):
                # `from generator.derive import validation` names a module; `from
                # generator.derive.validation import Derived` a name in one.
                found += [
                    (
                        node.lineno,
                        f"{target}.{alias.name}" if is_module(f"{target}.{alias.name}") else target,
                    )
                    for alias in node.names
                ]
        elif isinstance(node, ast.Import):
            found += [
                (node.lineno, alias.name)
                for alias in node.names
                if alias.name.startswith("generator.")
            ]
    return list(dict.fromkeys(found))


def modules() -> dict[str, Path]:
    found = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
    return {name: path for name, path in found.items() if name != "generator"}


def graph() -> dict[str, set[str]]:
    known = modules()
    edges: dict[str, set[str]] = defaultdict(set)
    for name, path in known.items():
        edges[name].update(target for _, target in imports(path))
    return edges


def wrong_way(path: Path, module: str | None = None) -> list[str]:
    """Each import in `path` of a stage after its own, as `file:line: a imports b`."""
    module = module or module_name(path)
    own = ORDER.index(stage(module))
    return [
        f"{path.name}:{line}: {module} imports {target}"
        for line, target in imports(path, module)
        if ORDER.index(stage(target)) > own
    ]


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle found by a depth-first walk, each as the modules around it."""
    found, state = [], {}
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = "open"
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == "open":
                found.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node)
    return found


def test_every_module_sits_in_a_known_stage() -> None:
    unplaced = sorted(
        name for name in modules() if name != "generator" and stage(name) not in ORDER
    )
    assert unplaced == [], f"modules outside every stage of ORDER: {unplaced}"


def test_the_parse_sees_every_form_of_import(tmp_path: Path) -> None:
    # The tests below are only as good as this parse.
    sample = tmp_path / "probe.py"
    sample.write_text(
        "from __future__ import annotations\n"
        "from typing import TYPE_CHECKING\n"
        "from . import suites\n"
        "from .caveats.rules import RULES\n"
        "from generator import report\n"
        "import generator.render.charts\n"
        "if TYPE_CHECKING:\n"
        "    from generator.checks.rules.context import Context\n"
        "def late() -> None:\n"
        "    from ..importers.mlperf import rounds\n",
        encoding="utf-8",
    )
    targets = [target for _, target in imports(sample, "generator.derive.probe")]
    problems = wrong_way(sample, "generator.derive.probe")
    assert targets == [
        "generator.derive.suites",
        "generator.derive.caveats.rules",
        "generator.report",
        "generator.render.charts",
        "generator.checks.rules.context",
        "generator.importers.mlperf.rounds",
    ]
    assert len(problems) == 4, problems


def test_each_stage_imports_only_the_stages_before_it() -> None:
    listing = {
        name: sorted({stage(t) for _, t in imports(path)} - {stage(name)})
        for name, path in modules().items()
    }
    by_stage: dict[str, set[str]] = defaultdict(set)
    for name, stages in listing.items():
        by_stage[stage(name)].update(stages)
    # Printed on failure: what each folder imports, stage by stage.
    shown = "\n".join(f"{s}: {', '.join(sorted(by_stage[s])) or '-'}" for s in ORDER)
    problems = [p for path in modules().values() for p in wrong_way(path)]
    assert problems == [], "\n".join([*problems, "", shown])


@pytest.mark.parametrize(
    ("importer", "must_not_reach"),
    [
        # the checks loaded the MLPerf importer for one constant, through the caveat rules
        ("generator.checks.rules", "generator.importers"),
        ("generator.derive.caveats.benchmark", "generator.importers"),
        # the site's facts imported how charts are drawn, and charts imported the facts back
        ("generator.derive.site_facts", "generator.render"),
        ("generator.render.charts", "generator.publish"),
        # a problem printed itself through the report, which is built on problems
        ("generator.problems", "generator.report"),
    ],
)
def test_the_wrong_way_imports_found_in_review_stay_gone(
    importer: str, must_not_reach: str
) -> None:
    edges = graph()
    seen, todo = set(), [importer]
    while todo:
        for nxt in edges.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    reached = sorted(m for m in seen if m.startswith(must_not_reach))
    assert reached == [], f"{importer} reaches {reached}"


def test_no_two_modules_import_each_other() -> None:
    found = cycles(graph())
    assert found == [], "\n".join(" -> ".join(cycle) for cycle in found)


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_importing_the_checks_loads_no_importer_and_no_renderer() -> None:
    # What Python actually loads, not what the files say: a lazy import inside a function that
    # runs at import time would show here.
    result = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-c",
            "import generator.checks.loader, generator.checks.rules, generator.checks.schema",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    loaded = {line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines()}
    assert "generator.checks.rules.validation" in loaded
    assert "generator.derive.caveats.rules" in loaded
    stray = sorted(
        m
        for m in loaded
        if m.startswith(("generator.importers", "generator.render", "generator.publish"))
        or m.split(".")[0] in ("altair", "vl_convert", "mkdocs", "jinja2")
    )
    assert stray == []


def test_the_loader_assembles_and_leaves_problems_to_the_checks() -> None:
    # The site loader reads files and assembles the Site; every problem it reports is made by a
    # check.
    tree = ast.parse((PACKAGE / "checks" / "loader.py").read_text(encoding="utf-8"))
    made = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "Problem"
    ]
    assert made == [], f"generator/checks/loader.py makes a Problem on lines {made}"


def test_the_plugin_is_wiring() -> None:
    # Caches, threads and the site folder live in engines/; the plugin only connects events.
    lines = (PACKAGE / "engines" / "mkdocs" / "plugin.py").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 120
