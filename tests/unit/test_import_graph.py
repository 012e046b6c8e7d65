"""The 2038 rules engine has no import cycle (issue 17): every import between app.rulesets.potham2038.* modules,
lazy ones inside functions included, read with ast, forms an acyclic graph."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

PACKAGE = "app.rulesets.potham2038"
RULESETS = "app.rulesets"
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
    return set(_imported_names(module, path.name == "__init__.py", path.read_text(encoding="utf-8")))


@cache
def _imported_names(module: str, is_package: bool, source: str) -> frozenset[str]:
    """By the module's text: several tests read the whole app's imports, parsed once here."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, is_package, node.module, node.level)
            names.add(base)
            names |= {f"{base}.{alias.name}" for alias in node.names}  # `from pkg import submodule`
    return frozenset(names)


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
    source = "def later():\n    from app.rulesets.potham2038 import shooting\n    from . import dice\n"
    path = tmp_path / "combat.py"
    path.write_text(source, encoding="utf-8")
    assert {"app.rulesets.potham2038.shooting", "app.rulesets.potham2038.dice"} <= imported_names(
        "app.rulesets.potham2038.combat", path)


def engine_graph() -> dict[str, set[str]]:
    """2038's engine: its package without its web part and without the package itself (whose
    __init__ only hands the registry its RULESET)."""
    graph = import_graph(PACKAGE)
    engine = {m for m in graph if m != PACKAGE and not m.startswith(f"{PACKAGE}.web")}
    return {m: graph[m] & engine for m in engine}


def test_the_graph_knows_the_rules_modules_and_their_imports():
    graph = engine_graph()
    assert "app.rulesets.potham2038.dice" in graph["app.rulesets.potham2038.shooting"]
    assert "app.rulesets.potham2038.combat" in graph["app.rulesets.potham2038.shots"]


def test_no_import_cycle_inside_the_2038_engine():
    assert find_cycle(engine_graph()) is None


# --- the shape: kernel, rulesets, shell ---------------------------------------------------------


def ruleset_packages() -> list[str]:
    """Every ruleset: a package app/rulesets/<name>/ (base.py and the registry are the shell's)."""
    root = ROOT / "app" / "rulesets"
    return sorted(f"{RULESETS}.{p.parent.name}" for p in root.glob("*/__init__.py"))


def app_imports() -> dict[str, set[str]]:
    """Every module of the app -> every app.* name it imports (modules, and names inside them)."""
    return {module: {n for n in imported_names(module, path) if n == "app" or n.startswith("app.")}
            for module, path in module_files("app").items()}


def inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_the_rulesets_are_found_as_packages():
    assert {f"{RULESETS}.potham2038", f"{RULESETS}.zone", f"{RULESETS}.d20"} <= set(ruleset_packages())


def test_the_kernel_imports_nothing_of_a_ruleset_or_of_the_web():
    wrong = {(module, name) for module, names in app_imports().items() if inside(module, "app.kernel")
             for name in names if not inside(name, "app.kernel")}
    assert wrong == set()


def test_no_ruleset_imports_another():
    packages = ruleset_packages()
    wrong = {(module, name) for module, names in app_imports().items()
             for own in packages if inside(module, own)
             for name in names for other in packages if other != own and inside(name, other)}
    assert wrong == set()


def test_the_shell_names_no_ruleset():
    """Outside the rulesets' own packages nothing imports one of them: the registry
    (app/rulesets/__init__.py) imports each by the package name in its PACKAGES line."""
    packages = ruleset_packages()
    wrong = {(module, name) for module, names in app_imports().items()
             if not any(inside(module, p) for p in packages)
             for name in names if any(inside(name, p) for p in packages)}
    assert wrong == set()


@pytest.mark.parametrize("package", ["app.rulesets.potham2038", "app.rulesets.zone", "app.rulesets.d20"])
def test_each_engine_stays_pure(package):
    """A ruleset's engine (its package but its web part) imports no web framework, database or
    shell module: only the kernel, the registry's base and itself."""
    wrong = set()
    for module, path in module_files(package).items():
        if inside(module, f"{package}.web"):
            continue
        for name in imported_names(module, path):
            top = name.split(".")[0]
            if top in ("fastapi", "starlette", "sqlmodel", "sqlalchemy", "jinja2", "psycopg"):
                wrong.add((module, name))
            elif top == "app" and not (inside(name, package) or inside(name, "app.kernel")
                                       or name in ("app.rulesets", "app.rulesets.base", "app.rulesets.base.Ruleset")):
                wrong.add((module, name))
    assert wrong == set()


# --- the shell's text names no ruleset ----------------------------------------------------------

# Where the shell may still write a ruleset's id, and why (docs/rulesets.md § The map):
SHELL_EXCEPTIONS = {
    "app/rulesets/__init__.py": "the registry: DEFAULT, the ruleset of games from before rulesets",
    "app/store/tables.py": "the column's default: games stored before rulesets are Potham 2038",
    "app/transfer/exchange.py": "the saved-file contract: format 'potham-2038-game', v1 files are 2038 games",
}


def ruleset_names() -> set[str]:
    """Each ruleset's id ("potham-2038") and package name ("potham2038", its templates' folder)."""
    from app import rulesets

    return set(rulesets.RULESETS) | {p.rsplit(".", 1)[1] for p in ruleset_packages()}


def shell_files() -> list[Path]:
    """The shell's Python (app/ but each app/rulesets/<package>/) and its templates (templates/
    but each ruleset's templates/<package>/)."""
    packages = {p.rsplit(".", 1)[1] for p in ruleset_packages()}
    python = [p for p in (ROOT / "app").rglob("*.py")
              if not (p.parent.parent == ROOT / "app" / "rulesets" and p.parent.name in packages)
              and not any(ROOT / "app" / "rulesets" / pkg in p.parents for pkg in packages)]
    pages = [p for p in (ROOT / "templates").rglob("*.html")
             if p.relative_to(ROOT / "templates").parts[0] not in packages]
    return python + pages


def naming_a_ruleset(text: str, names: set[str]) -> set[str]:
    """The names a text writes as a string of their own or a folder: "potham-2038", 'zone',
    "potham2038/_row.html", `== d20` (`zone` inside "timezone" or "potham-2038-game" does not count)."""
    return {n for n in names if re.search(rf"""["']{re.escape(n)}["'/]|==\s*{re.escape(n)}\b""", text)}


def test_the_check_finds_a_ruleset_id_written_in_the_shell():
    assert naming_a_ruleset('if game.ruleset != "potham-2038":', {"potham-2038", "zone"}) == {"potham-2038"}
    assert naming_a_ruleset("{% if g.ruleset == 'zone' %}", {"zone"}) == {"zone"}
    assert naming_a_ruleset('{% include "potham2038/_row.html" %}', {"potham2038"}) == {"potham2038"}
    assert naming_a_ruleset('format: Literal["potham-2038-game"]; tz = "timezone"', {"potham-2038", "zone"}) == set()


def test_the_shell_writes_no_ruleset_id_but_its_documented_exceptions():
    names = ruleset_names()
    files = shell_files()
    assert ROOT / "app" / "web" / "deps.py" in files and ROOT / "templates" / "_game_row.html" in files
    wrong = {str(p.relative_to(ROOT)): sorted(found) for p in files
             if (found := naming_a_ruleset(p.read_text(encoding="utf-8"), names))
             and str(p.relative_to(ROOT)) not in SHELL_EXCEPTIONS}
    assert wrong == {}


def test_the_shell_names_no_2038_helper():
    """2038's Danger track, phase names and guard come from its web part, not the shell."""
    words = ("PHASE_NAMES", "danger_steps", "danger_band", "POTHAM_ONLY", "potham_2038_only")
    wrong = {(str(p.relative_to(ROOT)), w) for p in shell_files() for w in words
             if w in p.read_text(encoding="utf-8")}
    assert wrong == set()


# --- the rooms: every arrow points down --------------------------------------------------------


def runtime_imports(module: str, path: Path) -> set[str]:
    """The app.* names a module imports when it runs: those under `if TYPE_CHECKING:` are read by
    the type checker only (an annotation naming a class of a module that imports this one)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            node.body = []
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, path.name == "__init__.py", node.module, node.level)
            names |= {base} | {f"{base}.{alias.name}" for alias in node.names}
    return {n for n in names if n.startswith("app.")}


def runtime_graph() -> dict[str, set[str]]:
    """Module -> the app modules it imports when it runs. `from app.x import y` names the package
    app.x too, which Python has already initialised (or is initialising) before its submodule y:
    an arrow to one's own package, or to the empty `app`, is no dependency."""
    files = module_files("app")
    return {m: {n for n in runtime_imports(m, p) if n in files and n != m and n != "app"
                and not m.startswith(n + ".")} for m, p in files.items()}


def room(module: str) -> tuple[int, str]:
    """A module's floor (lower floors are imported by higher ones, never the other way) and room:
    kernel and settings; the rulesets' engines (with their registry and contracts); the store;
    live updates, transfer and the battle report (read from the store, said for the web); the web (the shell's and each ruleset's web part); the bootstrap;
    the entry points (`uvicorn app.main:app`, `python -m app`)."""
    parts = module.split(".")
    if module == "app":
        return 0, "app"
    if inside(module, "app.kernel") or module == "app.settings":
        return 0, parts[1]
    if inside(module, "app.rulesets"):
        return (4, "web") if "web" in parts[2:] else (1, "rulesets")
    floors = {"store": 2, "live": 3, "transfer": 3, "report": 3, "web": 4, "bootstrap": 5, "main": 6, "__main__": 6}
    return floors[parts[1]], parts[1]


def test_the_rooms_are_known_for_every_module():
    assert {room(m) for m in runtime_graph()} >= {(2, "store"), (3, "live"), (3, "transfer"), (4, "web")}


def upward_arrows() -> set[tuple[str, str]]:
    wrong = set()
    for module, names in runtime_graph().items():
        floor, own = room(module)
        for name in names:
            their_floor, theirs = room(name)
            if their_floor > floor or (their_floor == floor and theirs != own):
                wrong.add((module, name))
    return wrong


def test_every_arrow_points_down_and_nothing_imports_the_bootstrap_or_the_served_app():
    """web -> live/transfer/report -> store -> rulesets -> kernel, those three apart; only
    app.main imports app.bootstrap, and nothing imports app.main."""
    assert upward_arrows() == set()


def test_the_app_has_no_runtime_import_cycle():
    assert find_cycle(runtime_graph()) is None
