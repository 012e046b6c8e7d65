"""The web side of the rulesets (docs/rulesets.md): `GET /api/rulesets`, and each ruleset's own
pages and stateless rules API, found through the ruleset.

A ruleset's web part is the module its `Ruleset.web` names (`app.rulesets.<id>.web`). It provides
(each optional: without them, or without the module, its games get the generic page
`ruleset_game.html`: title, status, log, sharing and undo, its commands played through the JSON API):
  - `PAGE`: the template of its game page (it extends base.html and includes the shared panels),
  - `PANELS`: panel name -> template, for the panels it draws itself (status, turn, roster…),
  - `context(opened, session, context) -> dict`: what its panels need beyond the state,
  - `router` (optional): its page routes (`/g/{token}/<id>/…`),
  - `api` (optional): its stateless rules, mounted under `/api/rulesets/{id}`,
  - `ROW` (optional): the partial of a saved game's line in the lists (home, admin), given `g`;
    else "Round N" (`_ruleset_row.html`),
  - `RULES` (optional): the address of its own rule glossary page; else `/rules/{id}` lists its
    glossary."""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse

from app import rulesets
from app.web import panels
from app.web.templating import ROWS, RULE_PAGES, templates

router = APIRouter(prefix="/api/rulesets", tags=["rulesets"])


GENERIC_PANELS = {"status": "_ruleset_status.html", "turn": "_ruleset_turn.html",
                  "roster": "_ruleset_roster.html"}


def module_of(ruleset_id: str) -> ModuleType | None:
    name = rulesets.get(ruleset_id).web
    if not name or importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)


def no_context(opened: Any, session: Any, context: dict[str, Any]) -> dict[str, Any]:
    return {}


@router.get("")
def list_rulesets() -> list[dict[str, Any]]:
    """Every ruleset a game may be created under (api.md § Rulesets)."""
    return [{"id": r.id, "name": r.name, "summary": r.summary, "default": r.id == rulesets.DEFAULT}
            for r in rulesets.RULESETS.values()]


def rules_page(ruleset_id: str):
    """A ruleset's rule ids and their meaning (its rule badges link here, /rules/zone#Z-…)."""
    def page(request: Request) -> HTMLResponse:
        context = {"ruleset": rulesets.get(ruleset_id)}
        return templates.TemplateResponse(request, "ruleset_rules.html", context)

    return page


def install(app: FastAPI) -> None:
    """Mount `GET /api/rulesets`, then each ruleset's page routes and stateless API, and register
    its page, panels and context with the panels module."""
    app.include_router(router)
    pages = APIRouter(include_in_schema=False)  # one per app: create_app may run many times
    for ruleset_id in rulesets.RULESETS:
        web = module_of(ruleset_id)
        RULE_PAGES[ruleset_id] = getattr(web, "RULES", f"/rules/{ruleset_id}")
        if not hasattr(web, "RULES"):
            pages.add_api_route(f"/rules/{ruleset_id}", rules_page(ruleset_id), methods=["GET"],
                                response_class=HTMLResponse)
        if hasattr(web, "ROW"):
            ROWS[ruleset_id] = web.ROW
        panels.RULESET_PAGES[ruleset_id] = getattr(web, "PAGE", "ruleset_game.html")
        panels.RULESET_PANELS[ruleset_id] = {**GENERIC_PANELS, **getattr(web, "PANELS", {})}
        panels.RULESET_HOOKS[ruleset_id] = [getattr(web, "context", no_context)]
        if getattr(web, "api", None) is not None:
            app.include_router(web.api, prefix=f"/api/rulesets/{ruleset_id}", tags=[f"rules: {ruleset_id}"])
        if getattr(web, "router", None) is not None:
            app.include_router(web.router)
    app.include_router(pages)
