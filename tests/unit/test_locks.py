"""The lock files (requirements/README.md) pin everything pyproject.toml asks for: a dependency
added without `make lock` would install nowhere (make run and make test install the locks only)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def names(requirements: list[str]) -> set[str]:
    return {re.split(r"[\[<>=!~; ]", r, maxsplit=1)[0].lower().replace("_", "-") for r in requirements}


def pinned(lock: str) -> dict[str, str]:
    text = (ROOT / "requirements" / lock).read_text()
    return {m[0].lower(): m[1] for m in re.findall(r"^([A-Za-z0-9_.-]+)==(\S+) \\", text, re.M)}


def test_every_dependency_is_pinned_with_hashes_in_the_lock_that_installs_it():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    run, dev = pinned("run.lock"), pinned("dev.lock")
    assert names(project["dependencies"] + project["optional-dependencies"]["postgres"]) <= set(run)
    assert names(project["optional-dependencies"]["dev"]) | set(run) <= set(dev)
    assert all(dev[name] == version for name, version in run.items())  # one version of each
    for lock in ("run.lock", "dev.lock"):
        text = (ROOT / "requirements" / lock).read_text()
        assert text.count("==") == len(pinned(lock)) and "--hash=sha256:" in text
