"""The app and its tests use only the public APIs of the frameworks they stand on: a private name
(a leading underscore) of FastAPI, Starlette, SQLAlchemy, Jinja, markupsafe, httpx or uvicorn may
change in any release without notice.

A name counts as theirs when one of those libraries defines it (a function, class, attribute or
module whose name starts with one underscore, or one it sets by name) and the app or a test names it: an attribute, an
import, a method that overrides it. Names the app defines for itself that a library happens to use
too (`_lock`, `_items`) are listed in OWN, each checked to be defined here. What still leans on a
private name is listed in REMAINING, file by file, so none can be added unseen and the list only
shrinks: each entry is a part kept for speed that a public way has not yet replaced."""

from __future__ import annotations

import ast
import importlib.util
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIBRARIES = ("fastapi", "starlette", "sqlalchemy", "jinja2", "markupsafe", "httpx", "uvicorn")

# SQLAlchemy's Row documents these as public, underscored only to keep clear of column names.
DOCUMENTED_PUBLIC = {"_mapping", "_asdict", "_fields", "_tuple", "_t"}

# The app's and the tests' own names that a library also uses privately.
OWN = {"_active", "_begin", "_commit", "_count", "_diff", "_index", "_items", "_json", "_key", "_listen", "_lock",
       "_message", "_put", "_receive", "_reload", "_scope", "_set", "_stop", "_stream", "_text"}

# Still private, and why: the route filter and the template escape are a served step's hot path;
# the SQL driver reads a step with Core's own compiled processors; the tests' one-hop client
# (tests/support/client.py) wraps the test client's transport.
REMAINING = {
    "_EffectiveRouteContext": {"app/web/middleware/route_filter.py"},
    "_IncludedRouter": {"app/web/middleware/route_filter.py", "tests/web/test_route_filter.py"},
    "_routes_version": {"app/web/middleware/route_filter.py"},
    "_utils": {"app/web/middleware/route_filter.py"},
    "_match": {"tests/web/test_route_filter.py"},
    "_mark_routes_changed": {"tests/web/test_route_filter.py"},
    "_escape_inner": {"app/web/templating.py"},
    "_from_namespace": {"app/web/templating.py"},
    "_bind_processors": {"app/store/driver_sql.py"},
    "_result_columns": {"app/store/driver_sql.py"},
    "_cached_result_processor": {"app/store/driver_sql.py"},
    "_handle_dbapi_exception": {"app/store/driver_sql.py"},
    "_sa_class_manager": {"app/store/games.py"},
    "_connections": {"app/store/game_commands.py"},
    "_transport": {"tests/support/client.py"},
}


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


@cache
def library_private_names() -> frozenset[str]:
    names: set[str] = set()
    for library in LIBRARIES:
        root = Path(importlib.util.find_spec(library).origin).parent
        for path in root.rglob("*.py"):
            names |= {part for part in path.relative_to(root).with_suffix("").parts if private(part)}
            try:
                tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
            except SyntaxError:
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names.add(node.name)
                elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                    names.add(node.attr)
                elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    names.add(node.id)
                elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
                    names.add(node.value)  # set by name (setattr(cls, "_sa_class_manager", ...))
    return frozenset(n for n in names if private(n))


def named(tree: ast.AST) -> set[str]:
    """Every private name the code names: attributes, imports (and their modules), methods."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.ImportFrom):
            found |= {a.name for a in node.names} | set((node.module or "").split("."))
        elif isinstance(node, ast.Import):
            found |= {part for a in node.names for part in a.name.split(".")}
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.add(node.name)
    return {n for n in found if private(n)}


def sources() -> list[Path]:
    return sorted([*(ROOT / "app").rglob("*.py"), *(ROOT / "tests").rglob("*.py")])


def private_uses() -> dict[str, set[str]]:
    theirs = library_private_names() - DOCUMENTED_PUBLIC - OWN
    uses: dict[str, set[str]] = {}
    for path in sources():
        for name in named(ast.parse(path.read_text(encoding="utf-8"))) & theirs:
            uses.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    return uses


def test_the_check_finds_a_private_name_of_a_library():
    assert {"_IncludedRouter", "_escape_inner", "_transports"} <= library_private_names()
    assert named(ast.parse("from httpx._transports import default\nx._bind_processors")) == {
        "_transports", "_bind_processors"}


def test_the_app_s_own_names_are_its_own():
    defined: set[str] = set()
    for path in sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                defined.add(node.name)
            elif isinstance(node, ast.Attribute | ast.Name) and isinstance(node.ctx, ast.Store):
                defined.add(getattr(node, "attr", None) or getattr(node, "id", ""))
    assert OWN <= defined


def test_no_private_name_of_the_frameworks_but_the_listed_ones():
    assert private_uses() == REMAINING
