"""Every `module.function` a document under docs/ names still exists: a reader who follows
`plan_responses.shoot` from docs/rules.md lands on it, not on a function that moved.

A backticked dotted name is a code path when its first part is a module: of the document's own
ruleset (docs/rules.md is 2038's, rules-zone.md the zone's, rules-d20.md the d20's; their engine
and web modules), of the app, of the benches or tests, or a library; or a class of the ruleset,
the kernel or the contracts (`Bot.control_zone`, `Ruleset.web`: a model's field counts). In a
ruleset's document `house.<field>` is a field of that ruleset's house rules. Anything else in
backticks (`state.danger` in prose, `GET /api/...`, file names) is not a code path."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import re
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from app import rulesets

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted((ROOT / "docs").glob("*.md"))
CODE_PATH = re.compile(r"`([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?:\(\))?`")
NOT_CODE = {"py", "md", "html", "css", "js", "json", "svg", "png", "lock", "toml", "ini", "yaml", "txt", "db",
            "webmanifest"}
OWN = {"rules.md": "potham2038", "design-rules.md": "potham2038", "rules-zone.md": "zone", "rules-d20.md": "d20"}
SHELL = ["app", "app.kernel", "app.rulesets", "app.store", "app.live", "app.transfer", "app.web", "app.web.routes",
         "app.web.middleware", "app.web.logs", ""]
LIBRARIES = ("markupsafe", "jinja2")


def bases(doc: str) -> list[str]:
    own = f"app.rulesets.{OWN[doc]}" if doc in OWN else None
    return ([own, f"{own}.web"] if own else []) + SHELL


@cache
def module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


@cache
def classes(doc: str) -> dict[str, Any]:
    """Class name -> class: the document's ruleset's (engine and web), the kernel's, the contracts',
    the libraries' top-level ones."""
    found: dict[str, Any] = {}
    packages = [f"app.rulesets.{OWN[doc]}", f"app.rulesets.{OWN[doc]}.web"] if doc in OWN else []
    names = [f"{p}.{info.name}" for p in [*packages, "app.kernel"] for info in pkgutil.iter_modules(module(p).__path__)]
    for name in [*names, "app.rulesets.base", *LIBRARIES]:
        for key, value in vars(module(name)).items():
            if isinstance(value, type):
                found.setdefault(key, value)
    if doc in OWN:
        ruleset = next(r for r in rulesets.RULESETS.values() if r.web.startswith(f"app.rulesets.{OWN[doc]}."))
        found["house"] = ruleset.state.model_fields["house"].annotation
    return found


def has(owner: Any, name: str) -> bool:
    if hasattr(owner, name):
        return True
    if isinstance(owner, type):
        if name in getattr(owner, "model_fields", {}):
            return True
        return dataclasses.is_dataclass(owner) and name in {f.name for f in dataclasses.fields(owner)}
    return False


def walk(owner: Any, names: list[str]) -> bool:
    for name in names:
        if not has(owner, name):
            return False
        owner = getattr(owner, name, None)
    return True


def resolves(path: str, doc: str) -> bool | None:
    """True or False for a code path; None when the text is no code path."""
    parts = path.split(".")
    is_code = parts[0] in classes(doc) or parts[0][0].isupper()
    for base in bases(doc):
        for cut in range(len(parts), 0, -1):
            found = module(".".join(([base] if base else []) + parts[:cut]))
            if found is None:
                continue
            is_code = True
            if walk(found, parts[cut:]):
                return True
            break
    if parts[0] in classes(doc):
        return walk(classes(doc)[parts[0]], parts[1:])
    return False if is_code else None


def code_paths(doc: Path) -> list[str]:
    found = {p for p in CODE_PATH.findall(doc.read_text(encoding="utf-8")) if p.rsplit(".", 1)[1] not in NOT_CODE}
    return sorted(p for p in found if resolves(p, doc.name) is not None)


def test_the_check_knows_a_moved_function_from_a_present_one():
    assert resolves("bot_shoot.bot_shoot", "rules.md") is True
    assert resolves("phase3.bot_shoot", "rules.md") is False  # where it was before it moved
    assert resolves("house.danger_limit", "rules.md") is True
    assert resolves("state.danger", "rules.md") is None  # prose about the state, no code path


def test_the_documents_name_code_paths_to_check():
    assert sum(len(code_paths(doc)) for doc in DOCS) > 200


@pytest.mark.parametrize("doc", DOCS, ids=lambda d: d.name)
def test_every_code_path_a_document_names_exists(doc):
    assert [p for p in code_paths(doc) if not resolves(p, doc.name)] == []
