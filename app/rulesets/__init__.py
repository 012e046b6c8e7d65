"""The rulesets a game may be played under: id -> Ruleset (docs/rulesets.md).

A game chooses its ruleset when it is created and keeps it; games saved before rulesets
existed, and old exports, are Potham 2038. To plug in a ruleset, add its package (a folder
app/rulesets/<name>/ whose RULESET is a base.Ruleset) to PACKAGES: the one line naming rulesets.
"""

from __future__ import annotations

import importlib

from app.rulesets.base import Ruleset

PACKAGES = ("potham2038", "zone", "d20")  # the registry: one package per ruleset, in the home page's order

DEFAULT = "potham-2038"

RULESETS: dict[str, Ruleset] = {
    r.id: r for r in (importlib.import_module(f"{__name__}.{package}").RULESET for package in PACKAGES)}


def get(ruleset_id: str | None) -> Ruleset:
    """The ruleset of a game (None: a game from before rulesets, Potham 2038). KeyError if unknown."""
    return RULESETS[ruleset_id or DEFAULT]


def known(ruleset_id: str) -> str:
    """A pydantic check for a `ruleset` field: the id of a ruleset this app has."""
    if ruleset_id not in RULESETS:
        raise ValueError(f"unknown ruleset {ruleset_id!r}; this app has {', '.join(RULESETS)}")
    return ruleset_id


def rule_summary(rule: str) -> tuple[Ruleset, str] | None:
    """The ruleset whose glossary has this rule id, and its meaning (ids do not overlap: each
    ruleset's have their own prefix)."""
    for ruleset in RULESETS.values():
        if rule in ruleset.glossary:
            return ruleset, ruleset.glossary[rule]
    return None
