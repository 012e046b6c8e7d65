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


Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80),
                 AfterValidator(printable)]
# A game's name (the app strips it before saving; the home page lists it)
GameName = Annotated[str, StringConstraints(min_length=1, max_length=80), AfterValidator(printable)]
