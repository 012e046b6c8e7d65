"""What the turn panel needs beyond the state, registered as a panels context hook: the step
just made (its effect, shown at once) and Phase 3's to-do list sorted into engagements, Shoot
actions and the rest. Board facts are never carried over: they belong to one activation."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, select

from app.rules.engagements import open_engagements
from app.rules.models import Bot, Character, DecidedAction, GameState
from app.rules.play import offline
from app.rules.slots import open_slot, pending
from app.tables import Step
from app.web.deps import Opened
from app.web.panels import CONTEXT_HOOKS

# Steps that only set up the game: their effect is not a turn's news.
SETUP_KINDS = {"create", "add_character", "edit_character", "remove_character", "add_bot", "edit_bot",
               "remove_bot"}
MELEE_ACTIONS = ("melee",)  # resolved as an engagement in Phase 3 (Smash, Start Fire: the player resolves)
SHOOT_ACTIONS = ("shoot",)


def phase3_work(state: GameState) -> dict[str, Any]:
    """Engagements, then Shoot actions (held until every melee is settled: R-CMB-ORDER), then the
    rest. A bot with an open slot and its Attack family unused may shoot too (R-CMB-SHOOT-ACTION):
    it is listed with no decided action and no target yet."""
    work: dict[str, Any] = {"engagements": [], "shots": [], "others": []}
    for bot_id, action in state.pending_actions():
        bot = state.bot(bot_id)
        if bot is None:
            continue
        target = state.character(action.target_id) if action.target_id else None
        kind = ("engagements" if action.action in MELEE_ACTIONS and target else
                "shots" if action.action in SHOOT_ACTIONS else "others")
        work[kind].append((bot, target, action))
    work["shots"] += [(bot, None, None) for bot in may_shoot(state)]
    work["shots_held"] = open_engagements(state)
    return work


def may_shoot(state: GameState) -> list[Bot]:
    """Armed, loaded bots that activated, are not rebooted, have no Shoot waiting and still have
    an open slot with their Attack family unused."""
    return [bot for bot in state.in_order()
            if state.decision(bot.id) is not None and bot.health > 0 and not offline(state, bot)
            and bot.shoot_range is not None and sum(bot.shoot.values()) and not bot.out_of_ammo
            and pending(state, bot.id, "shoot", "attack") is None
            and open_slot(state, bot.id, "attack") is not None]


def facts_stand(state: GameState, bot: Bot, target: Character | None, action: DecidedAction | None) -> bool:
    """R-ACT-FACTS: the plan's line of sight and range still stand for a decided shot that is not
    `conditional` (the bot did not move, or moved toward this very target); otherwise the form
    asks afresh, unticked. Whatever the default, the player confirms both when the shot resolves."""
    return target is not None and action is not None and not action.conditional


def danger_history(session: Session, game_id: int, state: GameState) -> list[dict[str, Any]]:
    """Danger at the end of each turn played (the latest end_turn step of each turn wins, so a turn
    replayed after an undo counts once), then now: the track over the turns (R-DANGER)."""
    ended: dict[int, int] = {}
    rows = session.exec(select(Step.state).where(Step.game_id == game_id, Step.kind == "end_turn")
                        .order_by(col(Step.seq)))
    for after in rows:  # the state after ending turn N is turn N + 1's start
        ended[int(after.get("turn", 1)) - 1] = int(after.get("danger", 0))
    points = [{"turn": t, "danger": d, "now": False} for t, d in sorted(ended.items()) if t < state.turn]
    return points + [{"turn": state.turn, "danger": state.danger, "now": True}]


def turn_context(opened: Opened, session: Session, context: dict[str, Any]) -> dict[str, Any]:
    state: GameState = context["state"]
    step = context["step"]
    news = step if step.kind not in SETUP_KINDS and step.seq > 0 else None
    extra: dict[str, Any] = {"dice_mode": state.house.dice_mode, "news": news,
                             "alive_characters": [c for c in state.characters if c.health > 0],
                             "alive_bots": [b for b in state.bots if b.health > 0],
                             "danger_history": danger_history(session, opened.game.id, state)}
    if state.phase == 2:
        extra["order"] = [b for b in state.in_order() if b.health > 0]
    if state.phase == 3:
        extra |= phase3_work(state)
        extra["facts_stand"] = facts_stand
    return extra


CONTEXT_HOOKS.append(turn_context)
