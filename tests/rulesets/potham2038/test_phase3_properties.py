"""Phase 3 over generated whole turns (tests/support/phase3_games.py; 2,000 under `make test-long`,
a quarter in `make test`): whatever a careless player taps, and in whatever order, the engine
accepts nothing the third reading forbids.

Seed 001 (the 2038 Complete Combat Flowchart): "Continue unresolved engagements until their
required opponents resolve or separate"; "AFTER MELEE · ELIGIBLE NPC RANGED ATTACKS"; "Spend its
normal action unless an explicit rule makes it free; obey the one-action-per-family rule";
"It may shoot into another melee using the Core target check"; "Movement and combat still belong
to their respective phases".
"""

from __future__ import annotations

import pytest

from tests.support.examples import examples
from tests.support.phase3_games import play_turns

TURNS = examples(2000)  # 500 whole turns in `make test`, all 2000 in `make test-long`


@pytest.fixture(scope="module")
def played():
    return play_turns(TURNS, seed=15)


def test_the_generator_really_plays_phase_3(played):
    """The audit means something only if melees, shots and re-decisions were accepted."""
    assert played["turns"] == TURNS
    assert played["accepted resolve_melee"] > TURNS // 2 and played["accepted bot_shoot"] > TURNS // 20
    assert played["accepted redecide"] > 0 and played["accepted record_glitch"] > 0
    # the fourth reading's cases really occur: shots at a known melee, free Melees fought twice
    assert played["known melee shots"] > 0 and played["second bouts"] > 0 and played["free effects"] > 0


@pytest.mark.parametrize("violation, reading", [
    ("early_shots", "R-CMB-GANGUP: no AI-Bot shot before an unresolved engagement"),
    ("double_attacks", "R-CMB-GANGUP, R-CMB-NOACTION: no bot attacks twice with one action"),
    ("phase3_moves", "R-PHASE-MOVE: no movement in Phase 3"),
    ("unchecked_shots", "R-CMB-TARGET-FACTS: no shot at a target without confirmed facts"),
    ("free_action_without_effect", "R-GLITCH-FREE-ACTS: a free action leaves the state it names"),
    ("stuck_free_melee", "R-GLITCH-FREE-ACTS: a free Melee on an opponent still in contact is resolved"),
    ("blank_hits_intended", "R-CMB-BLACK-KNOWN: a Blank never hits the intended target unless healthiest"),
    ("unchecked_black_die", "R-CMB-BLACK-KNOWN: a shot at a model known in a melee rolls the Black Die"),
], ids=["R-CMB-GANGUP-no-early-shot", "R-CMB-GANGUP-one-attack", "R-PHASE-MOVE", "R-CMB-TARGET-FACTS",
        "R-GLITCH-FREE-ACTS", "R-GLITCH-FREE-ACTS-second-melee", "R-CMB-BLACK-KNOWN",
        "R-CMB-BLACK-KNOWN-rolled"])
def test_no_generated_turn_breaks_the_third_or_fourth_reading(played, violation, reading):
    assert played[violation] == 0, f"{reading}: {played[violation]} in {TURNS} turns"
