"""Phase 3's "Dice by hand" folds are fetched when opened (issue 21): closed, a fold carries its
summary and the two radios that say who rolls (static/table.js ticks "I enter dice" as it opens),
not its count chips; its grid, fetched on the first opening, is exactly the one the panel draws
with the fold open. Open by default (the house rolls by hand), or come back with the player's
values, it is drawn whole. Without script the fold is a link to the page with it open. "I enter
dice" sent before the grid arrived is refused, never rolled by the app."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.house_rules import HouseRules
from app.store import games
from tests.rulesets.potham2038.web.test_phase3_list import seen, send
from tests.support.html import Node, parse
from tests.support.turn_games import HX, make_game, roster_state
from tests.support.turn_play import Table

# form id -> the labels of its rolls' Hits, as the full render draws them: a shot, an engagement
# (the player's names, escaped), the manual melee
ROLLS = {"shoot-sent": ["Sentry-1 Shoot: Hits", "Target Defense: Hits"],
         "melee-hunt": ["Hunter-1: Hits", "Ada: Hits"],
         "melee-hunt-bo": ["Hunter-1: Hits", "Bo <b>: Hits"],
         "melee-other": ["AI-Bot: Hits", "Character: Hits"]}


def phase3(client, session, dice_mode: str = "app") -> Table:
    """Hunter-1 fights Ada and Bo, Sentry-1 shoots Ada, Worker-1 touches Bo (test_phase3_list)."""
    state = roster_state(phase=2, activation_order=["hunt", "sent", "work", "patr"],
                         house=HouseRules(dice_mode=dice_mode))
    t = Table(client, make_game(session, state).edit_token)
    send(t, {"type": "activate_bot", "bot_id": "hunt", "tie_choice": "ada",
             "characters": seen(ada=(0, True, True), bo=(0, True, True))})
    send(t, {"type": "activate_bot", "bot_id": "sent", "subject_distance": 7,
             "characters": seen(ada=(2, True, False), bo=(10, False, False))})
    for bot in ("work", "patr"):
        send(t, {"type": "activate_bot", "bot_id": bot, "object_distance": 1, "waypoint_distance": 2,
                 "characters": seen(ada=(12, False, False), bo=(12, False, False))})
    send(t, {"type": "next_phase"})
    t.page = t.panel()
    return t


@pytest.fixture
def table(client, session):
    return phase3(client, session)


def shape(node: Node) -> list[tuple]:
    """Every element below `node` with its attributes and its own text, in order."""
    return [(n.tag, sorted(n.attrs.items()), "".join(c for c in n.children if isinstance(c, str)).strip())
            for n in [node, *node.walk()]]


def hits_labels(grid: Node) -> list[str]:
    return [f.one("legend").text() for f in grid.all("fieldset") if f.attrs["id"].endswith("-hits")]


def test_a_closed_dice_fold_carries_its_summary_and_radios_not_its_chips(table):
    folds = table.page.all("details", cls="by-hand")
    assert {f.attrs["id"] for f in folds} >= {f"{fid}-dice" for fid in ROLLS}
    for fold in folds:
        fid = fold.attrs["id"].removesuffix("-dice")
        assert "open" not in fold.attrs and fold.one("summary").text() == "Dice by hand"
        assert [(i.attrs["value"], "checked" in i.attrs) for i in fold.all("input")] == [("app", True), ("entered", False)]
        assert not fold.all(cls="entered-grid") and not fold.all("input", name="_entered")
        lazy = fold.one(cls="lazy-form")
        assert lazy.attrs["hx-get"] == f"/g/{table.token}/turn/dice/{fid}"
        assert lazy.attrs["hx-trigger"] == "toggle once from:closest details"
        assert (lazy.attrs["hx-target"], lazy.attrs["hx-swap"]) == ("this", "outerHTML")
        assert lazy.one("a").attrs["href"] == f"/g/{table.token}/turn/dice/{fid}#{fid}-dice"


def test_the_fetched_grid_is_the_one_the_panel_draws_with_the_fold_open(client, session, table):
    """The house rolling by hand draws every fold open and whole: the grid fetched for a closed
    fold is that grid, element for element (its labels name the bot and the target)."""
    whole = phase3(client, session, dice_mode="entered").page
    for fid, labels in ROLLS.items():
        fetched = table.open_dice(fid)
        drawn = whole.by_id(f"{fid}-dice-grid")
        assert shape(fetched) == shape(drawn) and hits_labels(fetched) == labels
        assert [i.attrs["value"] for i in fetched.all("input", name="_entered")] == \
            (["rolls", "rolls", "ammo_die", "black_die"] if fid.startswith("shoot") else ["rolls", "rolls"])
    assert "Bo &lt;b&gt;: Hits" in client.get(f"/g/{table.token}/turn/dice/melee-hunt-bo", headers=HX).text


def test_the_houses_dice_by_hand_draws_every_fold_open_and_whole(client, session):
    page = phase3(client, session, dice_mode="entered").page
    for fold in page.all("details", cls="by-hand"):
        assert "open" in fold.attrs and fold.one(cls="entered-grid") and not fold.all(cls="lazy-form")
        assert "checked" in fold.one("input", name="dice", value="entered").attrs


def test_a_refused_roll_comes_back_with_its_fold_open_whole_and_the_counts_typed(table):
    table.open_dice("melee-hunt")
    answer = table.submit("melee-hunt", expect=422, dice="entered",
                          **{"rolls.npc.hits": "2", "rolls.npc.criticals": "3", "rolls.character.hits": "1"})
    fold = answer.by_id("melee-hunt-dice")
    assert "open" in fold.attrs and not fold.all(cls="lazy-form")
    assert "checked" in fold.by_id("melee-hunt-rolls-npc-hits-2").attrs
    assert "checked" in fold.by_id("melee-hunt-rolls-character-hits-1").attrs
    assert fold.all(cls="field-error")
    assert answer.by_id("shoot-sent-dice").one(cls="lazy-form")  # the others stay folded


def test_i_enter_dice_sent_before_the_grid_arrived_is_refused_and_nothing_is_rolled(client, table):
    before = client.get(f"/api/games/{table.token}").json()
    answer = table.submit("melee-hunt", expect=422, dice="entered")  # the fold's grid never fetched
    fold = answer.by_id("melee-hunt-dice")
    assert "had not arrived" in fold.one(cls="field-error").text()
    assert "open" in fold.attrs and fold.one(cls="entered-grid")  # the counts to tap, right there
    ticked = [i.attrs["id"] for i in fold.one(cls="entered-grid").all("input", type="radio") if "checked" in i.attrs]
    assert ticked == ["melee-hunt-rolls-npc-hits-0", "melee-hunt-rolls-npc-criticals-0",  # as first drawn:
                      "melee-hunt-rolls-character-hits-0", "melee-hunt-rolls-character-criticals-0"]  # none unsent
    after = client.get(f"/api/games/{table.token}").json()
    assert after == before  # no step: the app rolled nothing in the player's place
    table.submit("melee-hunt", dice="entered", **{"rolls.npc.hits": "1", "rolls.character.hits": "0"})
    log = table.panel("log").all("li", cls="log-step")[0].text()
    assert "dice entered" in log and "Ada takes 1 damage" in table.page.by_id("engagement-hunt-ada").text()


def test_the_app_still_rolls_a_closed_fold_without_its_grid(client, table):
    table.submit("melee-hunt")  # the fold never opened: "App rolls", as drawn
    assert "dice rolled by the app" in table.panel("log").all("li", cls="log-step")[0].text()


@pytest.mark.parametrize("fid", ["melee-hunt", "shoot-sent", "melee-other"])
def test_without_javascript_a_dice_fold_is_a_link_to_the_page_with_it_open(client, table, fid):
    page = parse(client.get(f"/g/{table.token}/turn/dice/{fid}").text)
    assert page.has_id("panel-log")
    fold = page.by_id(f"{fid}-dice")
    assert "open" in fold.attrs and fold.one(cls="entered-grid") and not fold.all(cls="lazy-form")
    assert "checked" in fold.one("input", name="dice", value="entered").attrs  # the player asked for it
    node = fold.parent
    while node is not None:  # every fold around it open too (the manual melee's section)
        assert node.tag != "details" or "open" in node.attrs
        node = node.parent
    others = [f for f in page.all("details", cls="by-hand") if f is not fold]
    assert others and all(f.one(cls="lazy-form") for f in others)


@pytest.mark.parametrize("fold", ["nope", "melee-hunt<script>", "x" * 121, "hack"])
def test_a_dice_fold_the_panel_does_not_have_is_a_422_naming_the_field(client, table, fold):
    r = client.get(f"/g/{table.token}/turn/dice/{fold}", headers=HX)
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["path", "fold"]
    assert r.headers["content-type"] == "application/json" and fold not in r.text  # nothing echoed
    assert r.headers["HX-Reswap"] == "none"  # htmx leaves the fold's stand-in as it is


def test_the_watch_link_gets_no_dice_folds_and_cannot_fetch_one(client, session, table):
    game, _ = games.find_game(session, table.token)
    watch = parse(client.get(f"/v/{game.view_token}").text)
    assert watch.has_id("panel-turn") and not watch.all("details", cls="by-hand") and not watch.all("form", cls="command-form")
    assert client.get(f"/g/{game.view_token}/turn/dice/melee-hunt", headers=HX).status_code == 403
    assert client.get(f"/v/{game.view_token}/turn/dice/melee-hunt", headers=HX).status_code == 404
