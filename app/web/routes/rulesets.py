"""`GET /api/rulesets`, the generic rule glossary page of a ruleset without its own, and each
ruleset's web part (docs/rulesets.md): the RulesetWeb (app/rulesets/base.py) its `Ruleset.web`
module names as WEB. app/bootstrap.py installs them."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app import rulesets
from app.rulesets.base import RulesetWeb
from app.web.templating import templates

router = APIRouter(prefix="/api/rulesets", tags=["rulesets"])

GENERIC_PANELS = {"status": "_ruleset_status.html", "turn": "_ruleset_turn.html",
                  "roster": "_ruleset_roster.html"}


def web_part(ruleset_id: str) -> RulesetWeb:
    """The ruleset's web part; an empty one (the generic page) when it has none."""
    name = rulesets.get(ruleset_id).web
    if not name or importlib.util.find_spec(name) is None:
        return RulesetWeb()
    web = importlib.import_module(name).WEB
    if not isinstance(web, RulesetWeb):
        raise TypeError(f"{name}.WEB is a {type(web).__name__}, not a RulesetWeb")
    return web


@router.get("")
def list_rulesets() -> list[dict[str, Any]]:
    """Every ruleset a game may be created under (docs/api.md § Rulesets)."""
    return [{"id": r.id, "name": r.name, "summary": r.summary, "default": r.id == rulesets.DEFAULT}
            for r in rulesets.RULESETS.values()]


def rules_page(ruleset_id: str):
    """A ruleset's rule ids and their meaning (its rule badges link here, /rules/zone#Z-…)."""
    def page(request: Request) -> HTMLResponse:
        context = {"ruleset": rulesets.get(ruleset_id)}
        return templates.TemplateResponse(request, "ruleset_rules.html", context)

    return page
