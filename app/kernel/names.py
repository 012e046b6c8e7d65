"""Names a player types: one printable line, of any ruleset's model or of a game."""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import AfterValidator, StringConstraints

# C0 control characters and DEL: one regular expression, not a Python test per character (an
# import or a restore checks every text of every step: a 20 MB backup spent most of its time here)
CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def printable(text: str) -> str:
    """A name is one line a page can show: no NUL, line break or other control character
    (a NUL also cannot be stored in PostgreSQL text)."""
    if CONTROL.search(text):
        raise ValueError("must not contain control characters (such as NUL or a line break)")
    return text


# Bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): a name holding
# one reorders what follows it on the page ("Bob" + RLO + "exe.gpj" shows as "Bobjpg.exe"), and
# can make one co-player's name read as another's.
BIDI_CONTROL = re.compile(r"[\u202a-\u202e\u2066-\u2069]")
# What shows nothing: white space, zero-width characters and joiners, the soft hyphen, the
# invisible operators, the byte-order mark, the Hangul and Braille blanks. A name of these alone
# (U+200B) looks empty on the page, or like no name at all.
INVISIBLE_ONLY = re.compile(r"[\s\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e"
                            r"\u200b-\u200f\u2060-\u2064\u2800\u3164\ufeff\uffa0]*")


def shown(text: str) -> str:
    """A name shows as typed and shows something: no bidirectional control, not invisible."""
    if BIDI_CONTROL.search(text):
        raise ValueError("must not contain bidirectional control characters (they reorder the text shown)")
    if INVISIBLE_ONLY.fullmatch(text):
        raise ValueError("must contain at least one visible character")
    return text


Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80),
                 AfterValidator(printable), AfterValidator(shown)]
# A game's name (the app strips it before saving; the home page lists it)
GameName = Annotated[str, StringConstraints(min_length=1, max_length=80), AfterValidator(printable),
                     AfterValidator(shown)]
