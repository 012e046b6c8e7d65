"""The JSON games API (docs/api.md § Games). The rules endpoints live in rules_api.py."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse, Response
from pydantic import AfterValidator, BaseModel, Field, ValidationError

from app import rulesets
from app.kernel.commands import Refused
from app.kernel.names import GameName
from app.store import game_commands, games
from app.store.tables import Game, Step
from app.web.deps import (
    SEQ_MAX,
    EditDep,
    OpenedDep,
    Seen,
    SessionDep,
    Since,
    field_errors,
    open_to_edit,
    session_of,
)
from app.web.errors import LINK_CHECKED_IN_ROUTE
from app.web.view import step_summary

router = APIRouter(prefix="/api/games", tags=["games"])


RulesetId = Annotated[str, Field(max_length=40), AfterValidator(rulesets.known)]


class NewGame(BaseModel):
    name: GameName
    seed: int | None = Field(default=None, ge=0, le=2**31 - 1)
    ruleset: RulesetId = rulesets.DEFAULT


class Rename(BaseModel):
    name: GameName


class UndoRequest(BaseModel):
    to_seq: int | None = Field(default=None, ge=0, le=SEQ_MAX)
    seen: int | None = Field(default=None, ge=0, le=SEQ_MAX)


class SeenInBody(BaseModel):
    """`seen` may also come in the command's JSON (then the query's wins)."""

    seen: int = Field(ge=0, le=SEQ_MAX)


def links(game: Game) -> dict[str, str]:
    return {"edit_url": f"/g/{game.edit_token}", "view_url": f"/v/{game.view_token}"}


def game_json(opened_game: Game, state: dict[str, Any], access: str) -> dict[str, Any]:
    data = {"id": opened_game.id, "name": opened_game.name, "ruleset": opened_game.ruleset,
            "seq": opened_game.seq, "access": access,
            "created_at": opened_game.created_at.isoformat(),
            "updated_at": opened_game.updated_at.isoformat(), **state,
            "view_token": opened_game.view_token, "view_url": f"/v/{opened_game.view_token}"}
    if access == "edit":
        data |= {"edit_token": opened_game.edit_token, **links(opened_game)}
    return data


def step_json(step: Step) -> dict[str, Any]:
    return {"seq": step.seq, "kind": step.kind, "actor": step.actor, "command": step.command,
            "entries": step.entries, "created_at": step.created_at.isoformat()}


@router.post("", status_code=201)
def create(body: NewGame, session: SessionDep) -> dict[str, Any]:
    game = games.create_game(session, body.name.strip() or body.name, body.seed, ruleset=body.ruleset)
    return {"id": game.id, "name": game.name, "ruleset": game.ruleset, "seq": game.seq,
            "edit_token": game.edit_token, "view_token": game.view_token, **links(game)}


def plain_json(content: dict[str, Any]) -> JSONResponse:
    """An answer already made of JSON values (a stored state and plain fields), sent as is: FastAPI
    would otherwise walk the whole state again to encode and check it."""
    return JSONResponse(content)


@router.get("/{token}", response_model=dict[str, Any])
def read(opened: OpenedDep, session: SessionDep):
    state = games.latest_step(session, opened.game).state
    return plain_json(game_json(opened.game, state, opened.access))


@router.get("/{token}/steps")
def read_steps(opened: OpenedDep, session: SessionDep, since: Since = -1) -> list[dict[str, Any]]:
    return [step_json(s) for s in games.steps(session, opened.game, since)]


@router.post("/{token}/commands")
def run(token: str, session: SessionDep, data: dict[str, Any], seen: Seen = None):
    """Run one command, e.g. `{"type": "add_bot", "bot": {...}}`. `seen`: the step the client
    last saw; if the game moved on and the command no longer fits, the answer is 409.

    A command that sets values (`edit_character`, `edit_bot`, `set_house_rules`, `adjust`,
    `set_activation_order`) also takes `expect`: the values the client saw of what it sets,
    `{thing: {field: value}}` where a thing is a model id, `"house"` or `"game"`, e.g.
    `{"<character id>": <the Character as read>}`, `{"house": <the house rules as read>}`,
    `{"<id>": {"health": 3}, "game": {"danger": 2}}`. Extra things and fields are ignored. If
    one of those values changed meanwhile the answer is 409 with `theirs` (the values now) and
    `yours` (what the command would set), and nothing is saved; without `expect`, such a
    command is 409 as soon as the game moved on past `seen`."""
    # opened here, in this worker thread, not in a dependency of its own; a wrong
    # `seen` or body still answers the link's 404 or 403 first (command_link below)
    opened = open_to_edit(token, session)
    expect = data.pop("expect", None)
    # a list is the command's own `seen` (the facts of a d20 NPC turn), not the step last seen
    if seen is None and "seen" in data and not isinstance(data["seen"], list):
        try:
            seen = SeenInBody.model_validate(data).seen
        except ValidationError as error:
            return JSONResponse({"detail": field_errors(error)}, status_code=422)
        data = {k: v for k, v in data.items() if k != "seen"}
    try:
        step = game_commands.run_command(session, opened.game, data, seen, expect=expect)
    except ValidationError as error:
        return JSONResponse({"detail": field_errors(error)}, status_code=422)
    except game_commands.Conflict as conflict:
        return conflict_json(conflict)
    except Refused as refused:
        raise HTTPException(400, refused.reason) from refused
    return step_answer(step)


async def command_link(request: Request) -> None:
    """The commands route's link alone, when FastAPI found a wrong field before calling it
    (errors.LINK_CHECKED_IN_ROUTE): its 404 or 403, as open_to_edit answers in the route."""
    async with session_of(request.app) as session:
        await run_in_threadpool(open_to_edit, request.path_params["token"], session)


LINK_CHECKED_IN_ROUTE[run] = command_link


def step_answer(step: games.StepRecord) -> Response:
    """A new step and the state after it, the state sent as the JSON text just stored (
    encoding the whole state again for the answer cost as much as storing it)."""
    head = json.dumps(step_json(step), ensure_ascii=False, separators=(",", ":"))
    state = step.state_text if step.state_text is not None else json.dumps(step.state)
    return Response(f'{head[:-1]},"state":{state}}}', media_type="application/json")


@router.post("/{token}/undo")
def undo(opened: EditDep, session: SessionDep, body: UndoRequest | None = None):
    body = body or UndoRequest()
    try:
        step = game_commands.undo(session, opened.game, body.to_seq, body.seen, describe=step_summary)
    except game_commands.Conflict as conflict:
        return conflict_json(conflict)
    except Refused as refused:
        raise HTTPException(400, refused.reason) from refused
    return step_answer(step)


def conflict_json(conflict: game_commands.Conflict) -> JSONResponse:
    """409: why, the step the game is at, and for a stale edit both versions of what it sets."""
    body: dict[str, Any] = {"detail": conflict.reason, "seq": conflict.seq}
    if conflict.theirs is not None:
        body |= {"theirs": conflict.theirs, "yours": conflict.yours}
    return JSONResponse(jsonable_encoder(body), status_code=409)


@router.post("/{token}/rename")
def rename(opened: EditDep, session: SessionDep, body: Rename) -> dict[str, Any]:
    game = games.rename(session, opened.game, body.name.strip() or body.name)
    return {"id": game.id, "name": game.name}


@router.post("/{token}/duplicate", status_code=201)
def duplicate(opened: EditDep, session: SessionDep) -> dict[str, Any]:
    game = games.duplicate(session, opened.game)
    return {"id": game.id, "name": game.name, "edit_token": game.edit_token,
            "view_token": game.view_token, **links(game)}


@router.delete("/{token}", status_code=204)
def delete(opened: EditDep, session: SessionDep) -> None:
    games.delete(session, opened.game)
