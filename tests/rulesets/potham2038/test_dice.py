"""Dice pools, rolls by the app or entered, the Black Die (rules.md § Dice, R-CMB-ROLL)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rulesets.potham2038.dice import (
    MAX_DICE,
    Roll,
    entered_roll,
    parse_pool,
    pool_text,
    roll_black_die,
    roll_pool,
    validate_pool,
)
from app.rulesets.potham2038.house_rules import default_faces


@pytest.mark.parametrize(
    ("text", "pool"),
    [
        ("3 red + 1 white", {"red": 3, "white": 1}),
        ("3 Red+1 White", {"red": 3, "white": 1}),
        ("2 red, 1 white", {"red": 2, "white": 1}),
        ("2 red and 1 black", {"red": 2, "black": 1}),
        ("red", {"red": 1}),
        ("1 red + 2 red", {"red": 3}),
        ("0 red + 2 white", {"white": 2}),
        ("  ", {}),
        ("", {}),
    ],
)
def test_a_pool_is_read_the_way_players_write_it(text, pool):
    assert parse_pool(text) == pool


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3 blue", "unknown dice colour 'blue'"),
        ("41 red", "at most 40 dice"),
        ("30 red + 11 white", "at most 40 dice"),
        ("1000000 red", "at most 40 dice"),
        ("3 red + 4", "cannot read '4'"),
    ],
)
def test_a_bad_pool_is_refused_with_a_clear_message(text, message):
    with pytest.raises(ValueError, match=message):
        parse_pool(text)


def test_a_game_may_define_its_own_colours():
    faces = {**default_faces(), "green": ["hit", "blank"]}
    assert parse_pool("2 green + 1 red", faces) == {"green": 2, "red": 1}
    with pytest.raises(ValueError, match="unknown dice colour 'green'"):
        parse_pool("2 green")


@pytest.mark.parametrize("pool", [{}, {"red": 3}, {"red": 3, "white": 1}, {"white": 2, "black": 1}])
def test_pool_text_is_the_reverse_of_parse_pool(pool):
    assert parse_pool(pool_text(pool)) == pool


def test_validate_pool_drops_zero_counts_and_refuses_negative_ones():
    assert validate_pool({"red": 0, "White": 2}) == {"white": 2}
    with pytest.raises(ValueError, match="≥ 0"):
        validate_pool({"red": -1})


@pytest.mark.parametrize(("hits", "criticals"), [(0, 0), (3, 0), (3, 3), (5, 1)])
def test_an_entered_roll_keeps_what_was_read_off_the_table(hits, criticals):
    roll = entered_roll(hits, criticals)
    assert (roll.hits, roll.criticals, roll.by, roll.faces) == (hits, criticals, "entered", ())


@pytest.mark.parametrize(("hits", "criticals"), [(1, 2), (0, 1), (-1, 0), (2, -1)])
def test_R_CMB_ROLL_an_entered_roll_with_more_criticals_than_hits_is_refused(hits, criticals):
    with pytest.raises(ValueError):
        entered_roll(hits, criticals)


def test_R_CMB_ROLL_a_critical_face_counts_as_a_hit_too():
    faces = {"white": ["critical"], "red": ["hit"], "black": ["success"]}
    roll = roll_pool({"white": 2, "red": 1}, random.Random(0), faces)
    assert (roll.hits, roll.criticals) == (3, 2)


def test_the_app_records_every_face_it_rolls():
    roll = roll_pool({"red": 3, "white": 2}, random.Random(5))
    assert roll.by == "app"
    assert [c for c, _ in roll.faces] == ["white", "white", "red", "red", "red"]
    assert roll.hits == sum(f in ("hit", "critical") for _, f in roll.faces)
    assert roll.criticals == sum(f == "critical" for _, f in roll.faces)
    assert roll.as_dict()["faces"][0] == {"colour": "white", "face": roll.faces[0][1]}


def test_the_order_a_pool_is_written_in_does_not_change_the_roll():
    one = roll_pool({"red": 3, "white": 1}, random.Random(9))
    other = roll_pool({"white": 1, "red": 3}, random.Random(9))
    assert one == other


pools = st.dictionaries(st.sampled_from(["white", "red", "black"]), st.integers(0, 13), max_size=3)


@given(pool=pools, seed=st.integers(0, 2**32))
def test_rolls_are_reproducible_from_a_seed_and_criticals_never_exceed_hits(pool, seed):
    first = roll_pool(pool, random.Random(seed))
    assert first == roll_pool(pool, random.Random(seed))
    assert 0 <= first.criticals <= first.hits <= sum(pool.values())
    assert len(first.faces) == sum(pool.values())


def test_the_black_die_shows_success_or_blank_and_both_turn_up():
    rng = random.Random(1)
    seen = {roll_black_die(rng) for _ in range(50)}
    assert seen == {"success", "blank"}


def test_a_game_without_a_black_die_says_so():
    with pytest.raises(ValueError, match="no Black Die"):
        roll_black_die(random.Random(0), {"red": ["hit"]})


def test_roll_is_frozen():
    with pytest.raises(AttributeError):
        Roll(1, 0).hits = 2  # type: ignore[misc]


def test_max_dice_is_forty():
    assert MAX_DICE == 40
