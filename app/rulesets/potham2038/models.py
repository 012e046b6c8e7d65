"""Frozen value types of a 2038 game: the roster, the house rules and the game state.

Pure: pydantic only, so the shell can store a state as JSON and read it back exactly.
Every change to a state is a new state (`model_copy(update=...)`), never a mutation.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.kernel.frozen import Frozen
from app.kernel.names import Name
from app.kernel.report import ReportWords
from app.rulesets.potham2038.house_rules import Cover, HouseRules

Role = Literal["hunter", "sentry", "worker", "patrol"]
Status = Literal["playing", "final_turn", "ended", "failed"]
Phase = Literal[1, 2, 3, 4]

# A dice pool: colour -> count, e.g. {"red": 3, "white": 1}. Colours must exist in the
# game's face table (validated where a pool meets a game, see dice.py).
Pool = Annotated[dict[str, Annotated[int, Field(ge=0, le=40)]], Field(max_length=12)]

MAX_MARKED = 1000  # R-MARK-CAP: far beyond any real table; keeps the odds (one line per damage) finite
# Bounds for numbers no rule caps, so an imported state can never carry an integer the database
# cannot hold (PostgreSQL INTEGER is 32-bit): a turn count no game reaches (end_turn refuses
# past it), and counters that grow by a few per turn.
MAX_TURN = 100_000
MAX_COUNT = 2**31 - 1

PHASE_NAMES = {1: "Action", 2: "Event & NPC Movement", 3: "Melee & Ranged Combat", 4: "End"}


# --- the roster --------------------------------------------------------------------------


class GlitchEffect(Frozen):
    """A Glitch still acting on a bot (R-GLITCH). Full Throttle: `turns_left` activations to go.
    Reboot (R-GLITCH-REBOOT): `turns_left` of the bot's turns to go, counted at each end of turn
    from `start_turn` on (the turn it first costs the bot; None: the current one), whether or not
    the bot activated."""

    result: Literal["reboot", "overcharged", "full_throttle"]
    turns_left: int = Field(ge=0, le=MAX_COUNT)
    start_turn: int | None = Field(default=None, ge=1, le=MAX_TURN)


class Character(Frozen):
    id: str
    name: Name
    points: int = Field(default=0, ge=0, le=10000)
    health: int = Field(default=3, ge=0, le=100)
    max_health: int = Field(default=3, ge=1, le=100)
    melee: Pool = Field(default_factory=dict)
    shoot: Pool = Field(default_factory=dict)
    defense: Pool = Field(default_factory=dict)
    mission_stats: dict[Name, Pool] = Field(default_factory=dict)  # e.g. {"Hacking": {"red": 2}}
    equipment: list[Name] = Field(default_factory=list)  # free text, incl. DIAGNOSTICS, TECH SUPPORT
    cover: Cover = "none"
    # conditions, changed by play
    marked: int = Field(default=0, ge=0, le=1000)  # R-MARK-CAP
    distracted: int = Field(default=0, ge=0, le=MAX_COUNT)
    # the turn Distracted was invoked (R-DISTRACTED), and the last turn a stack was gained
    distracted_since: int | None = Field(default=None, ge=1, le=MAX_TURN)
    distracted_last_gain: int | None = Field(default=None, ge=1, le=MAX_TURN)
    luck_roll_used: bool = False  # once per turn (R-HACK)

    @property
    def has_diagnostics(self) -> bool:
        return any(e.upper() == "DIAGNOSTICS" for e in self.equipment)

    @property
    def has_tech_support(self) -> bool:
        return any(e.upper() == "TECH SUPPORT" for e in self.equipment)


class Bot(Frozen):
    id: str
    name: Name
    role: Role
    points: int = Field(default=0, ge=0, le=10000)
    health: int = Field(default=3, ge=0, le=100)
    max_health: int = Field(default=3, ge=1, le=100)
    walk: float = Field(default=4, ge=0, le=48)
    run: float = Field(default=8, ge=0, le=96)
    control_zone: float = Field(default=3, ge=0, le=24)
    melee: Pool = Field(default_factory=dict)
    defense: Pool = Field(default_factory=dict)
    shoot: Pool = Field(default_factory=dict)
    shoot_range: float | None = Field(default=None, ge=0, le=200)  # None: no ranged weapon
    special_rules: list[Name] = Field(default_factory=list)  # e.g. "Marked Target", "OUT OF WARRANTY"
    # the role's assignment
    subject: Name | None = None  # Sentry
    object: Name | None = None  # Worker
    waypoints: list[Name] = Field(default_factory=list)  # Patrol, in order
    patrol_mode: Literal["route", "circuit"] = "circuit"
    exempt: bool = False  # explicitly exempt from the Phase 4 position check
    # conditions, changed by play
    waypoint_index: int = Field(default=0, ge=0, le=MAX_COUNT)  # the waypoint it is heading to
    waypoint_step: Literal[1, -1] = 1  # Route: direction along the list
    out_of_ammo: bool = False
    knocked_down: bool = False
    glitches: list[GlitchEffect] = Field(default_factory=list)

    def has_rule(self, rule: str) -> bool:
        """Special Rules compare loosely: 'Marked Target', 'marked_target', 'MARKED TARGET'."""
        key = rule.replace("_", " ").strip().lower()
        return any(r.replace("_", " ").strip().lower() == key for r in self.special_rules)

    @property
    def rebooted(self) -> bool:
        return any(g.result == "reboot" and g.turns_left > 0 for g in self.glitches)

    def following(self) -> tuple[int, Literal[1, -1]]:
        """(index, step) of the waypoint after the current one: a Circuit loops; a Route runs to
        the end and back (R-PATROL-ROUTE)."""
        count, index, step = len(self.waypoints), self.waypoint_index, self.waypoint_step
        if self.patrol_mode == "circuit":
            return (index + 1) % max(count, 1), step
        if count > 1:
            if not 0 <= index + step < count:
                step = 1 if step == -1 else -1
            index += step
        return index, step

    @property
    def waypoint_after(self) -> str | None:
        """The waypoint a Patrol heads for once it stands on its current one (R-ROLE-PATROL)."""
        if self.waypoint_index >= len(self.waypoints):
            return None
        index = self.following()[0]
        return self.waypoints[index] if 0 <= index < len(self.waypoints) else None

    @property
    def full_throttle(self) -> bool:
        return any(g.result == "full_throttle" and g.turns_left > 0 for g in self.glitches)


# --- the turn's bookkeeping (turn.py and the phase modules) -----------------------------

ActionStatus = Literal["pending", "done", "skipped"]


class DecidedAction(Frozen):
    """One of a bot's two actions as decided in Phase 2 (R-ACT-TWO), kept for Phase 3.

    `status`: Phase 2 actions (moves, Scan, Interact) are "done" when decided (R-ACT-PHASE);
    Melee and Shoot stay "pending" until Phase 3 resolves or skips them."""

    slot: int = Field(ge=0, le=100)
    family: str
    action: str
    phase: int = Field(ge=1, le=4)
    target: str | None = None  # the name the decision speaks of (Character, subject, object, waypoint)
    target_id: str | None = None  # the Character's roster id when the target is a Character
    move: float | None = None
    fallback: bool = False
    reason: str = ""
    rule: str | None = None
    direction: int | None = Field(default=None, ge=1, le=8)  # a random move's direction
    status: ActionStatus = "pending"
    # R-ACT-FACTS: decided on facts a move made unknown; Phase 3 asks the player to confirm
    # `condition` (line of sight and range) before it resolves.
    conditional: bool = False
    condition: str | None = None
    free: bool = False  # a free Glitch action: spends no slot, uses up no family (R-GLITCH-ANY)


class SeenFact(Frozen):
    """What the player reported about one Character when the bot activated (R-LOS, R-ZONE)."""

    character_id: str
    distance: float | None = None  # None: told as a band (or not needed), never guessed
    line_of_sight: bool = False
    base_contact: bool = False
    band: str | None = None  # the distance band tapped instead of inches (questions.py)


class EmptySlotNote(Frozen):
    """A slot the activation left empty and why (every empty slot says why)."""

    slot: int = Field(ge=0, le=100)
    reason: str
    rule: str | None = None


class Decision(Frozen):
    """One bot's activation this turn: the decision card and the Phase 3 to-do list."""

    bot_id: str
    turn: int = Field(ge=1, le=MAX_TURN)
    actions: list[DecidedAction] = Field(default_factory=list)
    marked: dict[str, int] = Field(default_factory=dict)  # character id -> stacks gained
    ties: list[str] = Field(default_factory=list)
    seen: list[SeenFact] = Field(default_factory=list)
    note: str = ""
    rebooted: bool = False  # a Reboot took this activation: no actions at all this turn (R-GLITCH)
    empty: list[EmptySlotNote] = Field(default_factory=list)  # each absent slot with its reason


# --- the game ---------------------------------------------------------------------------


class GameState(Frozen):
    """Everything the rules need to know about one game at one step.

    The turn engine (turn.py) may add fields for its own bookkeeping; every field needs a
    default so that older saved states still load.
    """

    turn: int = Field(default=1, ge=1, le=MAX_TURN)
    phase: Phase = 1
    report: ReportWords = Field(default_factory=ReportWords)  # the battle report's title and notes
    danger: int = Field(default=0, ge=0, le=100)  # never past the limit, itself at most 100 (R-DANGER)
    status: Status = "playing"
    characters: list[Character] = Field(default_factory=list)
    bots: list[Bot] = Field(default_factory=list)
    house: HouseRules = Field(default_factory=HouseRules)
    # the turn's bookkeeping (turn.py); all reset by end_turn unless said otherwise
    activation_order: list[str] = Field(default_factory=list)  # the player's order, kept across turns
    decisions: list[Decision] = Field(default_factory=list)  # this turn's activations, in order
    # bot id -> the object it was left working (in base contact) by last turn's activation: the page
    # offers "still in contact" for it, one tap the player confirms, never assumed (R-ACT-FACTS)
    worked_last_turn: dict[str, Name] = Field(default_factory=dict, max_length=200)
    event: str | None = None  # the Event recorded this turn
    phase3_melee: bool = False  # Danger +1 already paid for melee this Phase 3 (R-CMB-DANGER)
    engaged: list[str] = Field(default_factory=list)  # "bot_id:character_id" melees settled this Phase 3
    # "bot_id:character_id" pairs no longer in base contact (pushed back or reported apart): a shot
    # at either no longer goes into their melee (R-CMB-TARGET-FACTS)
    separated: list[str] = Field(default_factory=list)
    bot_attacked: list[str] = Field(default_factory=list)  # pairs fought this phase where the AI-Bot attacked
    # "bot_id:character_id" base contacts the player reported in Phase 1 (a Character walked into
    # an AI-Bot): facts, never inferred (R-LOS); Phase 3 lists them as engagements (R-CMB-WHO)
    # until a later report about the pair says otherwise. Reset at the end of the turn.
    contacts_reported: list[str] = Field(default_factory=list, max_length=200)
    # "bot_id:action" free Glitch actions waiting for their phase (R-PHASE-MOVE): a Shoot or Melee
    # for Phase 3, a move for Phase 2; added to the bot's card when it next activates. Kept across turns.
    free_waiting: list[str] = Field(default_factory=list, max_length=100)
    # R-CHAR-CONTACT-ENDS: Characters whose Distracted invocation this turn still buys one action
    distracted_ready: list[str] = Field(default_factory=list, max_length=200)
    # R-DISTRACTED-EXCLUDES: "bot_id:character_id" NPCs in contact named when invoking this turn
    distracted_by: list[str] = Field(default_factory=list, max_length=200)
    position_checks: dict[str, bool] = Field(default_factory=dict)  # bot id -> passed (R-END-CHECK)
    # how far an effect would have pushed Danger past the limit (R-DANGER-CAP)
    danger_excess: int = Field(default=0, ge=0, le=MAX_COUNT)

    def character(self, id_: str) -> Character | None:
        return next((c for c in self.characters if c.id == id_), None)

    def bot(self, id_: str) -> Bot | None:
        return next((b for b in self.bots if b.id == id_), None)

    def decision(self, bot_id: str) -> Decision | None:
        return next((d for d in self.decisions if d.bot_id == bot_id), None)

    def in_order(self) -> list[Bot]:
        """The bots in the player's activation order; bots not listed follow in roster order."""
        rank = {bot_id: i for i, bot_id in enumerate(self.activation_order)}
        return sorted(self.bots, key=lambda b: rank.get(b.id, len(rank)))

    def to_activate(self) -> list[Bot]:
        """Bots still to activate this turn (Phase 2), in order; destroyed bots do not act."""
        return [b for b in self.in_order() if b.health > 0 and self.decision(b.id) is None]

    def pending_actions(self) -> list[tuple[str, DecidedAction]]:
        """(bot id, action) for every decided action not yet resolved: Phase 3's to-do list."""
        return [(d.bot_id, a) for d in self.decisions for a in d.actions
                if a.status == "pending" and self.bot(d.bot_id) is not None]

    def checks_due(self) -> list[Bot]:
        """Bots whose Primary Directive position check (R-END-CHECK) is still unanswered."""
        return [b for b in self.bots if needs_position_check(b) and b.id not in self.position_checks]


def needs_position_check(bot: Bot) -> bool:
    """R-END-CHECK: Sentries and Patrols are checked at Phase 4 unless exempt or destroyed."""
    return bot.role in ("sentry", "patrol") and not bot.exempt and bot.health > 0
