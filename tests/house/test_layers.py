"""The house in layers: one folder per stage, each importing only the folders before it.

A module that reached up would make a stage depend on what it feeds (the checks on the importer,
the derived facts on how charts are drawn), and two modules that import each other are one
module split in two. Every import counts: at the top, inside a function, for types only, or by
`importlib.import_module` or `__import__` with a literal name; one by a name made at run time
cannot be checked, so it is a failure of its own.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from conftest import ROOT
from mkdocs.plugins import EVENTS

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


def named(target: str, names: list[str]) -> list[str]:
    """What `from target import names` imports: `from generator.derive import validation` names
    a module; `from generator.derive.validation import Derived` a name in one."""
    return [f"{target}.{name}" if is_module(f"{target}.{name}") else target for name in names]


def relative(package: str, level: int, name: str) -> str:
    """`name` imported `level` dots up from `package`, as Python resolves it."""
    base = package.split(".")[: len(package.split(".")) - level + 1]
    return ".".join([*base, *([name] if name else [])])


# The calls that import a module named by a string, as each is spelled once its module is bound,
# with the parameters each takes in order.
LOADERS = {
    "importlib.import_module": ("name", "package"),
    "importlib.__import__": ("name", "globals", "locals", "fromlist", "level"),
    "builtins.__import__": ("name", "globals", "locals", "fromlist", "level"),
    "__import__": ("name", "globals", "locals", "fromlist", "level"),
}


def loader_calls(tree: ast.AST) -> list[tuple[ast.Call, str]]:
    """Each call in `tree` to one of LOADERS, with which, however the file bound it (`import
    importlib as lib`, `from importlib import import_module as load`). Bindings are read from the
    whole file, not scope by scope; one made by assignment (`load = importlib.import_module`) is
    not followed."""
    bound = {"__import__": "__import__"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                bound[alias.asname or top] = alias.name if alias.asname else top
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            bound.update({a.asname or a.name: f"{node.module}.{a.name}" for a in node.names})
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Name):
            called = bound.get(node.func.id)
        elif isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            module = bound.get(node.func.value.id)
            called = f"{module}.{node.func.attr}" if module else None
        else:
            called = None
        if called in LOADERS:
            found.append((node, called))
    return found


def loaded(call: ast.Call, loader: str, package: str) -> list[str] | None:
    """The modules a call to a loader imports, or None when the parse cannot tell: its name, or
    the package, fromlist or level that place it, is not a literal. A relative name resolves
    against `__package__` or a literal package; `__import__`'s level against the file's own."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None
    given = dict(zip(LOADERS[loader], call.args, strict=False))
    given.update({k.arg: k.value for k in call.keywords if k.arg})

    def literal(parameter: str, default: object = None) -> object:
        if parameter not in given:
            return default
        try:
            return ast.literal_eval(given[parameter])
        except (ValueError, TypeError):
            return ...  # not a literal

    name = literal("name")
    if not isinstance(name, str):
        return None
    if loader == "importlib.import_module":
        dots = len(name) - len(name.lstrip("."))
        if not dots:
            return [name]
        where = given.get("package")
        if isinstance(where, ast.Name) and where.id == "__package__":
            return [relative(package, dots, name[dots:])]
        within = literal("package")
        return [relative(within, dots, name[dots:])] if isinstance(within, str) else None
    level, names = literal("level", 0), literal("fromlist") or []
    if not isinstance(level, int) or not (
        isinstance(names, list | tuple) and all(isinstance(n, str) for n in names)
    ):
        return None
    target = relative(package, level, name) if level else name
    return named(target, list(names)) if names else [target]


def package_of(path: Path, module: str | None = None) -> str:
    module = module or module_name(path)
    return module if path.name == "__init__.py" else module.rsplit(".", 1)[0]


def imports(path: Path, module: str | None = None) -> list[tuple[int, str]]:
    """Each generator module the file imports, with its line, in any form: relative, absolute,
    `from generator import x`, inside functions, under TYPE_CHECKING, and by
    `importlib.import_module` or `__import__` with a literal name. `module` is the file's module
    name, when it is not where the file is."""
    package = package_of(path, module)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = relative(package, node.level, node.module or "") if node.level else node.module
            if target and (target == "generator" or target.startswith("generator.")):
                found += [(node.lineno, t) for t in named(target, [a.name for a in node.names])]
        elif isinstance(node, ast.Import):
            found += [
                (node.lineno, alias.name)
                for alias in node.names
                if alias.name.startswith("generator.")
            ]
    for call, loader in loader_calls(tree):
        found += [
            (call.lineno, target)
            for target in loaded(call, loader, package) or []
            if target.startswith("generator.")
        ]
    return sorted(dict.fromkeys(found), key=lambda found_at: found_at[0])


def unreadable_imports(path: Path, module: str | None = None) -> list[str]:
    """Each call in `path` that imports a module the parse cannot name, as `file:line: call`:
    whatever it loads, the layering cannot be checked."""
    package = package_of(path, module)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        f"{path.name}:{call.lineno}: {ast.unparse(call)}"
        for call, loader in loader_calls(tree)
        if loaded(call, loader, package) is None
    ]


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
        "    from ..importers.mlperf import rounds\n"
        "import importlib\n"
        "from importlib import import_module as load\n"
        "importlib.import_module('generator.publish.feeds')\n"
        "load('generator.changes')\n"
        "__import__('generator.watch.pin')\n"
        "importlib.import_module('.wording', __package__)\n"
        "__import__('generator.render', fromlist=['svg'])\n"
        "importlib.import_module('json')\n"
        "importlib.import_module(f'generator.{stage}')\n"
        "__import__(name)\n",
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
        "generator.publish.feeds",
        "generator.changes",
        "generator.watch.pin",
        "generator.derive.wording",
        "generator.render.svg",
    ]
    assert len(problems) == 8, problems
    assert unreadable_imports(sample, "generator.derive.probe") == [
        "probe.py:19: importlib.import_module(f'generator.{stage}')",
        "probe.py:20: __import__(name)",
    ]


def test_every_import_in_generator_names_its_module() -> None:
    # An import by a name made at run time could load any stage: the tests here cannot see it.
    # None exists today.
    problems = [p for path in modules().values() for p in unreadable_imports(path)]
    assert problems == [], "\n".join(problems)


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


# The most lines a plugin handler takes to read the options, call the engine and turn its
# errors into MkDocs' own: the longest that does only that (on_pre_build) has 11.
MOST_HANDLER_LINES = 15


def not_wiring(path: Path) -> list[str]:
    """What in the plugin module is more than wiring, as `file:line: what`: a function or class
    besides the plugin class, a method that is not a MkDocs event or `__init__`, and a handler
    over MOST_HANDLER_LINES from its `def` (or first decorator) to its last line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    defined = [n for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)]
    found = [f"{path.name}:{n.lineno}: {n.name} beside the plugin class" for n in defined[1:]]
    methods = [
        n
        for n in (defined[0].body if defined and isinstance(defined[0], ast.ClassDef) else [])
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    for method in methods:
        if method.name != "__init__" and method.name.removeprefix("on_") not in EVENTS:
            found.append(f"{path.name}:{method.lineno}: {method.name} is no MkDocs event")
        start = min([method.lineno, *(d.lineno for d in method.decorator_list)])
        length = (method.end_lineno or method.lineno) - start + 1
        if length > MOST_HANDLER_LINES:
            found.append(f"{path.name}:{method.lineno}: {method.name}, {length} lines")
    return found


def test_the_plugin_is_wiring() -> None:
    # Caches, threads and the site folder live in engines/; the plugin only connects events: one
    # class whose methods are MkDocs events, each a few lines that hand the work to engines/.
    assert not_wiring(PACKAGE / "engines" / "mkdocs" / "plugin.py") == []


def test_the_wiring_rule_finds_what_it_refuses(tmp_path: Path) -> None:
    body = "\n".join(f"        x = {n}" for n in range(MOST_HANDLER_LINES))
    sample = tmp_path / "plugin.py"
    sample.write_text(
        "class Plugin:\n"
        "    def on_config(self, config):\n"
        "        return config\n"
        "    def on_files(self, files):\n"
        f"{body}\n"
        "    def cache_key(self):\n"
        "        pass\n"
        "def helper():\n"
        "    pass\n",
        encoding="utf-8",
    )
    assert not_wiring(sample) == [
        f"plugin.py:{MOST_HANDLER_LINES + 7}: helper beside the plugin class",
        f"plugin.py:4: on_files, {MOST_HANDLER_LINES + 1} lines",
        f"plugin.py:{MOST_HANDLER_LINES + 5}: cache_key is no MkDocs event",
    ]
