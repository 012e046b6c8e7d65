"""The live region's sentence after a step (app/web/announce.py): what happened, in one sentence a
screen reader reads in a breath; the reasons, odds and rule ids stay in the panel."""

from __future__ import annotations

import pytest

from app.store.tables import Step
from app.web import view
from app.web.announce import announcement, headline, refusal


@pytest.fixture(autouse=True)
def labels(monkeypatch):
    """2038's step labels, as its web part installs them in the app (app/bootstrap.py)."""
    for kind, label in {"activate_bot": "Activation", "record_event": "Event", "noise": "Noise / Alarm"}.items():
        monkeypatch.setitem(view.STEP_LABELS, kind, label)


def step(kind: str, *texts: str, delta=None) -> Step:
    return Step(game_id=1, seq=3, kind=kind, command={"type": kind}, entries=[{"text": t} for t in texts],
                delta=delta)


def test_an_entry_gives_what_happened_not_why():
    assert headline('Hunter-1, action 1: walk 4", now. No Character is inside its zone.') == \
        'Hunter-1, action 1: walk 4", now'
    assert headline("Sentry-1 holds its post (R-SENTRY-HOLD).") == "Sentry-1 holds its post"
    assert headline("Slot 1 stays empty: Nothing legal is left: Maneuver: not logical; Attack: none") == \
        "Slot 1 stays empty: Nothing legal is left"
    assert headline('A 4.5" move.') == 'A 4.5" move'  # a decimal point is no sentence's end


def test_a_long_entry_is_cut_at_a_word():
    said = headline("Ada " + "walks on " * 40)
    assert len(said) <= 141 and said.endswith("…") and "  " not in said


def test_an_activation_is_one_sentence_with_each_action():
    said = announcement(step("activate_bot", 'Hunter-1, action 1: melee Ada. Ada is in base contact.',
                             "Hunter-1, action 2: scan Bo. Bo is in sight."))
    assert said == "Activation: Hunter-1, action 1: melee Ada; Hunter-1, action 2: scan Bo."


def test_a_danger_change_is_said_when_the_entries_do_not_say_it():
    """R-DANGER: the track is on screen in colour and number; the sentence says the new value."""
    said = announcement(step("noise", "Vex: an Alarm inside Sentry-1's zone.", delta=[["set", ["danger"], 5]]))
    assert said.endswith("Danger 5.")
    said = announcement(step("record_event", "Event: Event card", "Event card: Danger 0 → 1.",
                             delta=[["set", ["danger"], 1]]))
    assert said == "Event: Event card; Event card: Danger 0 → 1."  # said once, not twice


def test_a_refusal_is_said_with_its_reason():
    assert refusal("Answer the position checks first.") == "Not recorded: Answer the position checks first."
    assert refusal(None) == "" and announcement(None) == ""
