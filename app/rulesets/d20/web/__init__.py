"""The d20 ruleset's web side (docs/rulesets.md): its game page and panels, the route its forms
post to, and its stateless rules API (app/rulesets/d20/web/d20_api.py) under /api/rulesets/d20."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse

from app.rulesets.base import RulesetWeb
from app.rulesets.d20.books import upcoming
from app.rulesets.d20.conditions import budget
from app.rulesets.d20.game import D20State
from app.rulesets.d20.glossary import GLOSSARY
from app.rulesets.d20.models import CONDITIONS
from app.rulesets.d20.play_round import attack_preview
from app.rulesets.d20.play_tracker import likely_target, next_up
from app.rulesets.d20.starters import STARTERS
from app.rulesets.d20.web import d20_api
from app.store import games
from app.web.command_forms import FormValues, expect_of, form_to_body, int_or_none
from app.web.deps import EditDep, FormDep, Opened, SessionDep
from app.web.templating import templates

PAGE = "d20/game.html"
PANELS = {"status": "d20/_status.html", "turn": "d20/_turn.html", "roster": "d20/_roster.html"}
api = d20_api.router


def d20_only(opened: EditDep) -> None:
    """These routes are a d20 game's: any other game answers 404, never runs d20 rules on its state."""
    if opened.game.ruleset != "d20":
        raise HTTPException(404, "This page belongs to d20 games.")


router = APIRouter(include_in_schema=False)

# the log's labels of the d20's own commands (the 2038 and zone ones keep theirs)
STEP_LABELS = {"add_npc": "NPC added", "duplicate": "Duplicated", "remove": "Removed",
                    "npc_turn": "NPC turn",
                    "start_turn": "Turn start", "attack": "Attack", "set_condition": "Condition",
                    "rest": "Rest", "temp_hp": "Temporary HP", "stabilize": "Stabilize", "staunch": "Staunch",
                    "save": "Save",
                    "set_initiative": "Initiative", "next_turn": "Next turn", "spend": "Turn part",
                    "delay": "Delay", "heal": "Heal", "damage": "Damage",
                    "end_round": "End of round"}


def context(opened: Opened, session, ctx: dict[str, Any]) -> dict[str, Any]:
    """The NPCs still to take their turn this round, the Characters who can be seen, the news,
    and what is left of the acting creature's turn (the page offers only that: D20-TURN-BUDGET)."""
    state: D20State = ctx["state"]
    taken = {b for b in state.began if b not in state.delayed}
    waiting = [n for n in state.npcs if state.turn_of(n.id) is None and not n.dead and n.id not in taken]
    living = [c for c in state.characters if not c.dead]
    members = [*state.characters, *state.npcs]
    due = state.member(next_up(state) or "") if state.initiative else None
    acting = state.member(state.acting or "")
    return {"npc_up": npc_up(state, [n.id for n in waiting]), "waiting_npcs": waiting, "living": living,
            "members": members, "due": due, "due_delayed": due is not None and due.id in state.delayed,
            "acting_member": acting, "left": left_of(acting) if acting is not None else None,
            "delay_to": [m for i in upcoming(state) if (m := state.member(i)) is not None],
            # D20-OUT: only those who can act attack; only those who can be attacked are targets
            "attackers": [m for m in members if not m.combatant().down],
            "targets": [m for m in [*state.npcs, *state.characters] if m.combatant().attackable],
            "startable": [c for c in living if c.id not in taken],
            # on a Character's turn the attack form comes up, set to it and its likely foe
            "character_acting": state.character(state.acting or "") is not None,
            "likely_target": likely_target(state),
            "news": ctx["step"] if ctx["step"].seq > 0 else None,
            # the healing forms offer the Dying (D20-STABILIZE) and the Bleeding first
            "dying_first": sorted(members, key=lambda m: not (m.dying and not m.dead)),
            "bleeding_first": sorted(members, key=lambda m: "bleeding" not in m.conditions)}


def left_of(member: Any) -> dict[str, Any]:
    """D20-TURN-BUDGET: what is left of its turn (Action, Move, Minor; the round's Reaction)."""
    c = member.combatant()
    turn = budget(c)
    return {"action": turn.action, "move": turn.move > 0, "minor": turn.minor, "reaction": turn.reaction,
            "prone": c.has("prone"), "down": c.down, "why": [text for text, _ in turn.why]}


def npc_up(state: D20State, waiting: list[str]) -> str | None:
    """The NPC card to open: with the tracker, the acting NPC or the next one up (D20-INITIATIVE);
    without it, the first still to act."""
    if not state.initiative:
        return waiting[0] if waiting else None
    nexts = [state.acting] if state.acting else []
    nexts += upcoming(state)[:1]
    return next((i for i in nexts if i in waiting), None)


def unreported_dropped(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A Character whose squares were left blank was not reported: no fact at all (D20-FACTS)."""
    blank = {n.removesuffix(".distance") for n, v in items
             if n.startswith("seen.") and n.endswith(".distance") and not v.strip()}
    return [(n, v) for n, v in items if not any(n.startswith(b + ".") for b in blank)]


@router.post("/g/{token}/d20/{panel}", response_class=HTMLResponse, dependencies=[Depends(d20_only)])
def d20_command(request: Request, panel: str, opened: EditDep, session: SessionDep, posted: FormDep):
    """Any d20 command from a form (hidden `type`, fields named as its JSON); the answer is the
    panel it came from (`roster` or `turn`) with the other step panels out of band."""
    from app.web.routes.steps import run  # the shared command runner (answers, 409s, refusals in place)

    items = [(k, v) for k, v in posted.multi_items() if isinstance(v, str)]
    form = FormValues(items)
    data = form_to_body(unreported_dropped(items))
    main = panel if panel in ("roster", "turn") else "turn"
    return run(request, opened, session, data, int_or_none(form.get("seen")), main=main, form=form,
               expect=expect_of(form.get("expect")))


@router.get("/g/{token}/d20/odds", response_class=HTMLResponse)
def attack_odds(request: Request, opened: EditDep, session: SessionDep, attacker_id: str = "",
                target_id: str = "", weapon: str = "", range: Literal["short", "long", "beyond"] = "short",
                cover: Literal["none", "light", "medium", "heavy"] = "none"):
    """The exact odds of the attack the form describes, before it is rolled (D20-ATTACK-ROLL):
    the form asks again whenever one of its fields changes. A game of another ruleset has no
    d20 attack: the fragment only says what to choose."""
    state = games.current_state(session, opened.game)
    odds = None
    if isinstance(state, D20State):
        odds = attack_preview(state, attacker_id[:40], target_id[:40], weapon[:80], range, cover)
    return templates.TemplateResponse(request, "d20/_attack_odds.html", {"o": odds})


WEB = RulesetWeb(page=PAGE, panels=PANELS, context=context, router=router, api=api, step_labels=STEP_LABELS,
                 template_globals={"D20_CONDITIONS": CONDITIONS, "D20_GLOSSARY": GLOSSARY,
                                   "D20_STARTERS": STARTERS})
