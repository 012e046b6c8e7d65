"""The faces of the Glitch die as the check card offers them, one tap each (issue 18): each names
what its row of the game's Glitch table gives (R-GLITCH, R-END-CHECK)."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.glitches import glitch_faces
from app.rulesets.potham2038.house_rules import GlitchRow, HouseRules
from tests.rulesets.potham2038.turn_kit import ADA, SENTRY, game


def test_R_GLITCH_the_default_d6_reads_reboot_overcharged_and_full_throttle_two_faces_each():
    """R-GLITCH: "the default is a d6: 1–2 Reboot, 3–4 Overcharged (+1 Health), 5–6 Full Throttle"."""
    assert glitch_faces(game(ADA, SENTRY, phase=4)) == [
        (1, "Reboot"), (2, "Reboot"), (3, "Overcharged +1"), (4, "Overcharged +1"),
        (5, "Full Throttle"), (6, "Full Throttle")]


@pytest.mark.parametrize("die, rows, expected", [
    (4, [GlitchRow(low=1, high=1, result="free_action", action="shoot"),
         GlitchRow(low=2, high=3, result="overcharged", amount=2, duration=0)],
     [(1, "Free Shoot"), (2, "Overcharged +2"), (3, "Overcharged +2"), (4, "No effect")]),
    (3, [GlitchRow(low=1, high=3, result="no_effect")], [(1, "No effect"), (2, "No effect"), (3, "No effect")]),
    (8, [GlitchRow(low=1, high=8, result="full_throttle", duration=2)], [(n, "Full Throttle") for n in range(1, 9)]),
], ids=["free action, overcharged +2, a face no row covers", "every face no effect", "a d8 of one row"])
def test_R_END_CHECK_a_house_table_gives_one_face_per_side_of_its_die_each_its_own_row(die, rows, expected):
    """*house*: "the Glitch table (die, results, amounts, durations) is per game"; R-END-CHECK:
    "An impossible Glitch result has no effect and is not rerolled" (a face no row covers)."""
    house = HouseRules(glitch_die=die, glitch_table=rows)
    assert glitch_faces(game(ADA, SENTRY, phase=4, house=house)) == expected
