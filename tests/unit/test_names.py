"""Names and texts a player types, and every text an import or a restore carries, are one
printable line (app/kernel/names.py): no control character."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter, ValidationError

from app.kernel.names import Name, printable

CONTROLS = [chr(code) for code in [*range(32), 127]]


@pytest.mark.parametrize("control", CONTROLS, ids=[f"U+{ord(c):04X}" for c in CONTROLS])
def test_a_text_with_any_control_character_anywhere_is_refused(control):
    for text in (control, f"Ada{control}", f"{control}Ada", f"A{control}da"):
        with pytest.raises(ValueError, match="control characters"):
            printable(text)


def test_every_other_character_of_the_first_planes_is_kept_as_typed():
    """The same test as the character-by-character one it replaced: below 32 or 127 is refused,
    anything else (Latin-1's own controls 128–159 included, as before) is kept."""
    for code in range(0x3000):
        if code < 32 or code == 127:
            continue
        text = f"Ada {chr(code)} Lovelace"
        assert printable(text) is text


def test_a_name_with_a_line_break_is_a_validation_error_naming_the_rule():
    with pytest.raises(ValidationError, match="control characters"):
        TypeAdapter(Name).validate_python("Sentry\n-1")
    assert TypeAdapter(Name).validate_python("  Sentry-1 ") == "Sentry-1"


# --- what a name shows: no bidirectional control, something visible ----------------------------
BIDI = [chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]]
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u3164", "\u2800", "\u00a0", "\u3000"]


@pytest.mark.parametrize("control", BIDI, ids=[f"U+{ord(c):04X}" for c in BIDI])
def test_a_name_with_a_bidirectional_control_is_refused(control):
    for text in (f"Bob{control}exe.gpj", f"{control}Ada", control):
        with pytest.raises(ValidationError, match="bidirectional control"):
            TypeAdapter(Name).validate_python(text)


@pytest.mark.parametrize("blank", INVISIBLE, ids=[f"U+{ord(c):04X}" for c in INVISIBLE])
def test_a_name_of_invisible_characters_only_is_refused(blank):
    for text in (blank, blank * 3, f" {blank} "):
        with pytest.raises(ValidationError):
            TypeAdapter(Name).validate_python(text)


def test_names_that_show_something_are_kept_as_typed():
    for text in ("Zoë", "Ada\u200dLovelace", "שלום", "محمد", "👾", "A\u200b"):
        assert TypeAdapter(Name).validate_python(text) == text
