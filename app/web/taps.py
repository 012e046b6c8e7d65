"""The last tap that made several steps, per game: "Undo the whole tap" needs to know
where it began on every render of the turn panel (the tap's own answer, the live push, a
refresh), and a step stores no tap of its own. Kept in this process only, as a hint: without it
(another worker, a restart) "Undo last step" and the log's "Go back here" still do the same."""

from __future__ import annotations

from threading import Lock

from app.store.tables import Game

MOST = 1000  # games remembered; the oldest tap is forgotten first

# game (its play link: a game id may be reused after a delete) -> (seq before the tap, its last step)
_taps: dict[str, tuple[int, int]] = {}
_lock = Lock()


def remember(game: Game, start: int) -> None:
    """`game` is at the tap's last step; it began after step `start`."""
    if game.seq <= start + 1:
        return
    with _lock:
        _taps.pop(game.edit_token, None)
        _taps[game.edit_token] = (start, game.seq)
        while len(_taps) > MOST:
            _taps.pop(next(iter(_taps)))


def tap_from(game: Game) -> int | None:
    """The step before the game's latest tap, while that tap is still the latest step."""
    with _lock:
        start, end = _taps.get(game.edit_token, (None, None))
    return start if end == game.seq else None
