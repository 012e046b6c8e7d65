"""The 2038 rules engine has no import cycle (issue 17): every import between app.rules.* modules,
lazy ones inside functions included, read with ast, forms an acyclic graph."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = "app.rules"
ROOT = Path(__file__).resolve().parents[2]


def module_files(package: str) -> dict[str, Path]:
    """Dotted module name -> file, for the package and every module below it."""
    files = {}
    for path in ROOT.joinpath(*package.split(".")).rglob("*.py"):
        dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        files[dotted.removesuffix(".__init__")] = path
    return files


def imported_names(module: str, path: Path) -> set[str]:
    """Every dotted name an import statement in the module names, anywhere in its body."""
    is_package = path.name == "__init__.py"
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, is_package, node.module, node.level)
            names.add(base)
            names |= {f"{base}.{alias.name}" for alias in node.names}  # `from pkg import submodule`
    return names


def _absolute(module: str, is_package: bool, name: str | None, level: int) -> str:
    if level == 0:
        return name or ""
    parts = module.split(".")[: len(module.split(".")) - level + (1 if is_package else 0)]
    return ".".join(parts + ([name] if name else []))


def import_graph(package: str) -> dict[str, set[str]]:
    files = module_files(package)
    return {
        module: {name for name in imported_names(module, path) if name in files and name != module}
        for module, path in files.items()
    }


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle as a path [a, b, ..., a], or None: depth-first search with an on-path set."""
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return path[path.index(node) :] + [node]
        if node in done:
            return None
        for target in sorted(graph[node]):
            if cycle := visit(target, [*path, node]):
                return cycle
        done.add(node)
        return None

    for start in sorted(graph):
        if cycle := visit(start, []):
            return cycle
    return None


@pytest.mark.parametrize(
    ("graph", "cycle"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, None),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c", "a"]),
        ({"a": {"b", "c"}, "b": {"c"}, "c": set()}, None),
    ],
)
def test_find_cycle_finds_a_cycle_exactly_when_there_is_one(graph, cycle):
    assert find_cycle(graph) == cycle


def test_the_graph_sees_lazy_imports_and_from_package_import_submodule(tmp_path):
    source = "def later():\n    from app.rules import shooting\n    from . import dice\n"
    path = tmp_path / "combat.py"
    path.write_text(source, encoding="utf-8")
    assert {"app.rules.shooting", "app.rules.dice"} <= imported_names("app.rules.combat", path)


def test_the_graph_knows_the_rules_modules_and_their_imports():
    graph = import_graph(PACKAGE)
    assert "app.rules.dice" in graph["app.rules.shooting"]
    assert "app.rules.combat" in graph["app.rules.shots"]


def test_no_import_cycle_inside_app_rules():
    assert find_cycle(import_graph(PACKAGE)) is None
