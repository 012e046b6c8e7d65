"""The one Reaction a round (D20-REACTION): Attacks of Opportunity (D20-AOO), Parry
(D20-PARRY) and Intercept (D20-INTERCEPT), and what an NPC keeps its Reaction for.

"Leaving a threatened square triggers an Attack of Opportunity unless you Disengage or have an
ability." Parry's and Intercept's effects are Core rules the reference does not give: house
defaults (docs/rules-d20.md § Core rules).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.rulesets.d20.brain_plan import Plan
from app.rulesets.d20.brain_types import Npc, Step
from app.rulesets.d20.conditions import budget

TRIGGERS = ("leaves", "melee_attacked", "ally_attacked")


@dataclass(frozen=True, slots=True)
class Trigger:
    """What just happened near the NPC: a Character leaving a square it threatens (`disengaged`
    or `ability` spare it), a melee attack on the NPC, or an attack on an ally next to it."""

    kind: str
    character: str
    disengaged: bool = False
    ability: bool = False


def provokes(trigger: Trigger) -> bool:
    """D20-AOO: leaving a threatened square without Disengaging or an ability."""
    return trigger.kind == "leaves" and not trigger.disengaged and not trigger.ability


def react(npc: Npc, trigger: Trigger) -> Step | None:
    """D20-BRAIN-REACTION: an NPC takes the first Reaction a trigger offers (it cannot know what
    comes later in the round): Attack of Opportunity, else Parry or Intercept when it has them."""
    if not budget(npc.stats).reaction:
        return None
    name, who = npc.name, trigger.character
    if provokes(trigger):
        return Step("reaction", "attack_of_opportunity", who, f"{who} leaves a square {name} threatens "
                    "without Disengaging, so it makes an Attack of Opportunity (its Reaction).", "D20-AOO")
    if trigger.kind == "melee_attacked" and "parry" in npc.features:
        return Step("reaction", "parry", who, f"{who} attacks {name} in melee, so it Parries (its "
                    "Reaction).", "D20-PARRY")
    if trigger.kind == "ally_attacked" and "intercept" in npc.features:
        return Step("reaction", "intercept", who, f"{who} attacks an ally next to {name}, so it "
                    "Intercepts (its Reaction).", "D20-INTERCEPT")
    return None


def ready_reaction(plan: Plan) -> None:
    """The turn's card says what the NPC keeps its Reaction for (D20-REACTION)."""
    if not plan.turn.reaction:
        plan.why["reaction"] = ("its Reaction is spent this round", "D20-REACTION")
        return
    extra = [name for name in ("parry", "intercept") if name in plan.npc.features]
    more = f", else {' or '.join(e.title() for e in extra)}" if extra else ""
    plan.add(Step("reaction", "ready", None, f"{plan.name} keeps its Reaction: an Attack of Opportunity on "
                  f"any Character that leaves a square it threatens without Disengaging{more}.", "D20-AOO"))
