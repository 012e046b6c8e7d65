"""Noise and Alarm (R-NOISE, R-ALARM)."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.marked import noise


@pytest.mark.parametrize(
    ("kind", "zones", "marked", "danger", "rule"),
    [
        ("noise", 0, 0, 0, "R-NOISE"),
        ("noise", 1, 1, 1, "R-NOISE"),
        ("noise", 3, 1, 1, "R-NOISE"),
        ("alarm", 0, 0, 1, "R-ALARM"),
        ("alarm", 1, 1, 1, "R-ALARM"),
        ("alarm", 3, 3, 1, "R-ALARM"),
    ],
    ids=[
        "R-NOISE-outside-every-zone-does-nothing",
        "R-NOISE-one-zone-one-marked-one-danger",
        "R-NOISE-three-zones-still-one-marked-in-total",
        "R-ALARM-no-zone-still-raises-danger",
        "R-ALARM-one-zone-one-marked",
        "R-ALARM-one-marked-per-zone",
    ],
)
def test_noise_and_alarm_give_marked_and_danger(kind, zones, marked, danger, rule):
    result = noise(kind, zones)
    assert (result.marked, result.danger, result.rule) == (marked, danger, rule)
    assert result.reason.endswith(".")


@pytest.mark.parametrize(("kind", "zones"), [("whisper", 1), ("noise", -1)])
def test_a_bad_kind_or_negative_zone_count_is_refused(kind, zones):
    with pytest.raises(ValueError):
        noise(kind, zones)
