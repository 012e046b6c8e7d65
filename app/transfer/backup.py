"""A backup of every game, and its restore, in bounded memory (a backup larger than
20 MB restores; four big imports at once must not take the machine's memory).

A backup is `{"format": "potham-2038-backup", "format_version": 1, "exported_at": …, "games": [
<game export>, …]}`, each game exactly as app/transfer/exchange.py exports one. Both directions work one
game at a time:

- writing: the document is streamed game by game, each game read, written and let go;
- restoring: the file (on disk, not in memory) is read by a streaming JSON parser (ijson): first
  the whole file once for its header and its nesting (no deeper than app/transfer/nesting.py allows, so
  the parser's paths stay small), then every game is validated one at a time (nothing
  stored if one is bad), then every game is stored in one transaction: a restore is all or
  nothing (one that failed half-way had stored the games before it, and a retry
  duplicated them). A single game of a backup may be as large as a single import
  (exchange.MAX_BYTES).

Only the admin link may do either (app/web/routes/admin.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO, Any

import ijson
from sqlmodel import Session, col, select

from app.store.tables import Game, now
from app.transfer import exchange, nesting

BACKUP_FORMAT = "potham-2038-backup"
BACKUP_VERSION = 1
MAX_RESTORE_BYTES = 1024**3  # the file lies on disk while it is restored; 1 GB is ~900 long games
MAX_GAME_BYTES = exchange.MAX_BYTES
READ_AHEAD = 64 * 1024  # what the parser reads at a time
OPENS, CLOSES = nesting.OPENS, nesting.CLOSES


# --- writing -----------------------------------------------------------------------------------


def backup_chunks(session: Session) -> Iterator[bytes]:
    """The backup document in pieces, oldest played game first (a restore re-creates them in
    this order, so the home list keeps its order). ASCII JSON: any text survives."""
    head = {"format": BACKUP_FORMAT, "format_version": BACKUP_VERSION, "exported_at": now().isoformat()}
    yield json.dumps(head)[:-1].encode() + b', "games": ['
    ids = session.exec(select(Game.id).order_by(col(Game.updated_at), col(Game.id))).all()
    first = True
    for game_id in ids:
        game = session.get(Game, game_id)
        if game is None:  # deleted while the backup was being written
            continue
        yield (b"" if first else b", ") + json.dumps(exchange.export_game(session, game)).encode()
        first = False
        session.expunge_all()  # this game's steps are not kept while the next is read
    yield b"]}"


# --- restoring ---------------------------------------------------------------------------------


def check_header(file: IO[bytes]) -> None:
    """The document must be an object whose `format` is a backup of a version we read, nested no
    deeper than ours (app/transfer/nesting.py): the whole file is read once, holding at most MAX_DEPTH
    levels, before anything builds a path per level or a game in memory."""
    file.seek(0)
    reader = _OneGameAtATime(file)  # no single value larger than a game is built either
    found: dict[str, Any] = {}
    depth, key, an_object = 0, None, True
    try:
        events = ijson.basic_parse(reader, use_float=True, buf_size=READ_AHEAD)
        for event, value in nesting.check_events(events):
            reader.since = 0
            if depth == 0 and event != "start_map":
                an_object = False
                break
            if depth == 1 and event == "map_key":
                key = value
            elif depth == 1 and key in ("format", "format_version") and event not in OPENS:
                found[key] = value
            depth += (event in OPENS) - (event in CLOSES)
    except nesting.TooDeep as error:
        raise exchange.problem(("body",), str(error), "json_invalid") from error
    except exchange.Problem as error:
        too_large = f"A value is larger than {MAX_GAME_BYTES // 1024**2} MB."
        raise exchange.problem(("body",), too_large) from error
    except ijson.JSONError as error:  # ijson's IncompleteJSONError is one too
        raise exchange.problem(("body",), f"Not valid JSON: {error}.", "json_invalid") from error
    if not an_object:
        raise exchange.problem(("body",), "Expected a JSON object (a backup of all games).", "dict_type")
    if found.get("format") != BACKUP_FORMAT:
        raise exchange.problem(("body", "format"), f"Not a backup: format must be {BACKUP_FORMAT!r}.",
                               "literal_error")
    if found.get("format_version") != BACKUP_VERSION:
        raise exchange.problem(("body", "format_version"),
                               f"Unknown backup format version; this app reads {BACKUP_VERSION}.")


class _OneGameAtATime:
    """The file as ijson reads it, refusing to hand over more than MAX_GAME_BYTES (and a read-ahead)
    between two games: one game of a backup can never take more memory than a single import."""

    def __init__(self, file: IO[bytes]):
        self.file, self.index, self.since = file, 0, 0

    def next_game(self) -> None:
        self.index, self.since = self.index + 1, 0

    def read(self, size: int = -1) -> bytes:
        data = self.file.read(size if size >= 0 else READ_AHEAD)
        self.since += len(data)
        if self.since > MAX_GAME_BYTES + READ_AHEAD:
            raise exchange.problem(("body", "games", self.index),
                                   f"One game is larger than {MAX_GAME_BYTES // 1024**2} MB.")
        return data


def backup_games(file: IO[bytes]) -> Iterator[tuple[int, Any]]:
    """Each entry of the backup's `games` list in turn, only one of them in memory at a time
    (ijson builds each in C, reading the file in small pieces)."""
    file.seek(0)
    reader = _OneGameAtATime(file)
    try:
        for game in ijson.items(reader, "games.item", use_float=True, buf_size=READ_AHEAD):
            yield reader.index, game
            del game  # let go of it before the next one is built
            reader.next_game()
    except ijson.JSONError as error:
        raise exchange.problem(("body",), f"Not valid JSON: {error}.", "json_invalid") from error


def validate(file: IO[bytes]) -> int:
    """Check the whole backup, one game at a time; answers how many games it holds."""
    check_header(file)
    count = 0
    for index, doc in backup_games(file):
        exchange.parse_game(doc, ("body", "games", index))
        count += 1
    if not count:
        raise exchange.problem(("body", "games"), "A backup needs a non-empty list of games.", "list_type")
    return count


def restore(session: Session, file: IO[bytes]) -> list[Game]:
    """Every game of the backup as a new game with new links, once all of them validated, in one
    transaction: all of them or, whatever fails, none (a client that got no links may retry
    without duplicating a game)."""
    validate(file)
    ids = []
    try:
        for index, doc in backup_games(file):
            game = exchange.store(session, exchange.parse_game(doc, ("body", "games", index)))
            session.flush()
            ids.append(game.id)
            session.expunge_all()  # the game's steps leave memory; their rows wait for the commit
        session.commit()
    except BaseException:
        session.rollback()
        raise
    return [session.get_one(Game, game_id) for game_id in ids]
