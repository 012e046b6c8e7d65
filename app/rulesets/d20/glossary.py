"""D20 rule id -> a plain one- or two-sentence summary, for the player who taps a rule badge.

Written from the d20 combat reference and docs/rules-d20.md (where a Core rule is missing, the
summary says the house default). Pure data: no I/O.
"""

from __future__ import annotations

AREAS: list[tuple[str, list[tuple[str, str]]]] = [
    ("The round", [
        ("D20-TURN", "On its turn a creature has an Action, a Move and a Minor, and one Reaction a round."),
        ("D20-ACTIONS", "Actions: Attack, Cast/Use Tech, Dash, Disengage, Aim, Overwatch, Grapple/Shove, "
                        "Use Item, Interact. Minors: draw or sling a weapon, open a door, quick comms, "
                        "toggle a device."),
        ("D20-REACTION", "One Reaction a round: Attack of Opportunity, Parry, Intercept, Counter-Hack or "
                         "Opportunity Cast; it comes back when the round ends."),
        ("D20-INITIATIVE", "The order of turns (the reference does not give it): house default d20 + "
                           "Agility, highest first; the tracker starts each creature's turn in that order."),
        ("D20-TURN-BUDGET", "Each creature's Action, Move and Minor are kept as spent for the turn; "
                            "spending one twice is refused, and out of its turn only a Reaction is left."),
        ("D20-TRACKER", "The tracker gives every living creature one turn a round: a death, a removal "
                        "or a newcomer never shifts anyone's turn; a newcomer whose count has passed acts "
                        "next round."),
        ("D20-DELAY", "Delay or Hold (a Core rule): before spending anything, the creature whose turn it "
                      "is waits and acts after a creature still to act this round."),
        ("D20-OUT", "The Dead, Dying, Unconscious and Temporally Displaced do nothing; the Dead, "
                    "Unconscious and Displaced cannot be attacked, and a pending attack by or on one "
                    "down is cancelled."),
        ("D20-AOO", "Leaving a threatened square provokes an Attack of Opportunity unless the mover "
                    "Disengages or has an ability."),
        ("D20-PARRY", "Parry (a Reaction) against a melee attack; house default: +2 DEF against it."),
        ("D20-INTERCEPT", "Intercept (a Reaction) when an ally next to the creature is attacked; house "
                          "default: it becomes the target."),
    ]),
    ("Attacks", [
        ("D20-ATTACK-MELEE", "Melee: d20 + Blade Waltz + Agility or Vigor + PB + item; damage adds Vigor "
                             "(strength-based) or Agility (finesse)."),
        ("D20-ATTACK-RANGED", "Ranged: d20 + Arrow Time + Agility + PB + item."),
        ("D20-ATTACK-TECH", "Relic, magic or tech: d20 + Timebender + Insight + PB. The effect names its "
                            "Saves and Conditions."),
        ("D20-EFFECT-SAVE", "An effect names a Save and a DC: d20 + that attribute (+ PB when proficient) "
                            "meeting the DC resists; a failure takes the effect's Condition."),
        ("D20-ATTACK-ROLL", "An attack hits when its total meets or beats the target's DEF."),
        ("D20-RANGE", "Short range is normal, beyond Short to Long is -2, past Long there is no shot."),
        ("D20-COVER", "Cover adds to DEF: light +1, medium +2, heavy +4, and no critical through heavy."),
        ("D20-CRIT", "A natural 20 hits and is a critical: double the damage dice (house default: it "
                     "always hits)."),
        ("D20-GLITCH", "A natural 1 misses and the attacker suffers a Glitch; house default: it loses "
                       "its next Minor."),
        ("D20-DAMAGE", "A hit deals the weapon's dice plus the attribute, at least 1 (house default)."),
        ("D20-EDGE", "Edge and Hindrance (a Core rule): house default, roll two d20 and keep the higher "
                     "or the lower; one of each cancels."),
    ]),
    ("Conditions", [
        ("D20-COND-BLEEDING", "Bleeding: lose 1d4 HP a round (at the start of the bleeder's turn); a "
                              "Medicine check of 12 stops it."),
        ("D20-COND-BLINDED", "Blinded: Hindrance to sight (melee attacks) and ranged attacks at -4."),
        ("D20-COND-DEAFENED", "Deafened: Hindrance to hearing checks; the GM says which checks."),
        ("D20-COND-CHARMED", "Charmed or Frightened: a Charm or Insight Save resists; the effect is the "
                             "GM's."),
        ("D20-COND-GRAPPLED", "Grappled or Restrained: Speed 0 and Hindrance on attacks."),
        ("D20-COND-POISONED", "Poisoned: -2 to checks (house default: attack rolls too); some poisons "
                              "deal damage over time."),
        ("D20-COND-PRONE", "Prone: melee attackers gain Edge, ranged attacks against it are at -2, and "
                           "standing up costs the Minor."),
        ("D20-COND-STUNNED", "Stunned: the creature loses its Action."),
        ("D20-COND-TEMPORAL", "Temporal Displacement: skip the next turn, then immune to it for one "
                              "round after the return."),
    ]),
    ("Dying and healing", [
        ("D20-DYING", "At 0 HP a creature falls Dying 1 and Wounded 1 (house default: each fall adds "
                      "Wounded +1); a hit while Dying adds Dying."),
        ("D20-DYING-SAVE", "On its turn a Dying creature makes a Vigor Save, DC 10 + Wounded: success "
                           "stabilises it at 1 HP, failure adds Dying +1."),
        ("D20-DEAD", "At Dying 4 the creature is dead."),
        ("D20-STABILIZE", "An ally stabilises a Dying creature with Medicine DC 12 (an Action)."),
        ("D20-KO", "Dropped to 0 HP by non-lethal intent: Unconscious for 1d4 minutes, not Dying."),
        ("D20-DURATION", "A condition given a duration ends at the end of its holder's turn that "
                         "many turns on; a knock-out's 1d4 minutes are 10 rounds a minute (house)."),
        ("D20-HEAL", "Heal or damage by a number: damage is taken as a hit's; healing a Dying "
                     "creature stabilises it, a knocked-out one wakes, the Dead stay dead."),
        ("D20-SHORT-REST", "Short Rest (10 minutes): spend 1 Hit Die to heal 1d8 (or the class die) + "
                           "Vigor."),
        ("D20-LONG-REST", "Long Rest (8 hours): full HP, Exhausted cleared, Wounded -1 (min 0)."),
        ("D20-TEMP-HP", "Temporary HP (a Core rule): lost before HP, never healed, not added up (the "
                        "higher grant stays); they end with a Long Rest."),
    ]),
    ("The NPC brain", [
        ("D20-ZONE", "An NPC's zone is counted in squares (house default 3); a Character next to it is "
                     "always inside."),
        ("D20-FACTS", "Squares, line of sight and cover are what you report; after a Move only the "
                      "squares to what the NPC moved toward are known, so any other shot is conditional."),
        ("D20-MOVE", "2038's Walk is one Move of Speed squares; its Run is Move + Dash, which spends "
                     "the Action."),
        ("D20-ACTION-PRIORITY", "The Action goes first to an attack that can do damage: melee when "
                                "adjacent, else a shot in line of sight and range; then the role's own use."),
        ("D20-DASH-FALLBACK", "With nothing better for its Action after a Move, the NPC Dashes on (house "
                              "default: Speed squares more), as 2038's fallback move."),
        ("D20-CONTACT-MELEE", "Next to a Character an NPC stays and attacks (a gunner shoots): walking "
                              "away would provoke an Attack of Opportunity."),
        ("D20-BRAIN-WEAPON", "An NPC takes the attack with the highest exact expected damage: a gunner "
                             "keeps its distance and shoots (next to a Character too) rather than punch."),
        ("D20-MINOR-DRAW", "A weapon not in hand is drawn with the Minor; without a Minor the NPC uses "
                           "what it holds."),
        ("D20-ROLE-TIES", "Equal squares are your choice: the tied names are listed and the first is "
                          "taken until you say otherwise."),
        ("D20-ROLE-HUNTER", "Hunter: the closest Character inside its zone, else the closest in line of "
                            "sight; it closes in and attacks."),
        ("D20-HUNTER-RANDOM", "A Hunter with nobody in its zone or sight moves its Speed in a rolled "
                              "direction (d8) and Dashes on the same way."),
        ("D20-ROLE-SENTRY", "Sentry: guards its subject and stays within one Move of it."),
        ("D20-SENTRY-RETURN", "A Sentry more than one Move from its subject moves back, attacks if it "
                              "can, else Dashes back."),
        ("D20-SENTRY-INTRUDER", "A Sentry charges the closest Character in its zone only when the charge "
                                "keeps it within one Move of its subject; else it shoots from its post."),
        ("D20-SENTRY-HOLD", "A Sentry with nobody to attack holds its post, on Overwatch when it has a "
                            "ranged weapon."),
        ("D20-ROLE-WORKER", "Worker: moves to its object and works it, an Action (a Minor for a door or "
                            "a device)."),
        ("D20-ROLE-PATROL", "Patrol: moves toward its waypoint and on to the next; standing on one, it "
                            "needs the squares to the next."),
        ("D20-PATROL-ROUTE", "A Patrol follows its waypoints as a Circuit (A B C A) or a Route "
                             "(A B C B A), as 2038's Patrol does."),
        ("D20-FACTS-KEPT", "Same as last round: an NPC that did not move reuses the squares you gave "
                           "last turn, when you say nothing moved."),
        ("D20-BRAIN-REACTION", "An NPC takes the first Reaction a trigger offers: Attack of Opportunity, "
                               "else Parry or Intercept when it has them."),
    ]),
]

GLOSSARY: dict[str, str] = {rule: text for _, rules in AREAS for rule, text in rules}


def summary(rule: str) -> str | None:
    return GLOSSARY.get(rule)
