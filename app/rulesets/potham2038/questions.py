"""One question at a time: the facts an activation needs, asked in the order the rule needs them.

`next_question(bot, characters, directive, answers, rng)` answers either the next `Question`
(one tap: who is in base contact, who is inside the zone, who can it see, which is closest, how
far is X as a band, or exactly in inches) or, once the answers fix it, the `Activation` — the
same answer `activation.activate` gives from inches. The page asks, stores the answer in
`answers` and calls again; the JSON rules API keeps its inches.

Never a guess: a decision is returned only when it is the same — every action, family,
target, fallback and condition, the ties, the Marked and the empty slots — wherever each
banded distance lies inside its band (the engine is run at both ends of every band and at
every threshold, sum and difference of thresholds inside it: each comparison the roles make
is against one of those). Otherwise the first fact, in rule order, that changes it is asked.
A distance that only shapes a sentence ("walks into base contact", "a Run toward X") needs no
inches: the reason then says "up to 4\"" or "more than 18\"" and `move` is null when the move
itself is not fixed.

`answers` (JSON-friendly, every key optional):
  contact: [names]          Characters in base contact with the bot
  zone: [names]             Characters inside its zone (base contact counts as inside)
  line_of_sight: [names]    Characters it can see
  closest: name             the closest of the Characters the decision hinges on
  bands: {model: band key}  a distance as a band (bands.bands(bot)); model: a Character, the
                            directive's subject/object/waypoint, or the next waypoint
  inches: {model: inches}   a measured distance (wins over a band)
  direction: 1..8 | "roll"  a Hunter's random move
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from app.rulesets.potham2038.activation import Activation, Activator, Directive, activate
from app.rulesets.potham2038.band_pieces import on_the_waypoint, pieces
from app.rulesets.potham2038.bands import Band, bands
from app.rulesets.potham2038.board_distances import BoardDistances
from app.rulesets.potham2038.wording_bounds import EPS, bounded, said


@dataclass(frozen=True, slots=True)
class Question:
    """`fact`: contact | zone | line_of_sight | closest | band | inches | direction;
    `kind`: pick_many (tap any, or none) | pick_one | inches; `model`: whose distance."""

    fact: str
    ask: str
    kind: str
    options: tuple[dict[str, Any], ...] = ()
    model: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"fact": self.fact, "ask": self.ask, "kind": self.kind, "options": list(self.options),
                "model": self.model}


def next_question(bot: Activator, characters: Sequence[str], directive: Directive,
                  answers: Mapping[str, Any], rng: random.Random | None = None) -> Question | Activation:
    """The next fact to ask, or the decision once the answers fix it (module docstring)."""
    if bot.rebooted:
        return activate(bot, [], directive, rng)
    asked = _sets(bot, characters, answers)
    if asked is not None:
        return asked
    board = Board(bot, characters, directive, answers, rng)
    return board.decide()


def _sets(bot: Activator, characters: Sequence[str], answers: Mapping[str, Any]) -> Question | None:
    """Base contact first (a bot in contact fights: R-CONTACT-MELEE), then its zone (R-MARK-ACT
    needs it for everyone): one tap each, "nobody" included."""
    if not characters:
        return None
    pick = tuple({"key": n, "label": n} for n in characters)
    if "contact" not in answers:
        return Question("contact", f"Who is in base contact with {bot.name}?", "pick_many", pick)
    touching = set(answers["contact"])
    rest = tuple(o for o in pick if o["key"] not in touching)
    if "zone" not in answers and rest:
        zone = f'{round(bot.control_zone, 2):g}"'
        return Question("zone", f"Who else is inside {bot.name}'s {zone} zone?", "pick_many", rest)
    return None


class Board(BoardDistances):
    """The board's distances (board_distances.py) and what to ask next: the facts in rule
    order, a distance as a band, a split or inches, then the decision with its numbers said."""

    def decide(self) -> Question | Activation:
        self._runs, self._samples = {}, None  # a board decides afresh from its answers
        sights = [None] if "line_of_sight" in self.answers or not self.names else [True, False]
        base_at = self.points()[0]
        shape, base = self.outcome(base_at, sights[0])
        everywhere = [self.points(), *(self.points(n) for n in self.varied())]
        if all(self.outcome(at, s)[0] == shape for pts in everywhere for at in pts for s in sights):
            return self.settle(base, [r for _, r in self._runs.values()])
        for own in (self.target, self.next):  # the directive's own distances decide slot 1 first
            if own is not None and self.moves(own, sights):
                return self.ask_distance(own)
        if len(sights) > 1 and any(self.outcome(at, True)[0] != self.outcome(at, False)[0]
                                   for pts in everywhere for at in pts):
            pick = tuple({"key": n, "label": n} for n in self.names)
            return Question("line_of_sight", f"Who can {self.bot.name} see?", "pick_many", pick)
        first = self.answers.get("closest")  # rule order: the one told closest, then the rest
        order = sorted(self.names, key=lambda n: (n != first, self.names.index(n)))
        rivals, tried = [], {}
        for n in order:  # Characters of one kind move the decision alike: one is tried per kind
            kind = self.kind(n)
            if kind not in tried:
                tried[kind] = self.moves(n, sights)
            if tried[kind]:
                rivals.append(n)
                if first is not None:
                    break
        if len(rivals) > 1:
            return Question("closest", f"Which of them is closest to {self.bot.name}?", "pick_one",
                            tuple({"key": n, "label": n} for n in rivals))
        open_ = [n for n in self.spans if self.spans[n][0] != self.spans[n][1]]
        return self.ask_distance((rivals or open_)[0])

    def moves(self, name: str, sights: list) -> bool:
        """Does this model's distance alone change the decision?"""
        base_at = self.points()[0]
        return any(self.outcome(at, s)[0] != self.outcome(base_at, s)[0]
                   for at in self.points(name) for s in sights)

    def bands_for(self, name: str) -> list:
        """A Character's bands; a waypoint, subject or object is never shot at, so no range band."""
        return self.bands if name in self.names else bands(self.bot, aimed=False)

    def ask_distance(self, name: str) -> Question:
        """Its band when more than one band is still open for it, else its inches."""
        lo, hi = self.spans[name]
        offered = self.bands_for(name)
        told = self.answers.get("bands", {}).get(name)
        fits = [b for b in offered if b.high > lo and b.low < hi and b.key != "contact"]
        if told is not None:  # a band told: what is left of it, cut where the decision turns
            fits = [b for b in fits if b.key == told]
        elif lo < 0:
            fits = [offered[0], *fits]
        options = on_the_waypoint(self, name, [o for b in fits for o in self.options(name, b, lo, hi)])
        if len(options) > 1:
            return Question("band", f"How far is {name} from {self.bot.name}?", "pick_one",
                            tuple(options), name)
        at = self.split_point(name)
        if at is not None:  # the one figure that decides it, not the keyboard
            said = f'{round(at, 2):g}"'
            return Question("split", f"Is {name} within {said} of {self.bot.name}?", "pick_one",
                            ({"key": "up_to", "label": f"Up to {said}", "inches": at},
                             {"key": "more_than", "label": f"More than {said}", "inches": at}), name)
        return Question("inches", f"How far is {name} from {self.bot.name}, in inches?", "inches", (), name)

    def options(self, name: str, b: Band, lo: float, hi: float) -> list[dict[str, Any]]:
        """A band as one tap, or its pieces where one finer tap settles it (band_pieces)."""
        if b.key == "contact" or not self.refine:
            return [b.as_dict()]
        return pieces(self, name, b, max(b.low, lo), min(b.high, hi))

    def split_point(self, name: str) -> float | None:
        """The one distance inside this model's open interval where the decision changes, when
        either side of it then fixes the decision without asking this model again; else None
        (the inches are asked). Each side is checked by deciding again from it, never guessed."""
        if self.split_told(name):
            return None
        sights = [None] if "line_of_sight" in self.answers or not self.names else [True, False]
        line = self.points(name)
        cuts = {line[i][name] for i in range(len(line) - 1)
                for s in sights if self.outcome(line[i], s)[0] != self.outcome(line[i + 1], s)[0]}
        if len(cuts) != 1 or not any(abs(c - next(iter(cuts))) < EPS / 2 for c in self.critical()):
            return None  # several figures, or one between thresholds: the inches decide
        at = cuts.pop()
        for side in ("up_to", "more_than"):
            told = {**self.answers, side: {**self.answers.get(side, {}), name: at}}
            after = Board(self.bot, self.names, self.directive, told, random.Random(0), refine=False).decide()
            if isinstance(after, Question) and after.model == name:
                return None
        return at

    def settle(self, base: Activation, every: list[Activation]) -> Activation | Question:
        """The decision, its numbers said as bounds where the band leaves them open."""
        actions = []
        for i, action in enumerate(base.actions):
            variants = [r.actions[i] for r in every]
            reason = bounded([v.reason for v in variants])
            if reason is None:
                return Question("inches", f"How far is {action.target} from {self.bot.name}, in inches?",
                                "inches", (), action.target)
            moves = {v.move for v in variants}
            actions.append(replace(action, reason=reason, move=action.move if len(moves) == 1 else None))
        # any random move, the fallback's too (a knocked-down Hunter stands up, then moves on)
        if any(a.action == "random_move" for a in base.actions) and "direction" not in self.answers:
            return Question("direction", f"Roll a d8 for {self.bot.name}'s random direction (or let the "
                            "app roll).", "pick_one", tuple({"key": k, "label": str(k)} for k in
                                                           [*range(1, 9), "roll"]))
        empty = tuple(replace(e, reason=said([r.empty[j].reason for r in every if j < len(r.empty)]))
                      for j, e in enumerate(base.empty))
        notes = tuple(said([r.notes[j] for r in every if j < len(r.notes)]) for j in range(len(base.notes)))
        return replace(base, actions=tuple(actions), empty=empty, notes=notes)
