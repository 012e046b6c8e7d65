"""A fourth ruleset plugs in by one folder and one registry line, and nothing else changes
(issue 17): a copy of the app gets tests/support/toy_ruleset as app/rulesets/toy/ and "toy" in
the registry's PACKAGES line; that copy, unchanged otherwise, creates a toy game, plays its
command, refuses an illegal one and renders its page through the shell."""

from __future__ import annotations

import difflib
import filecmp
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "support" / "toy_ruleset"
PARTS = ("app", "templates", "static")
SKIP = shutil.ignore_patterns("__pycache__")

# Played in the copy, by a fresh interpreter: the JSON API and the game page, on an in-memory database.
PLAY = """
import json
from fastapi.testclient import TestClient
from sqlalchemy.pool import StaticPool
from sqlmodel import Session, SQLModel, create_engine
import app.store.tables
from app.store.db import get_session
from app.bootstrap import create_app

engine = create_engine("sqlite://", connect_args={"check_same_thread": False}, poolclass=StaticPool)
SQLModel.metadata.create_all(engine)
def session():
    with Session(engine) as s:
        yield s
web = create_app(migrate_on_start=False, admin_token="t" * 32)
web.dependency_overrides[get_session] = session
client = TestClient(web)
rulesets = [r["id"] for r in client.get("/api/rulesets").json()]
created = client.post("/api/games", json={"name": "Toy night", "ruleset": "toy"})
token = created.json()["edit_token"]
added = client.post(f"/api/games/{token}/commands", json={"type": "add_npc", "name": "Grue"})
again = client.post(f"/api/games/{token}/commands", json={"type": "add_npc", "name": "Grue"})
page = client.get(f"/g/{token}")
rules = client.get("/rules/toy")
print(json.dumps({"rulesets": rulesets, "created": created.status_code, "added": added.status_code,
                  "npcs": client.get(f"/api/games/{token}").json().get("npcs"),
                  "again": again.status_code, "again_says": again.text,
                  "page": page.status_code, "page_text": page.text,
                  "rules": rules.status_code, "rules_text": rules.text}))
"""


def plug_in(copy: Path) -> None:
    """The two changes a new ruleset takes: its folder, and its package in the registry's line."""
    shutil.copytree(TOY, copy / "app" / "rulesets" / "toy", ignore=SKIP)
    registry = copy / "app" / "rulesets" / "__init__.py"
    text = registry.read_text(encoding="utf-8")
    registry.write_text(re.sub(r'^(PACKAGES = \(.*?)\)', r'\1, "toy")', text, count=1, flags=re.M),
                        encoding="utf-8")


def changes(old: Path, new: Path, where: str = "") -> tuple[list[str], list[str]]:
    """(files changed, files added) from tree `old` to tree `new`, as relative paths."""
    compared = filecmp.dircmp(old, new, ignore=["__pycache__"])
    changed = [f"{where}{name}" for name in compared.diff_files]
    added = [f"{where}{name}" for name in compared.right_only]
    for sub in compared.common_dirs:
        more = changes(old / sub, new / sub, f"{where}{sub}/")
        changed, added = changed + more[0], added + more[1]
    return changed, added


def test_a_fourth_ruleset_plugs_in_with_one_folder_and_one_registry_line(tmp_path):
    copy = tmp_path / "house"
    for part in PARTS:  # with its bytecode (`make test` compiles the app first): see below
        shutil.copytree(ROOT / part, copy / part)
    plug_in(copy)

    changed, added = [], []
    for part in PARTS:
        more = changes(ROOT / part, copy / part, f"{part}/")
        changed, added = changed + more[0], added + more[1]
    assert changed == ["app/rulesets/__init__.py"] and added == ["app/rulesets/toy"]
    lines = difflib.unified_diff(*(p.read_text(encoding="utf-8").splitlines() for p in
                                   (ROOT / changed[0], copy / changed[0])), lineterm="", n=0)
    edits = [line for line in lines if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    assert len(edits) == 2 and '"toy"' in edits[1]

    # The copy's interpreter reads the bytecode copied beside each unchanged module (copytree keeps
    # each source's time and size, which a .pyc is checked against) instead of compiling 140
    # modules again; the changed registry and the toy folder have none that fits, so they are
    # compiled from their source, as a new folder would be.
    env = {**os.environ, "PYTHONPATH": str(copy)}
    done = subprocess.run([sys.executable, "-c", PLAY], cwd=copy, env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    played = json.loads(done.stdout.strip().splitlines()[-1])
    assert played["rulesets"] == ["potham-2038", "zone", "d20", "toy"]
    assert (played["created"], played["added"], played["again"]) == (201, 200, 400)
    assert [n["name"] for n in played["npcs"]] == ["Grue"]
    assert "every NPC has a name of its own" in played["again_says"]
    assert played["page"] == 200
    assert "Toy night" in played["page_text"] and "Toy (one command)" in played["page_text"]
    assert "Grue" in played["page_text"]  # the shell's generic roster panel shows its NPC
    assert played["rules"] == 200 and "T-NAME" in played["rules_text"]
