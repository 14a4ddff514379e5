"""The layers point down: load and model, then the checks, then the site, then the derived facts,
then rendering. A lower module that reached up would make the checks depend on what they guard."""

from __future__ import annotations

import ast

from conftest import ROOT

PACKAGE = ROOT / "generator"
# Modules below the derived facts. None may reach derive, directly or through another module;
# every module above derive imports it, so reaching any of them would reach derive too.
BELOW_DERIVE = (
    "load",
    "model",
    "problem",
    "policy",
    "checks",
    "suites",
    "caveats",
    "wording",
    "site",
)


def package_imports(module: str) -> set[str]:
    """The generator modules `module` imports, at run time or only for type checking."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module is None:  # from . import x
                found.update(alias.name for alias in node.names)
            else:
                found.add(node.module.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("generator."):
            found.add((node.module or "").split(".")[1])
    return found


def reachable(module: str) -> set[str]:
    """Every generator module `module` imports, directly or through others."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        for imported in package_imports(todo.pop()) - seen:
            seen.add(imported)
            todo.append(imported)
    return seen


def test_package_imports_sees_every_form_of_import() -> None:
    # The test below is only as good as this parse: checks.py's own imports must be seen.
    assert {"load", "model", "problem", "caveats", "suites", "wording"} <= package_imports("checks")
    assert "derive" in package_imports("render")


def test_checks_do_not_import_the_derived_facts() -> None:
    assert "derive" not in package_imports("checks")


def test_no_module_below_derive_reaches_up() -> None:
    for module in BELOW_DERIVE:
        assert "derive" not in reachable(module), f"generator/{module}.py reaches derive.py"


def test_site_assembles_and_leaves_file_checks_to_checks() -> None:
    # site.py loads records and assembles the Site; every problem it reports is made elsewhere.
    tree = ast.parse((PACKAGE / "site.py").read_text(encoding="utf-8"))
    made = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "Problem"
    ]
    assert made == [], f"generator/site.py makes a Problem on lines {made}"
