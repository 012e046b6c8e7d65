"""The last multi-step tap per game (app/web/taps.py): offered for "Undo the whole tap" only while
it is still the game's latest step."""

from __future__ import annotations

from app.store.tables import Game
from app.web import taps


def game(token: str, seq: int) -> Game:
    return Game(name="g", edit_token=token, view_token=token + "-v", seq=seq)


def test_a_tap_is_offered_while_it_is_the_latest_step_and_forgotten_after():
    played = game("tap-a", 5)
    taps.remember(played, 2)
    assert taps.tap_from(played) == 2
    played.seq = 6  # another step since (an undo, another command, another device)
    assert taps.tap_from(played) is None


def test_a_single_step_is_no_tap_and_another_game_never_sees_it():
    one = game("tap-b", 3)
    taps.remember(one, 2)
    assert taps.tap_from(one) is None
    taps.remember(game("tap-c", 4), 1)
    assert taps.tap_from(game("tap-d", 4)) is None
