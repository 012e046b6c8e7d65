"""The game page driven as a player at a real table drives it (issue 18's six turns): one function
per thing the player does, each input through the counter (tests/support/taps.py), each picking
the cheapest way the page offers today (a select only when it shows something else, a stepper
tapped only as often as needed). Located by ids and accessible names, so the page may change
under a function without the turns' script changing."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.support import http
from tests.support.taps import Taps
from tests.support.waits import shows_step


class Board:
    """What one AI-Bot's activation would find on the table (the facts the player can report):
    `contact` and `zone` (others inside its zone), `sight`, `at` (inches to each Character) and
    `own` (inches to its subject / object / waypoints, by name). `still`: models the player says did
    not move since their fact was last given (a "same as before" tap may take it; never assumed)."""

    def __init__(self, contact=(), zone=(), sight=(), at=None, own=None, still=(), pick=None):
        self.contact, self.zone, self.sight = list(contact), list(zone), list(sight)
        self.at, self.own, self.still, self.pick = dict(at or {}), dict(own or {}), set(still), pick

    def inches(self, name: str) -> float:
        if name in self.contact:
            return 0
        if name in self.at:
            return self.at[name]
        if name in self.own:
            return self.own[name]
        raise AssertionError(f"the board gives no distance to {name!r}")


class Player:
    """The game page in Chromium, every input counted."""

    def __init__(self, page: Page, url: str, token: str):
        self.page, self.url, self.token, self.taps = page, url, token, Taps()
        self.ids: dict[str, str] = {}  # a model's id never changes: asked of the API once per name
        self.sizes: list[dict] = []  # the turn panel's size as each Phase 3 starts (issue 21: measured)
        self.watch = None  # a TapWatch (tests/support/tap_watch.py): each step's time and what shows
        self.audits: list = []  # (page, tests.support.axe.NewStates, name): each new kind of state checked by axe

    # --- reading the game (not inputs) ------------------------------------------------------
    def api(self) -> dict:
        return http.get(f"{self.url}/api/games/{self.token}").json()

    def model(self, name: str) -> dict:
        state = self.api()
        return next(m for m in state["characters"] + state["bots"] if m["name"] == name)

    def id(self, name: str) -> str:
        if name not in self.ids:  # a name not seen yet (an AI-Bot added since): the whole roster again
            state = self.api()
            self.ids.update((m["name"], m["id"]) for m in state["characters"] + state["bots"])
        return self.ids[name]

    def decision(self, bot: str) -> list[str]:
        found = [d for d in self.api()["decisions"] if d["bot_id"] == self.id(bot)]
        return [a["action"] for a in found[0]["actions"]] if found else []

    def seq(self) -> int:
        return int(self.page.locator("#panel-turn").get_attribute("data-seq"))

    def panel_size(self) -> dict:
        """The turn panel's elements and kilobytes of HTML as the page shows it (not an input)."""
        return panel_size(self.page)

    def no_error(self) -> None:
        errors = self.page.locator("#panel-turn .form-error, #panel-turn .field-error")
        assert errors.count() == 0, errors.all_inner_texts()

    # --- inputs -----------------------------------------------------------------------------
    def settle(self) -> int:
        """Wait until no htmx request or swap is in flight (not an input); answers the step the
        turn panel shows then (one trip to the page for both)."""
        return int(self.page.wait_for_function(
            "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
            " && document.getElementById('panel-turn').dataset.seq").json_value())

    def step(self, target, steps: int = 1) -> None:
        """Tap something that makes `steps` steps, and wait until the page shows them."""
        before = self.settle()
        self.taps.click(target)
        try:
            shows_step(self.page, before + steps)
        except AssertionError:
            self.no_error()
            raise
        if self.watch:
            self.watch.step_done()
        self.check_state()

    def check_state(self) -> None:
        """Axe on the page as it shows now, if it shows a kind of state not checked yet (not an input)."""
        if not self.audits:
            return
        seq = self.settle()
        for page, audit, name in self.audits:
            if page is not self.page:  # a watching page: once the step has come in live
                shows_step(page, seq)
            audit.check_if_new(page, f"2038 {name}, step {seq} ({self.taps.part})")

    def select(self, field, value: str) -> None:
        """A select the player changes only when it does not already show `value` (an option's text)."""
        shown = field.evaluate("s => s.options[s.selectedIndex] ? s.options[s.selectedIndex].text : ''")
        if shown.strip() != value:
            self.taps.select(field, label=value)

    def open(self, details) -> None:
        """One tap on a folded section's heading, once the page has settled (no swap in flight)."""
        self.settle()
        if not details.evaluate("d => d.open"):
            self.taps.click(details.locator("> summary"))
            expect(details).to_have_attribute("open", "")
            self.check_state()

    def stepper(self, form, label: str, value: int) -> None:
        field = form.get_by_label(label, exact=True)
        shown = int(field.input_value() or 0)
        way = "one more" if value > shown else "one less"
        for _ in range(abs(value - shown)):
            self.taps.click(form.get_by_role("button", name=f"{label}: {way}", exact=True))

    def chip(self, radio_id: str) -> None:
        """A chip (a hidden radio inside its label): one tap on the label, only when it is not
        already the one chosen (a preselected chip costs nothing)."""
        radio = self.page.locator(f"#{radio_id}")
        if not radio.is_checked():
            self.taps.click(self.page.locator(f"label:has(#{radio_id})"))
            expect(radio).to_be_checked()

    def dice_by_hand(self, fid: str, rolls: dict[str, tuple[int, int]]) -> None:
        """Open form `#form-{fid}`'s "Dice by hand" fold (its opening means the player enters
        the dice: no mode tap) and tap each roll's counts: field prefix → (Hits, of which
        Criticals). Both show 0: only a count above 0 is a tap."""
        self.open(self.page.locator(f"#{fid}-dice"))
        expect(self.page.locator(f"#form-{fid}").get_by_label("I enter dice")).to_be_checked()
        expect(self.page.locator(f"#{fid}-dice .entered-grid")).to_be_visible()  # fetched on opening (issue 21)
        if self.watch:
            self.watch.fold_open_shape()
        for prefix, (hits, criticals) in rolls.items():
            key = f"{fid}-{prefix.replace('.', '-')}"
            self.chip(f"{key}-hits-{hits}")
            self.chip(f"{key}-criticals-{criticals}")


# --- Phase 1 ------------------------------------------------------------------------------------


def entered_zone(p: Player, bot: str, character: str) -> None:
    """R-MARK-MOVE: an AI-Bot inside a moving Character's zone, one tap."""
    p.step(p.page.get_by_role("button", name=f"{bot} entered {character}'s zone"))


def base_contact(p: Player, character: str, bot: str) -> None:
    """R-ZONE, R-MARK-MOVE, R-LOS: the Character walked into base contact with the AI-Bot (from
    outside its zone: +1 Marked), one tap on the Character's card; Phase 3 lists the pair."""
    p.step(p.page.get_by_role("button", name=f"{character} moved into base contact with {bot}"))


def noise(p: Player, character: str, bot: str) -> None:
    p.step(p.page.get_by_role("button", name=f"Noise by {character} inside {bot}'s zone"))


def alarm(p: Player, character: str, zones: list[str]) -> None:
    """R-ALARM: +1 Marked per zone that contains the Character, Danger +1. Inside one zone or
    none: one tap on the Character's card; several: the folded form with every zone ticked."""
    if len(zones) <= 1:
        where = p.id(zones[0]) if zones else "none"
        p.step(p.page.locator(f"#quick-alarm-{p.id(character)}-{where}"))
        return
    p.open(p.page.locator("#section-noise"))
    p.open(p.page.locator("#section-noise-many"))
    form = p.page.locator("#form-noise")
    p.select(form.get_by_label("Character", exact=True), character)
    p.taps.check(form.get_by_label("Alarm", exact=True))
    for bot in zones:
        p.taps.check(form.get_by_label(bot, exact=True))
    p.step(form.get_by_role("button", name="Record"))


def character_shoot(p: Player, shooter: str, target: str, cover: str = "none",
                    dice: dict[str, tuple[int, int]] | None = None) -> None:
    """R-CMB-SHOOT on the shooter's card: the target's chip, its Cover's chip (None preselected),
    dice by hand behind the card's "Dice by hand" fold, then Shoot."""
    fid = f"cshoot-{p.id(shooter)}"
    p.chip(f"{fid}-target_id-{p.id(target)}")
    p.chip(f"{fid}-cover-{cover}")
    if dice:
        p.dice_by_hand(fid, dice)
    p.step(p.page.locator(f"#{fid}-go"))


def distracted(p: Player, character: str, bots: list[str]) -> None:
    """R-DISTRACTED: the Character takes Distracted against the AI-Bots in base contact: one
    AI-Bot is one tap on the Character's card; several at once, the Distracted section's form."""
    if len(bots) == 1:
        p.step(p.page.locator(f"#distract-{p.id(character)}-{p.id(bots[0])}"))
        return
    p.open(p.page.locator("#section-distracted"))
    form = p.page.locator("#form-distracted")
    p.select(form.get_by_label("Character in base contact", exact=True), character)
    for bot in bots:
        p.taps.check(form.get_by_label(bot, exact=True))
    p.step(form.get_by_role("button", name="Invoke Distracted"))


def hack(p: Player, character: str, bot: str, stat: str, opposing: str, diagnostics: bool) -> None:
    """R-HACK against an AI-Bot's stat, on the Character's card: the AI-Bot's chip, the Character's
    stat and the AI-Bot's stat the Mission names (chips; the opposing chip follows the stat chip
    to the same-named stat, so a Defense-against-Defense Mission costs no third chip), DIAGNOSTICS
    ticked when carried (R-HACK-TECH: it helps against an NPC stat), then Hack; the app rolls."""
    fid = f"chack-{p.id(character)}"
    p.chip(f"{fid}-bot_id-{p.id(bot)}")
    p.chip(f"{fid}-stat-{stat}")
    p.chip(f"{fid}-opposing_stat-{opposing.lower()}")
    box = p.page.locator(f"#{fid}-diagnostics")  # only for a Character that carries it
    assert box.count() == 1 or not diagnostics, f"{character} carries no DIAGNOSTICS"
    if box.count() and box.is_checked() != diagnostics:
        p.taps.click(box)
    p.step(p.page.locator(f"#{fid}-go"))


def phase(p: Player) -> int:
    """The phase the turn panel shows (not an input)."""
    return int(p.page.locator("#panel-turn").get_attribute("data-phase"))


def next_phase(p: Player, phase_now: int) -> None:
    """The way on from `phase_now`: Phase 2 with nothing for Phase 3 goes on to Phase 4 in one
    tap (two steps); otherwise "Next phase"."""
    onward = p.page.locator("#to-phase-4")
    if phase_now == 2 and onward.count():
        p.step(onward, steps=2)
        return
    p.step(p.page.locator(f"#form-next-{phase_now} button[type=submit]"))


# --- Phase 2 ------------------------------------------------------------------------------------


def event(p: Player, name: str, danger: int, marked: dict[str, int] | None = None) -> None:
    """An Event card with the name the player gives it (a typed name is the player's choice): its
    name, its Marked chips and its Danger button in one row, offered as Phase 1 ends (the Danger
    button ends Phase 1 too: two steps, one tap) and in Phase 2; beyond what that row offers
    (Danger outside -1..2, more than +2 Marked) Phase 2's full form with steppers."""
    marked = marked or {}
    if danger in (1, 2, 0, -1) and all(0 <= n <= 2 for n in marked.values()):
        if name:
            with p.taps.section(p.taps.part + "/name"):  # a name the player chooses to give
                p.taps.type(p.page.locator("#event-quick-title"), name)
        for character, n in marked.items():
            p.chip(f"event-quick-marked-{p.id(character)}-{n}")
        p.step(p.page.locator(f"#event-danger-{danger}"))  # one step, Phase 1 ending with it (§ 5.6)
        return
    if phase(p) == 1:
        next_phase(p, 1)
    form = p.page.locator("#form-event")
    p.stepper(form, "Danger change", danger)
    with p.taps.section(p.taps.part + "/name"):  # a name the player chooses to give
        p.taps.type(form.get_by_label("Event drawn"), name)
    for character, n in marked.items():
        p.stepper(form, character, n)
    p.step(form.get_by_role("button", name="Record the Event"))


def add_bot_from_role(p: Player, role: str, name: str) -> None:
    """A new AI-Bot from its role's starting sheet ("+ Hunter"), its name the one offered."""
    p.taps.click(p.page.locator("#panel-roster a[data-role]", has_text=role))
    form = p.page.locator("#form-bot-new")
    field = form.get_by_label("Name", exact=True)
    if field.input_value() != name:
        with p.taps.section(p.taps.part + "/name"):
            p.taps.type(field, name)
    p.taps.click(form.get_by_role("button", name="Add AI-Bot"))
    expect(p.page.locator("#panel-roster li[data-model=bot]").filter(has_text=name)).to_have_count(1)


def band_for(labels: list[str], inches: float) -> int:
    """The band a distance falls in: base contact at 0, else the first whose inches reach it."""
    for i, label in enumerate(labels):
        if label.lower().startswith("in base contact"):
            if inches == 0:
                return i
            continue
        if "farther" in label.lower():
            return i
        if inches <= float(re.findall(r'([\d.]+)"', label)[-1]):
            return i
    return len(labels) - 1


def _band_tap(board: Board, model: str, labels: list[str], inches: float) -> int:
    """The band tap for `model`; on its waypoint (0") where the row says the next waypoint's band
    in the same tap ("On Gate, Fountain within a Walk (4")"), the one that fits that distance."""
    on = f"On {model}, "
    both = [i for i, label in enumerate(labels) if label.startswith(on)]
    if inches != 0 or not both:
        alone = [i for i in range(len(labels)) if i not in both]
        return alone[band_for([labels[i] for i in alone], inches)]
    rest = [labels[i][len(on):] for i in both]
    then = next(k for k in board.own if rest[0].startswith(f"{k} "))
    return both[band_for([r[len(then) + 1:] for r in rest], board.inches(then))]


def _name_of(p: Player, key: str) -> str:
    state = p.api()
    return next((m["name"] for m in state["characters"] + state["bots"] if m["id"] == key), key)


def _answer_zone(p: Player, board: Board) -> None:
    """Who is inside its zone (base contact counts as inside): one tap where the row has it —
    nobody (and, where the page asks it with it, who it sees), one, or both alike — else the
    "Several…" list."""
    page, inside = p.page, board.contact + board.zone
    if not inside:
        seen = [p.id(n) for n in board.sight]
        alive = [c for c in p.api()["characters"] if c["health"] > 0]
        sees = "nobody" if not seen else seen[0] if len(seen) == 1 else "everyone" if len(seen) == len(alive) else None
        tap = page.locator(f"#ask-nobody-sees-{sees}")
        p.taps.click(tap if sees and tap.count() else page.locator("#ask-nobody"))
        return
    if len(inside) == 1:
        kind = "contact" if board.contact else "zone"
        p.taps.click(page.locator(f"#ask-{kind}-{p.id(inside[0])}"))
        return
    alike = "contact" if set(board.contact) == set(inside) else "zone" if not board.contact else None
    if alike and page.locator(f"#ask-{alike}-both").count():
        p.taps.click(page.locator(f"#ask-{alike}-both"))
        return
    p.open(page.locator("#ask-several"))
    form = page.locator("#form-ask-several")
    for name in inside:
        what = "Base contact" if name in board.contact else "Inside"
        p.taps.check(form.locator(f"fieldset[data-character='{name}']").get_by_label(what, exact=True))
    p.taps.click(form.get_by_role("button", name="Done"))


def _answer(p: Player, board: Board) -> None:
    page = p.page
    nobody = not board.contact and not board.zone
    for same in page.locator("#form-ask button[data-same]").all():  # "still true": it did not move
        if same.get_attribute("data-same") in board.still and (nobody or same.get_attribute("id") == "ask-still"):
            p.taps.click(same)
            return
    if page.locator("#ask-decide").count():
        p.taps.click(page.locator("#ask-decide"))
        return
    fact = page.locator("#form-ask input[name=fact]").get_attribute("value")
    buttons = page.locator("#form-ask .tap-row button")
    if fact == "zone":
        _answer_zone(p, board)
    elif fact in ("line_of_sight", "contact"):
        seen = board.sight if fact == "line_of_sight" else board.contact
        name = {0: "Nobody", 1: seen[0] if seen else "", 2: "Both"}[len(seen)]
        p.taps.click(buttons.filter(has_text=re.compile(f"^{re.escape(name)}$")))
    elif fact == "closest":
        options = [b.inner_text().strip() for b in buttons.all()]
        pick = board.pick if board.pick in options else min(options, key=board.inches)
        p.taps.click(buttons.nth(options.index(pick)))
    elif fact == "direction":
        p.taps.click(page.locator("#ask-direction-roll"))
    elif fact == "split":  # "Up to 20"" or "More than 20"": the figure the decision turns on
        model = _name_of(p, page.locator("#form-ask-inches button[name=measured]").get_attribute("value"))
        limit = float(re.findall(r'([\d.]+)"', page.locator("#ask-split-up_to").inner_text())[0])
        p.taps.click(page.locator("#ask-split-up_to" if board.inches(model) <= limit else "#ask-split-more_than"))
    elif fact in ("band", "inches"):
        model = _name_of(p, page.locator("#form-ask-inches button[name=measured]").get_attribute("value"))
        inches = board.inches(model)
        if fact == "band":
            labels = [b.inner_text() for b in buttons.all()]
            p.taps.click(buttons.nth(_band_tap(board, model, labels, inches)))
        else:
            p.taps.type(page.locator("#ask-inches"), f"{inches:g}")
            p.taps.click(page.locator("#form-ask-inches button[name=measured]"))
    else:
        raise AssertionError(f"no answer for {fact!r}: {page.locator('#ask-question').inner_text()}")


def activate(p: Player, bot: str, board: Board) -> None:
    """Answer each question by a tap until the activation is recorded (its decision card)."""
    page = p.page
    if not page.locator("#activate-heading").inner_text().startswith(f"Activate {bot}"):
        p.taps.click(page.locator(f"#pick-{p.id(bot)}"))  # R-ACT-ORDER: this one next
    expect(page.locator("#activate-heading")).to_contain_text(f"Activate {bot}")
    before = p.seq()
    for _ in range(12):
        told = page.locator("#form-ask input[name=told]").first.get_attribute("value")
        _answer(p, board)
        page.wait_for_function(
            "([seq, told]) => { const p = document.getElementById('panel-turn');"
            " const f = document.querySelector('#form-ask input[name=told]');"
            " return p && (Number(p.dataset.seq) > seq || (f && f.value !== told)"
            " || document.querySelector('#panel-turn .form-error')); }", arg=[before, told])
        p.no_error()
        if p.watch:
            p.watch.step_done()
        if p.seq() > before:
            return
    raise AssertionError(f"{bot}: still asking after 12 taps")


# --- Phase 3 ------------------------------------------------------------------------------------


def melee(p: Player, bot: str, character: str, attacker: str | None = None, counter: bool = False) -> None:
    """One engagement of the list: who attacks (the rule's answer; a Special Rule's override is one
    tap), a counter-attack, app rolls."""
    card = p.page.locator(f"#engagement-{p.id(bot)}-{p.id(character)}")
    if attacker:
        p.taps.check(card.get_by_label(f"A Special Rule says otherwise: {attacker} attacks", exact=True))
    if counter:  # one visible chip (R-CMB-COUNTER)
        p.taps.check(card.get_by_label(f"{character} counter-attacks", exact=True))
    p.step(card.get_by_role("button", name="Resolve the melee"))


def other_melee(p: Player, bot: str, character: str, attacker: str) -> None:
    """An engagement the list does not know (models that came into contact otherwise)."""
    p.open(p.page.locator("#section-other-melee"))
    form = p.page.locator("#form-melee-other")
    p.select(form.get_by_label("AI-Bot", exact=True), bot)
    p.select(form.get_by_label("Character", exact=True), character)
    p.taps.check(form.get_by_label({"npc": "The AI-Bot", "character": "The Character"}[attacker], exact=True))
    p.step(form.get_by_role("button", name="Resolve the melee"))


def bot_shot(p: Player, bot: str, cover: str | None = None, dice: dict[str, int] | None = None,
             ammo: str | None = None) -> None:
    """A decided shot confirmed in one tap (R-ACT-FACTS), its Cover a chip (none|light|heavy),
    its dice maybe by hand ({prefix: (Hits, Criticals)}) with the Out of Ammo die's chip
    (success|blank) when a Critical was rolled."""
    fid = f"shoot-{p.id(bot)}"
    if cover:
        p.chip(f"{fid}-cover-{cover}")
    if dice:
        p.dice_by_hand(fid, dice)
    if ammo:
        p.chip(f"{fid}-ammo_die-{ammo}")
    p.step(p.page.locator(f"#{fid}-confirm"))


def phase3(p: Player, how: dict | None = None) -> list[str]:
    """Every card of the list from the top, as a player works down it: an engagement resolved
    (app rolls unless `how` says otherwise), a decided shot confirmed, a shot whose target is out
    of action skipped. `how`: {("Hunter-1", "Rook"): {...melee kwargs}, ("Sentry-1", "shot"):
    {...bot_shot kwargs}}. Answers what was done, in order."""
    how, done = how or {}, []
    p.settle()
    p.sizes.append(p.panel_size())
    for _ in range(12):
        cards = p.page.locator("#phase-3 .p3-list article.p3-card:not(.settled)")
        card = next((c for c in cards.all() if c.locator("button.primary:not([disabled])").count()
                     or c.locator("button", has_text="Skip action").count()), None)
        if card is None:
            return done
        bot, kind = card.get_attribute("data-bot"), card.get_attribute("class")
        if "engagement" in kind:
            character = card.get_attribute("data-character")
            melee(p, bot, character, **how.get((bot, character), {}))
            done.append(f"{bot} vs {character}")
        elif "shot" in kind and card.locator("button.primary:not([disabled])").count():
            bot_shot(p, bot, **how.get((bot, "shot"), {}))
            done.append(f"{bot} shoots")
        elif "shot" in kind:
            p.step(card.get_by_role("button", name="Skip action"))
            done.append(f"{bot} skips")
        else:
            return done
    raise AssertionError("Phase 3: still resolving after 12 cards")


# --- Phase 4 ------------------------------------------------------------------------------------


def _ahead(p: Player) -> int:
    """The next_phase step a Phase 4 answer makes first when it is given in a settled Phase 3."""
    return 1 if phase(p) == 3 else 0


def every_check_passed(p: Player) -> None:
    """Phase 4 in one tap: "Every (other) check passed · end the turn" (one position_check step
    per check due, then end_turn; from a settled Phase 3, next_phase first). No check due: the
    End turn button."""
    due = p.page.locator("article.check-card").count()
    if not due:
        end_turn(p)
        return
    p.step(p.page.locator("#checks-end"), steps=_ahead(p) + due + 1)


def check_fails(p: Player, bot: str, glitch: int) -> None:
    """A failed position check with the Glitch die rolled at the table (R-GLITCH, R-END-CHECK): one
    tap on the face it shows, in the card's row "No · the Glitch die shows" (from a settled Phase 3
    the tap makes the next_phase step first). A die of more than 12 faces is typed, then "No"."""
    fid = f"check-{p.id(bot)}"
    face = p.page.locator(f"#{fid}-glitch_roll-{glitch}")
    if face.count():
        p.step(face, steps=_ahead(p) + 1)
        return
    p.open(p.page.locator(f"#{fid}-by-hand"))  # open already when the player enters dice
    p.taps.type(p.page.locator(f"#{fid}-glitch_roll"), str(glitch))
    p.step(p.page.locator(f"#{fid}-no-app"), steps=_ahead(p) + 1)


def end_turn(p: Player) -> None:
    p.step(p.page.locator("#end-turn"), steps=_ahead(p) + 1)


def panel_size(page: Page) -> dict:
    """The turn panel's element count and its HTML in KB, as Chromium holds it (issue 21)."""
    return page.locator("#panel-turn").evaluate(
        "el => ({elements: el.querySelectorAll('*').length + 1, kb: Math.round(el.outerHTML.length / 102.4) / 10})")
