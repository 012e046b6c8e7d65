"""A fight's turn order, kept so that no turn is lost or repeated. Pure; names no game.

Each member of the fight holds a place with a value (an initiative card, a roll); the order is
by value (lowest first, or highest first), equal values in the order they joined. Who has had
their turn this round is kept explicitly (`done`), so a member removed, added or put out of the
fight mid-round never costs anyone else their turn: the next turn is always the first member in
order who is able and has not had one this round. When nobody is left the round is over, and
the caller ends it (its own bookkeeping) before the order starts again from the top.
"""

from __future__ import annotations

from random import Random

from pydantic import Field

from app.kernel.frozen import Frozen


class Place(Frozen):
    member_id: str = Field(max_length=40)
    value: int = Field(ge=-1000, le=1000)


class TurnOrder(Frozen):
    places: list[Place] = Field(default_factory=list, max_length=200)
    acting: str | None = Field(default=None, max_length=40)
    done: list[str] = Field(default_factory=list, max_length=200)  # had their turn this round
    lowest_first: bool = True

    @property
    def running(self) -> bool:
        return bool(self.places)

    def value_of(self, member_id: str) -> int | None:
        return next((p.value for p in self.places if p.member_id == member_id), None)

    def ids(self) -> list[str]:
        return [p.member_id for p in self.places]


def settled(values: list[tuple[str, int]], lowest_first: bool = True) -> TurnOrder:
    """The order of a fight from each member's value (given in roster order: ties keep it)."""
    sign = 1 if lowest_first else -1
    ranked = sorted(enumerate(values), key=lambda row: (sign * row[1][1], row[0]))
    return TurnOrder(places=[Place(member_id=m, value=v) for _, (m, v) in ranked], lowest_first=lowest_first)


def draw(deck: range, taken: list[int], rng: Random) -> int:
    """A card from the deck that nobody holds yet; with every card out, a fresh deck."""
    left = [c for c in deck if c not in taken]
    return rng.choice(left or list(deck))


def joined(order: TurnOrder, member_id: str, value: int) -> TurnOrder:
    """A member joins mid-fight at its value's place (after those with the same value); it has
    not had its turn this round, so it gets one."""
    sign = 1 if order.lowest_first else -1
    at = next((i for i, p in enumerate(order.places) if sign * p.value > sign * value), len(order.places))
    places = [p for p in order.places if p.member_id != member_id]
    places.insert(min(at, len(places)), Place(member_id=member_id, value=value))
    return order.model_copy(update={"places": places})


def left(order: TurnOrder, member_id: str) -> TurnOrder:
    """A member leaves the fight; if it was acting, nobody is until the next turn is asked for."""
    return order.model_copy(update={
        "places": [p for p in order.places if p.member_id != member_id],
        "done": [d for d in order.done if d != member_id],
        "acting": None if order.acting == member_id else order.acting,
    })


def upcoming(order: TurnOrder, able: set[str]) -> list[str]:
    """The members still to have their turn this round, in order (the acting one excluded)."""
    return [m for m in order.ids() if m in able and m not in order.done and m != order.acting]


def advanced(order: TurnOrder, able: set[str]) -> tuple[TurnOrder, bool]:
    """The acting member's turn is over; the next in order acts. True when the round is over:
    the caller ends it, then calls `started_round`."""
    done = [*order.done, order.acting] if order.acting and order.acting not in order.done else order.done
    order = order.model_copy(update={"done": done, "acting": None})
    nxt = upcoming(order, able)
    if not nxt:
        return order, True
    return order.model_copy(update={"acting": nxt[0]}), False


def started_round(order: TurnOrder, able: set[str]) -> TurnOrder:
    """A new round: nobody has had a turn; the first able member acts (None: nobody can)."""
    first = next((m for m in order.ids() if m in able), None)
    return order.model_copy(update={"done": [], "acting": first})
