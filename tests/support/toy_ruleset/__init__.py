"""A toy fourth ruleset (issue 17): one folder that plugs in beside the others by one line of the
registry (app/rulesets/__init__.py). tests/web/test_toy_ruleset.py copies the app, drops this
folder in as app/rulesets/toy/ and adds "toy" to PACKAGES; nothing else changes. It has no web
part: its games get the shell's generic page. Its one rule, T-NAME: every NPC has a name of its own."""

from __future__ import annotations

from random import Random
from typing import Any

from pydantic import Field

from app.kernel.commands import Body, Commands, Entry, Refused
from app.kernel.frozen import Frozen
from app.kernel.names import Name
from app.rulesets.base import Ruleset


class House(Frozen):
    pass


class Npc(Frozen):
    id: str
    name: Name


class ToyState(Frozen):
    round: int = 1
    status: str = "playing"
    house: House = Field(default_factory=House)
    npcs: list[Npc] = Field(default_factory=list)

    def character(self, model_id: str) -> None:
        return None

    def bot(self, model_id: str) -> Npc | None:
        return next((n for n in self.npcs if n.id == model_id), None)


COMMANDS = Commands()


class AddNpc(Body):
    name: Name


@COMMANDS.command("add_npc", AddNpc)
def add_npc(state: ToyState, body: AddNpc, rng: Random) -> tuple[ToyState, list[Entry]]:
    if any(n.name == body.name for n in state.npcs):
        raise Refused(f"{body.name} is already here: every NPC has a name of its own.", "T-NAME")
    npc = Npc(id=f"n{len(state.npcs) + 1}", name=body.name)
    return state.model_copy(update={"npcs": [*state.npcs, npc]}), [Entry(f"{body.name} joins.", "T-NAME")]


def columns(state: ToyState) -> dict[str, Any]:
    return {"turn": state.round, "phase": 1, "danger": 0, "status": state.status}


RULESET = Ruleset(id="toy", name="Toy (one command)", summary="A test's ruleset: NPCs with names.",
                  state=ToyState, commands=COMMANDS, columns=columns,
                  glossary={"T-NAME": "Every NPC has a name of its own."})
