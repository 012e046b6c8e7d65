"""The zone ruleset's web side (docs/rulesets.md): its game page and panels, its form route, and
its stateless rules API under /api/rulesets/zone (docs/api.md § Rulesets)."""

from __future__ import annotations

from random import Random
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.rulesets.base import RulesetWeb
from app.rulesets.zone.brain import Facts, Target
from app.rulesets.zone.commands import CharacterSheet, NpcSheet, sheet_of
from app.rulesets.zone.dice import (
    MAX_POOL,
    MAX_PUSHES,
    PoolRoll,
    die_success,
    odds_of,
    policy_distribution,
    pool_odds,
    rerolled_count,
)
from app.rulesets.zone.models import BAND_NAMES, BANDS, Character, Npc, ZoneHouse, ZoneState
from app.rulesets.zone.npc_rolls import attack_parts
from app.rulesets.zone.roles import decide
from app.rulesets.zone.sheets import NPC_SHEETS
from app.rulesets.zone.web.views import round_view, sheet_fills
from app.web.command_forms import FormValues, expect_of, form_to_body, int_or_none
from app.web.deps import EditDep, FormDep, Opened, SessionDep

PAGE = "zone/game.html"
PANELS = {"status": "zone/_status.html", "turn": "zone/_turn.html", "roster": "zone/_roster.html"}
router = APIRouter(include_in_schema=False)
api = APIRouter()

# the log's labels of the zone's own commands (the 2038 ones keep theirs)
STEP_LABELS = {"add_npc": "NPC added", "remove_npc": "NPC removed", "activate_npc": "NPC round",
                    "npc_attack": "NPC attack", "character_attack": "Character attack",
                    "end_round": "End of round",
                    "pass_day": "End of day", "endure_cold": "Endure the cold", "warm_up": "Warm again",
                    "recover": "Recovery", "start_fight": "Initiative", "next_turn": "Next turn",
                    "end_fight": "End of the fight", "character_maneuver": "Maneuver", "push_roll": "Push",
                    "edit_character": "Sheet changed", "edit_npc": "Sheet changed",
                    "end_grapple": "Grapple ends"}


# --- odds of an NPC's decided attack (the decision card shows them before the roll) --------


def attack_dice(npc: Npc, name: str, aimed: bool, house: ZoneHouse) -> int:
    """Z-POOL: the dice the NPC's attack rolls (what the card shows is what is rolled)."""
    return attack_parts(npc, name == "fight", aimed, house)[1].total


def npc_pushes(npc: Npc, name: str, house: ZoneHouse) -> int:
    """Z-PUSH-CHOICE / Z-FULL-AUTO: how many re-rolls the NPC may make: one, or with full automatic
    fire one per bullet left after the shot (none with its last bullet: a push costs a bullet)."""
    if house.npc_push == "never":
        return 0
    gun = npc.gun
    if name == "shoot" and gun is not None and gun.full_auto:
        return max(0, min(MAX_PUSHES, gun.bullets - 1))
    return 1


def npc_odds(npc: Npc, name: str, aimed: bool, house: ZoneHouse) -> dict[str, Any]:
    """The exact odds of an NPC's attack as it will really be rolled: pushed by the house policy
    (Z-PUSH-CHOICE: by default only a roll with no success), full auto again and again while it has
    no success and bullets last (Z-FULL-AUTO)."""
    dice, pushes = attack_dice(npc, name, aimed, house), npc_pushes(npc, name, house)
    again = name == "shoot" and npc.gun is not None and npc.gun.full_auto
    exact = policy_distribution(dice, house.success_faces, house.npc_push, pushes, again)
    return {**odds_of(exact, pushes), "policy": house.npc_push}


def card_odds(state: ZoneState) -> dict[str, dict[str, Any]]:
    """npc id -> the odds of its pending attack."""
    odds = {}
    for decision in state.decisions:
        npc = state.bot(decision.npc_id)
        attack = next((a for a in decision.actions if a.status == "pending"), None)
        if npc is None or attack is None:
            continue
        aimed = any(a.name == "aim" for a in decision.actions)
        odds[npc.id] = npc_odds(npc, attack.name, aimed, state.house)
    return odds


def pushable(state: ZoneState) -> list[dict[str, Any]]:
    """Z-PUSH-AFTER: each Character's roll this round that may still be pushed, as the page shows it
    before the Push button: the faces, what a push re-rolls, what it risks, its chance of more."""
    faces = state.house.success_faces
    out = []
    for c in state.characters:
        last, target = c.last_roll, state.bot(c.last_roll.npc_id) if c.last_roll else None
        if last is None or target is None:
            continue
        pool = PoolRoll(tuple(tuple(r) for r in last.rolls), tuple(faces), last.by)
        again = rerolled_count(pool)
        p_more = float(1 - (1 - die_success(faces)) ** again)
        arm = c.weapons[last.weapon] if last.weapon is not None else None
        out.append({"character": c, "target": target, "pool": pool, "again": again, "p_more": p_more,
                    "bullets": arm.bullets if arm is not None and last.full_auto else None})
    return out


def context(opened: Opened, session, ctx: dict[str, Any]) -> dict[str, Any]:
    state: ZoneState = ctx["state"]
    return {"card_odds": card_odds(state), "pushable": pushable(state), **round_view(state),
            "living": [c for c in state.characters if not c.dead],
            "news": ctx["step"] if ctx["step"].seq > 0 else None,
            # the add form just used stays open for the next one (a roster is built in a row)
            "adding": ctx["step"].kind if ctx["step"].kind in ("add_character", "add_npc") else None}


# --- the page's forms ----------------------------------------------------------------------


def unreported_facts_dropped(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A Character left at "—" (not on the table, or not reported) is no fact at all (Z-FACTS)."""
    blank = {n.removesuffix(".band") for n, v in items if n.endswith(".band") and n.startswith("facts.seen.")
             and not v.strip()}
    return [(n, v) for n, v in items if not any(n.startswith(b + ".") for b in blank)]


def typed_faces(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Entered dice typed as "6 3 1": `_faces` becomes `faces[]`, `_push_N` `pushes.N[]` (Z-DICE);
    `_pushes` holds every push, "/" between them ("3 4 / 2 6": full auto pushes again, Z-FULL-AUTO)."""
    out = list(items)
    for name, value in items:
        if name == "_pushes":
            for i, one in enumerate(p for p in value.replace("|", "/").split("/")[:30] if p.strip()):
                out += [(f"pushes.{i}[]", face) for face in one.replace(",", " ").split()[:60]]
        target = "faces[]" if name == "_faces" else None
        if name.startswith("_push_"):
            target = f"pushes.{name.removeprefix('_push_')}[]"
        if target is not None:
            out += [(target, face) for face in value.replace(",", " ").split()[:60]]
    return out


def flat(prefix: str, data: dict[str, Any]) -> dict[str, str]:
    """A sheet as form fields ("npc.gun.bullets": "6"), as the NPC form names them."""
    out: dict[str, str] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            out |= flat(f"{prefix}.{key}", value)
        else:
            out[f"{prefix}.{key}"] = str(value).lower() if isinstance(value, bool) else str(value)
    return out


# Starting sheets for NPCs (app/rulesets/zone/sheets.py), one pick on the form.
# Only what the player left at the form's default is filled; anything typed stays.
SHEETS: dict[str, tuple[str, dict[str, str]]] = {
    key: (label, flat("npc", sheet)) for key, (label, sheet) in NPC_SHEETS.items()}
FORM_DEFAULTS = {"npc.fight": "3", "npc.shoot": "0", "npc.melee.name": "Fists", "npc.melee.damage": "1",
                 "npc.melee.reach": "arms_length"}


def with_sheet(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """`_sheet`: the chosen starting sheet fills the fields left blank or at the form's default."""
    chosen = SHEETS.get(dict(items).get("_sheet", ""))
    if chosen is None:
        return items
    sheet = chosen[1]
    kept = [(n, v) for n, v in items
            if not (n in sheet and (not v.strip() or v.strip() == FORM_DEFAULTS.get(n)))]
    told = {n for n, _ in kept}
    return kept + [(n, v) for n, v in sheet.items() if n not in told]


def blank_draws_dropped(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Z-INITIATIVE: a Character's card left blank is the app's to draw."""
    blank = {n.removesuffix(".card") for n, v in items if n.startswith("draws.") and n.endswith(".card")
             and not v.strip()}
    return [(n, v) for n, v in items if not any(n.startswith(b + ".") for b in blank)]


ATTACK_DEFAULTS = {"pool": "4", "weapon_damage": "1"}  # the attack form's prefilled values
PARTS_DEFAULTS = {"pool.base": "", "pool.skill": "4", "pool.gear": ""}


def picked_weapon(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """`_weapon` = "c1:0": that Character attacks with the first weapon of its sheet; the dice and
    damage the form left at their defaults come from the sheet (Z-CLOSE, Z-SHOOT, Z-POOL). The
    page's pick fills the fields it shows (zone.js), so what is on screen is what is rolled."""
    who, _, index = dict(items).get("_weapon", "").partition(":")
    if not who or not index.isdigit():
        return items
    told = dict(items)
    parts_left = all(told.get(n, "").strip() == v for n, v in PARTS_DEFAULTS.items())
    kept = [(n, v) for n, v in items if n not in ("character_id", "kind")
            and not (n in ATTACK_DEFAULTS and v.strip() in ("", ATTACK_DEFAULTS[n]))
            and not (parts_left and n in PARTS_DEFAULTS)]
    return [*kept, ("character_id", who), ("weapon", index)]


@router.post("/g/{token}/zone/{panel}", response_class=HTMLResponse)
def zone_command(request: Request, panel: str, opened: EditDep, session: SessionDep, posted: FormDep):
    """Any zone command from a form (hidden `type`, fields named as its JSON); the answer is the
    panel it came from (`roster` or `turn`) with the other step panels out of band."""
    from app.web.routes.steps import run  # the shared command runner (answers, 409s, refusals in place)

    items = [(k, v) for k, v in posted.multi_items() if isinstance(v, str)]
    form = FormValues(items)
    items = blank_draws_dropped(picked_weapon(with_sheet(items)))
    data = form_to_body(typed_faces(unreported_facts_dropped(items)))
    main = panel if panel in ("roster", "turn") else "turn"
    return run(request, opened, session, data, int_or_none(form.get("seen")), main=main, form=form,
               expect=expect_of(form.get("expect")))


# --- the stateless rules API (docs/api.md § Rulesets) --------------------------------------------


class OddsRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    dice: int = Field(ge=0, le=MAX_POOL)
    push: bool = False
    pushes: int | None = Field(default=None, ge=0, le=MAX_PUSHES)  # full auto: re-rolls (Z-FULL-AUTO)
    success_faces: list[int] = Field(default_factory=lambda: [6], min_length=1, max_length=5)
    # Z-PUSH-CHOICE: the odds as an NPC under this policy rolls (`pushes` > 1: full auto, again
    # while it has no success); without it, `push` re-rolls unconditionally as before
    policy: Literal["never", "no_success", "always"] | None = None

    @field_validator("success_faces")
    @classmethod
    def faces_of_a_d6(cls, faces: list[int]) -> list[int]:
        if any(not 1 <= f <= 6 for f in faces):
            raise ValueError("faces of a six-sided die are 1 to 6")
        return faces


@api.post("/odds")
def odds(body: OddsRequest) -> dict[str, Any]:
    """Z-DICE, Z-PUSH: exact odds of a pool; `push` re-rolls once every die showing neither a
    success nor a 1; `pushes` (full auto) that many times."""
    pushes = body.pushes if body.pushes is not None else int(body.push)
    if body.policy is not None:
        exact = policy_distribution(body.dice, body.success_faces, body.policy, pushes, pushes > 1)
        return {**odds_of(exact, pushes), "push": body.push, "policy": body.policy}
    return {**pool_odds(body.dice, body.success_faces, pushes), "push": body.push}


class Named(CharacterSheet):
    id: str = Field(max_length=40)


class ActivationRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    npc: NpcSheet
    characters: list[Named] = Field(default_factory=list, max_length=50)
    facts: Facts = Field(default_factory=Facts)
    house: ZoneHouse = Field(default_factory=ZoneHouse)
    seed: int | None = Field(default=None, ge=0, le=2**31 - 1)


@api.post("/activation")
def activation(body: ActivationRequest) -> dict[str, Any]:
    """Z-ROUND: an NPC's round from the board facts, every line with its reason and rule id, and
    the exact odds of its attack."""
    npc = body.npc.as_npc("npc")
    people = {c.id: Character(id=c.id, name=c.name, attributes=c.attributes) for c in body.characters}
    unknown = [i for i, f in enumerate(body.facts.seen) if f.character_id not in people]
    if unknown:
        loc = ["body", "facts", "seen", unknown[0], "character_id"]
        said = "Value error, not one of the characters"
        raise HTTPException(422, [{"type": "value_error", "loc": loc, "msg": said}])
    targets = [Target(people[f.character_id], f) for f in body.facts.seen]
    plan = decide(npc, body.house, targets, body.facts, Random(body.seed))
    actions = [a.model_dump(mode="json") for a in plan.actions]
    for a in actions:
        if a["name"] in ("fight", "shoot"):
            aimed = any(b["name"] == "aim" for b in actions)
            a["odds"] = npc_odds(npc, a["name"], aimed, body.house)
    return {"actions": actions, "ties": plan.ties, "notes": plan.notes, "needs": plan.needs}


WEB = RulesetWeb(page=PAGE, panels=PANELS, context=context, router=router, api=api, step_labels=STEP_LABELS,
                 template_globals={"ZONE_BANDS": BANDS, "ZONE_BAND_NAMES": BAND_NAMES, "ZONE_SHEETS": SHEETS,
                                   "ZONE_SHEET_FILLS": sheet_fills(SHEETS), "zone_sheet_of": sheet_of})
