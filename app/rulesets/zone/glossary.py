"""Zone rule ids (Z-…) and their meaning; docs/rules-zone.md maps seed 002 onto them."""

from __future__ import annotations

GLOSSARY: dict[str, str] = {
    "Z-ROUND": "Each round an NPC takes one action and one maneuver, or two maneuvers.",
    "Z-TURN": "Every model's turn is kept in the game: one action and one maneuver, or two maneuvers, "
    "a round; what is already spent is refused, and the page offers only what is left.",
    "Z-OUT": "A broken or dead model is out of the fight: it does nothing (its pending attack is "
    "cancelled), and nobody attacks it (house: NPCs may keep attacking a Broken Character).",
    "Z-INITIATIVE": "A fight's turn order: initiative cards 1 to 10, lowest first; the app draws for "
    "NPCs, the player enters each Character's card or lets the app draw; one tap to the next turn.",
    "Z-POOL": "A pool knows its dice: base dice (the attribute as trauma left it), skill dice and gear "
    "dice (the weapon's bonus); a number typed alone is skill dice.",
    "Z-GEAR": "A 1 on a gear die after a push lowers the weapon's bonus by one; at nothing it breaks.",
    "Z-GRAPPLE": "A grappled NPC cannot move away; it may only fight the one holding it, until let go.",
    "Z-DISARM": "A disarmed NPC's pending shot is cancelled; it picks its weapon up with a maneuver.",
    "Z-DIE-LATER": "Broken while starving (by damage) or dehydrated (by anything): death comes after "
    "another day without grub or water, never on the day it broke.",
    "Z-RECOVER-BROKEN": "Trauma past zero is not stored: one point of recovery brings a broken "
    "attribute back to 1.",
    "Z-BANDS": "Distances are range bands: Arm's Length, Near, Short (20–30 yards), Long (a few hundred "
    "yards), Distant (as far as you can see).",
    "Z-MOVE": "Moving one range step is a maneuver.",
    "Z-BANDS-KEPT": "An NPC's bands are kept from its last round, its own moves one step closer; the "
    "player reuses them with one tap (never assumed).",
    "Z-FACTS": "The player reports each Character's band and line of sight; without them the app "
               "decides nothing.",
    "Z-AIM": "Aiming with a gun is a maneuver; the aimed shot gets the house aim bonus (1 die by default).",
    "Z-RELOAD": "Reloading a gun is a maneuver.",
    "Z-PRONE": "An NPC on the ground (a knock-down stunt) gets up with one maneuver before anything else; "
    "its action is still there (a gun is then fired without aiming).",
    "Z-PICK-UP": "A disarmed NPC picks its weapon up from the ground with one maneuver; its action is "
    "still there.",
    "Z-DICE": "Skill rolls are pools of six-sided dice; each 6 is a success (house default, editable). "
    "One success is enough.",
    "Z-PUSH": "A pushed roll re-rolls every die that shows neither a success nor a 1.",
    "Z-PUSH-AFTER": "Roll, look, push: only the one who rolled pushes, after seeing the roll, before "
    "anyone else acts, never when broken; what the push brings is added (nothing dealt is rewritten).",
    "Z-PUSH-CHOICE": "House rule: whether an NPC pushes (never, when it has no success, always).",
    "Z-PUSH-COST": "After a push, each 1 on a base die is one trauma to the attribute rolled (Fight: "
    "damage, Shoot: fatigue); house rule: on by default.",
    "Z-FULL-AUTO": "Full automatic fire: each re-roll costs one more bullet, and may be pushed again "
                   "and again "
    "while bullets last.",
    "Z-CLOSE": "Close combat uses Fight at Arm's Length; some weapons (a scrap spear) reach Near.",
    "Z-SHOOT": "Ranged attacks use Shoot, with a ranged weapon, up to its range band; a shot uses a bullet.",
    "Z-STUNTS": "Each success beyond the first buys a stunt: one more damage each, one fatigue each "
    "(subdue, pin down), disarm, knock down or push back, or (close) a grapple.",
    "Z-STUNT-CHOICE": "House rule: the stunt an NPC buys with its extra successes (default: extra damage).",
    "Z-TRAUMA": "Damage decreases Strength, fatigue Agility, confusion Wits, doubt Empathy.",
    "Z-BROKEN": "An attribute at zero: the person is broken and takes no action.",
    "Z-BROKEN-TARGET": "House rule: NPCs turn from a Broken Character to the next threat (default), or "
    "keep attacking it.",
    "Z-BROKEN-STRENGTH": "Broken by damage: knocked out or in paralyzing pain, and a critical injury "
    "(the GM's table).",
    "Z-ROLE-ZONE": "An NPC's zone reaches the house band (Near by default): 2038's control zone in bands.",
    "Z-ROLE-HUNTER": "Hunter: the closest Character inside its zone (sight not needed), else the closest in "
    "sight; it fights in reach, else aims and shoots, else closes in.",
    "Z-HUNTER-RANDOM": "A Hunter with nobody in its zone or sight moves one step in a d8 direction "
                       "and seeks cover.",
    "Z-ROLE-SENTRY": "Sentry: stays within Near of its subject; guards it.",
    "Z-SENTRY-RETURN": "A Sentry further than Near from its subject moves back toward it.",
    "Z-SENTRY-INTRUDER": "A Sentry charges the closest intruder only if it stays within Near of its subject; "
    "else it shoots from its post.",
    "Z-SENTRY-HOLD": "A Sentry with nobody in its zone holds its post, shooting a Character in range "
                     "and sight.",
    "Z-ROLE-WORKER": "Worker: at Arm's Length of its object it works it (an action); else it moves "
                     "toward it.",
    "Z-WORKER-ARRIVE": "A Worker whose move brings it to Arm's Length of its object uses it the same round.",
    "Z-ROLE-PATROL": "Patrol: moves toward its waypoint; standing on it, toward the next one, along a "
    "Route (A B C B A) or a Circuit (A B C A).",
    "Z-PATROL-ROUTE": "A Patrol standing on its waypoint heads for the next one, and keeps that goal "
    "round after round, along its route and back to the first.",
    "Z-CONTACT": "A Worker or Patrol with a Character at Arm's Length fights it.",
    "Z-SLOT2": "After its move, an NPC's other slot attacks the closest Character it can reach, else "
               "moves on.",
    "Z-DAY": "Each day every Character needs a ration of grub, a ration of water and four hours of sleep.",
    "Z-COND-STARVING": "A day without grub: starving. No recovering damage; one more damage per day without "
    "grub; broken by damage while starving, another day without grub kills.",
    "Z-COND-DEHYDRATED": "A day without water: dehydrated. No recovering any trauma; one damage and "
                         "one fatigue "
    "per day without water; broken while dehydrated, another day kills.",
    "Z-COND-SLEEPLESS": "A day without four hours of sleep: sleepless. No recovering confusion; one more "
    "confusion per day; broken by confusion while sleepless, collapse for four hours.",
    "Z-COND-HYPOTHERMIC": "A failed Endure roll in the cold: hypothermic, one damage and one "
                          "confusion at once; "
    "no restoring Strength or Wits; broken by damage, the next failed roll kills.",
    "Z-RECOVER": "Recovering trauma is refused where a condition forbids it.",
}
