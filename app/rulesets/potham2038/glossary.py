"""Rule id -> a plain one- or two-sentence summary, for the player who taps a rule badge.

Written from docs/rules.md and docs/design-rules.md; where they differ from the seeds (000 Quick
Reference, 001 Combat Flowchart) the seeds' reading is the one summarised (docs/rules.md § 6),
e.g. a rebooted bot does not even Defend (R-GLITCH-REBOOT). Pure data: no I/O.
"""

from __future__ import annotations

# (area, [(rule id, summary)]) in the order of the /rules page.
AREAS: list[tuple[str, list[tuple[str, str]]]] = [
    ("Measuring and facts", [
        ("R-ZONE",
         "A model is inside a Control Zone when its distance (base edge to base edge) is at most "
         "the zone: 3\" for an AI-Bot unless a Special Rule changes it, 2\" for a Character. Base "
         "contact is inside every zone."),
        ("R-LOS",
         "Line of sight, distances and base contact are facts you report from the table; the app "
         "never guesses them."),
        ("R-ACT-FACTS",
         "Facts are measured before the bot moves; after a move only the distance to what it "
         "moved toward is known. A shot at anyone else is conditional: you confirm line of sight "
         "and range in Phase 3."),
        ("R-ACT-UNKNOWN",
         "The app never guesses a distance: a Worker or Patrol whose distance was not given does "
         "not move, and a note says why."),
    ]),
    ("Marked", [
        ("R-MARK-MOVE",
         "In Phase 1, each time an AI-Bot enters a moving Character's zone (re-entries too) that "
         "Character gains +1 Marked. The bot does not activate."),
        ("R-MARK-ACT",
         "When an AI-Bot activates in Phase 2, every Character inside its zone gains +1 Marked, "
         "once per bot per turn."),
        ("R-SCAN",
         "Scan: +1 Marked to one Character that is both in the bot's line of sight and inside its "
         "zone. Nobody eligible, no Scan."),
        ("R-NOISE",
         "Noise: if any AI-Bot zone contains the Character, it gains +1 Marked in total and "
         "Danger +1; outside every zone nothing happens. It does not move any bot."),
        ("R-ALARM",
         "Alarm: the Character gains +1 Marked per AI-Bot zone containing it, and Danger +1 "
         "always."),
        ("R-EVENT-ONE",
         "One Event per turn (\"Draw one Event\"); a second is refused unless you mark it as "
         "drawn by an effect."),
        ("R-MARK-EVENT",
         "An Event's Marked stacks are applied as you record the Event, when it is drawn."),
        ("R-MARK-CLEAR",
         "Every Marked stack is removed at the end of Phase 4."),
        ("R-MARKED-TARGET",
         "Marked gives no bonus by itself. A bot with the Special Rule Marked Target adds +1 to "
         "its attack total per Marked stack on its target, in melee and Shoot."),
        ("R-MARKED-TARGET-COUNTER",
         "In a counter-attack the AI-Bot is still the attacker, so Marked Target still adds to "
         "its Melee total; the Character's total gets no bonus."),
    ]),
    ("AI-Bot actions", [
        ("R-ACT-TWO",
         "Each AI-Bot has two normal actions: the first follows its Primary Directive, the second "
         "uses a different Action Family (Maneuver, Scan, Interact, Attack)."),
        ("R-ACT-FALLBACK",
         "When no legal or logical action in an unused family remains, the second action is "
         "another Maneuver at 50% Walk, flagged as the fallback. You may do or skip it."),
        ("R-ACT-PHASE",
         "Movement happens in Phase 2, Melee and Shoot in Phase 3; Scan and Interact resolve at "
         "once. Characters act in Phase 1."),
        ("R-PHASE-MOVE",
         "No movement in Phase 3: an open slot becomes a Scan, Reload or Interact where legal, else "
         "stays empty. A free Glitch Shoot or Melee waits for Phase 3, a free move for Phase 2."),
        ("R-ACT-MOVE",
         "A bot Walks when a Walk gets it there, otherwise it Runs. A knocked-down bot's first "
         "action is Stand Up."),
        ("R-ACT-ORDER",
         "You choose the AI-Bots' activation order. The order is a plan: any bot not yet "
         "activated may go next."),
        ("R-ACT-INTERACT",
         "The Interacts the app decides are a Worker activating its object and a Reload; "
         "Open/Close, Search, Smash and Start Fire are yours to play."),
        ("R-ACT-SHOOT-ANY",
         "Every role may Shoot a Character in line of sight and range when it has ammunition, no "
         "base contact and an unused Attack, rather than idle or take the fallback."),
        ("R-ACT-RELOAD",
         "A bot out of ammunition spends an unused Interact on Reload before any fallback move; "
         "the Reload clears Out of Ammo at once."),
        ("R-CONTACT-MELEE",
         "A bot in base contact with a Character stays and fights: its first action is Melee (a "
         "knocked-down bot stands up first)."),
        ("R-SLOT2-PRIORITY",
         "A free action goes to Melee in base contact, else Shoot, else Scan, else Reload; the "
         "bot's focus is preferred, else the closest Character."),
        ("R-PHASE-LEAVE",
         "You may move on with bots not activated or Phase 3 actions unresolved; the log records "
         "what was left."),
    ]),
    ("AI-Bot roles", [
        ("R-ROLE-HUNTER",
         "A Hunter goes for the closest Character in its zone (line of sight not needed), "
         "otherwise the closest Character it can see, otherwise it moves randomly."),
        ("R-HUNTER-SLOT2",
         "After moving toward its target a Hunter melees if it reached base contact, else Shoots, "
         "else Scans, else takes the fallback half-Walk on."),
        ("R-HUNTER-RANDOM",
         "With nobody to seek, a Hunter Walks in a direction 1–8 (you enter it or the app rolls a "
         "d8) and its fallback goes on the same way."),
        ("R-ROLE-SENTRY",
         "A Sentry guards its subject and must be within one Walk of it at the Phase 4 check "
         "unless exempt. Further away, it spends its first action going back."),
        ("R-SENTRY-RETURN",
         "A Sentry more than one Walk from its subject heads back: a Walk if that brings it "
         "within one Walk, else a Run."),
        ("R-SENTRY-INTRUDER",
         "At its post a Sentry deals with the closest Character in its zone: it charges only if "
         "it surely stays within one Walk of its subject, otherwise it shoots and Scans from its "
         "post."),
        ("R-SENTRY-HOLD",
         "At its post with nobody in its zone, a Sentry does not move; it still shoots a "
         "Character in sight and range (R-ACT-SHOOT-ANY) or reloads."),
        ("R-SENTRY-EXEMPT",
         "An exempt Sentry has no position check, so it never has to return and may charge "
         "intruders freely."),
        ("R-ROLE-WORKER",
         "A Worker moves toward its object and Interacts with it; Maneuver then Interact are "
         "different families, so both fit in one turn."),
        ("R-WORKER-RUN",
         "A Worker that must Run to reach its object still Interacts with its second action (the "
         "seed allows it \"even within one turn\")."),
        ("R-WORKER-SLOT2",
         "Once its object is handled or out of reach, a Worker's other action shoots, Scans or "
         "reloads; it never leaves its object to chase anyone."),
        ("R-ROLE-PATROL",
         "A Patrol follows its waypoints as a Route (there and back) or a Circuit (loop); at "
         "Phase 4 some point of its current segment must be inside its zone."),
        ("R-PATROL-SLOT2",
         "A Patrol moves toward its waypoint first; its second action shoots, Scans or reloads, "
         "else the fallback half-Walk on. On its waypoint it heads for the next one."),
        ("R-PATROL-ROUTE",
         "A Patrol that arrives heads for its next waypoint: a Circuit loops, a Route turns back "
         "at either end."),
        ("R-PATROL-ARRIVE",
         "A Patrol that reaches its waypoint with nothing to Shoot or Scan walks 50% of its Walk on "
         "toward its next waypoint as its second action."),
        ("R-ROLE-TIES",
         "When Characters are at equal distances you choose; the tied names are listed and the "
         "first is taken until you say otherwise."),
    ]),
    ("Distracted", [
        ("R-DISTRACTED",
         "A Character in base contact may spend two actions for one action that excludes those "
         "NPCs, gaining one Distracted stack per contacted NPC (and per new contact). Each "
         "incoming attack adds one White die per stack; it clears at the end of the next turn "
         "without new stacks."),
    ]),
    ("Combat", [
        ("R-CMB-WHO",
         "In an engagement an applicable Special Rule decides who attacks; otherwise the higher "
         "current points attacks, and the NPC attacks on a tie."),
        ("R-CMB-ROLL",
         "The attacker rolls its attack dice, the defender Defends for free; a Critical is also a "
         "Hit. The same comparison serves melee and Shoot."),
        ("R-CMB-DAMAGE",
         "If the attack total beats the Defense total, damage is the difference in Hits, +1 in "
         "total if the winning side rolled any Critical."),
        ("R-CMB-TIE",
         "A melee tie pushes the defender back and does no damage. In a counter-attack both roll "
         "Melee, and a tie pushes the lower-point model (the Character when points tie)."),
        ("R-CMB-COUNTER-WHO",
         "Only a Character that the AI-Bot attacks may counter-attack."),
        ("R-CMB-COUNTER",
         "How a permitted counter-attack compares the two Melee totals is a house setting: by "
         "default the higher total wins and deals the difference; or the Character's Melee only "
         "stands in for its Defense."),
        ("R-CMB-PUSH",
         "A winning melee attack deals its damage and also pushes the loser back (house: on by "
         "default, can be switched off per game)."),
        ("R-CMB-DANGER",
         "If any melee happens in Phase 3, Danger +1, once per phase however many engagements."),
        ("R-CMB-ONCE",
         "Each bot–Character engagement resolves once per Phase 3; no longer in contact, they do "
         "not fight."),
        ("R-CMB-ORDER",
         "AI-Bot shots come after every melee of the phase is resolved or separated. A bot whose "
         "melee separated keeps its Attack action, which may become a Shoot."),
        ("R-CMB-GANGUP",
         "Each bot–Character pairing in base contact is fought on its own; the bot's one Attack "
         "action goes to the pairing it decided (else the first it attacks in), in the others it "
         "only Defends. AI-Bot shots wait until every engagement is fought or separated."),
        ("R-CMB-DEFEND-FREE",
         "When the Character attacks, the bot Defends for free: its Attack action stays unused, so "
         "after a push back it may still Shoot."),
        ("R-CMB-NOACTION",
         "A bot with no Attack action left makes no attack in Phase 3: the Character attacks and "
         "the bot only Defends."),
        ("R-CMB-TARGET-FACTS",
         "A shot is resolved only at a Character whose line of sight and range you confirm for it, "
         "never at one out of action; a target still in a melee gets the Black Die target check."),
        ("R-TIE-CHOICE",
         "Where Characters tie (closest, base contact with several) you choose which one; in an "
         "engagement you may name who attacks when a Special Rule says so."),
        ("R-CMB-TARGET",
         "Shooting at a model in melee: roll the Black Die. Success hits the intended target; "
         "Blank hits the model in that melee with the highest current Health (you choose ties)."),
        ("R-CMB-TARGET-TIE",
         "When the Black Die's Blank leaves models tied for highest Health, you choose; until "
         "then the first listed is taken."),
        ("R-CMB-TARGET-POOLS",
         "The actual target is found first, so its Defense, Cover, Distracted dice and Marked "
         "stacks are the ones that count."),
        ("R-CMB-TARGET-COVER",
         "A Character's shot uses the Cover you give for the bot; if the Black Die sends it to a "
         "Character, that Character's own Cover counts."),
        ("R-CMB-SHOOT",
         "An AI-Bot not in base contact may Shoot a target in line of sight and range if it has "
         "an Attack action left. Cover adds dice to the target's Defense."),
        ("R-CMB-SHOOT-ACTION",
         "A bot's Shoot spends its pending Shoot, another pending Attack, or an open slot when its "
         "Attack family is unused (a bot that planned nothing may still shoot); one per family."),
        ("R-SHOOT-COVER",
         "Cover is asked for each shot: the target's Cover at that moment, with its roster Cover "
         "as the default."),
        ("R-CMB-SHOOT-TIE",
         "A Shoot tie does no damage and pushes no one back."),
        ("R-CMB-AMMO",
         "After an attacking Shoot roll with any Critical, check Out of Ammo, even if the attack "
         "failed (house: a Black Die, Blank means out of ammo)."),
    ]),
    ("End of turn, Glitches and Danger", [
        ("R-END-CHECK",
         "In Phase 4 each Sentry and Patrol not exempt takes its position check; each failure "
         "gives one immediate Glitch. The turn cannot end until every check is answered."),
        ("R-GLITCH",
         "A Glitch is rolled on the game's Glitch table (house default d6: Reboot, Overcharged, "
         "Full Throttle). An impossible result has no effect and is not rerolled."),
        ("R-GLITCH-REBOOT",
         "A rebooted bot takes no actions at all, not even free ones, so it does not Defend "
         "either. It lasts until the end of the bot's next turn, activated or not (house: turns)."),
        ("R-GLITCH-STACK",
         "Full Throttle counts the bot's activations, a Reboot its turns; a second Glitch of the "
         "same kind adds its duration."),
        ("R-GLITCH-FREE",
         "Free Glitch actions may repeat a normal action and spend no slot: give the table a Free "
         "action row. A Reboot blocks them."),
        ("R-GLITCH-ANY",
         "A Glitch can come from any source at any time (a failed check, an Event, a hack): record "
         "it for any bot, rolled on the table or as the result the source names."),
        ("R-DANGER",
         "Danger reaching the limit (24) ends the game after the current turn; an effect that "
         "would raise it above the limit is an immediate failure. It never goes below 0."),
        ("R-DANGER-CAP",
         "An effect that would push Danger past the limit fails the game at once; the excess is "
         "noted in the log."),
        ("R-DANGER-FINAL",
         "Once Danger has reached the limit the final turn stands even if Danger drops later; "
         "only a correction lifts it."),
    ]),
    ("Hacking and luck", [
        ("R-HACK",
         "There is no generic hacking action: the Mission or Event names the stat, the opposition "
         "and the outcome. With no dice in the stat a Character may make the Luck Roll once per "
         "turn."),
        ("R-HACK-HELP",
         "DIAGNOSTICS (against an NPC) or TECH SUPPORT adds help dice (house: +1 White); OUT OF "
         "WARRANTY on the subject cancels them but not the attempt."),
        ("R-HACK-TECH",
         "TECH SUPPORT helps only on attempts that are not against an NPC stat; DIAGNOSTICS only "
         "against an NPC stat."),
        ("R-HACK-ROLL",
         "A hacking attempt succeeds when its Hits beat the opposing Hits; a tie fails."),
    ]),
    ("Dice and roster", [
        ("R-DICE",
         "The game's dice are house rules: each colour's faces, and whether the app rolls or you "
         "enter the dice. Any roll may be entered from physical dice."),
        ("R-DICE-FACES",
         "A hit face is one Hit, a critical face a Hit that is also a Critical, any other face no "
         "Hit; a pool holds at most 40 dice."),
        ("R-ROSTER-ASSIGN",
         "A Sentry needs a subject, a Worker an object and a Patrol at least one waypoint; only "
         "the current role's assignment is kept."),
        ("R-ROSTER-NAME",
         "No two models on the roster share a name (ignoring case): targets, Marked stacks and the "
         "log name them. A copy takes the next free name (Hunter-2, Ada 2)."),
    ]),
    # the fourth reading (docs/rules.md § 5.6)
    ("Free actions, contact and limits", [
        ("R-GLITCH-FREE-ACTS",
         "A free Glitch action does what its normal twin does at once: Reload reloads, Stand Up "
         "stands, Scan marks the Character you name. A free Melee hits an opponent in contact again."),
        ("R-GLITCH-IMPOSSIBLE",
         "A free action the bot cannot take when the Glitch occurs (a Shoot with no gun, a Reload of a "
         "loaded gun) has no effect, is not rerolled and leaves nothing pending."),
        ("R-CMB-BLACK-KNOWN",
         "A shot at a model the app knows to be in a melee rolls the Black Die; on Blank the healthiest "
         "model in that melee is hit, you choose ties. An entered Black Die is never ignored in silence."),
        ("R-CHAR-CONTACT-ENDS",
         "A Character that moved into base contact with an AI-Bot has ended its activation: no Shoot or "
         "hack this turn unless it invokes Distracted, which buys one action."),
        ("R-DISTRACTED-EXCLUDES",
         "A Distracted Character's action excludes the NPCs in contact: it cannot shoot at or hack an "
         "AI-Bot it is in base contact with."),
        ("R-DISTRACTED-NEW-CONTACT",
         "Each new base contact while Distracted adds a stack, whether you record it or the app walks a "
         "bot into contact."),
        ("R-PATROL-NEXT",
         "A Patrol that reaches a waypoint with nothing to Shoot or Scan walks 50% of its Walk on toward "
         "the next waypoint of its Route or Circuit."),
        ("R-PHASE-FALLBACK",
         "A pending Melee or Shoot belongs to Phase 3: it cannot be marked done in Phase 2, only skipped."),
        ("R-OUT-OF-ACTION-ZONE",
         "A destroyed AI-Bot has no zone: zone entries, Noise and Alarm naming it add no Marked."),
        ("R-DANGER-LIMIT-EDIT",
         "Lowering the Danger limit to the current Danger makes this the final turn; below it is refused."),
    ]),
]

GLOSSARY: dict[str, str] = {rule: text for _, rules in AREAS for rule, text in rules}


def summary(rule: str) -> str | None:
    """The plain summary of one rule id, or None for an id the glossary does not know."""
    return GLOSSARY.get(rule.strip())
