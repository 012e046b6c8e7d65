"""Play a game through the turn panel the way the page does: read the rendered form, fill a
few fields, post it with htmx's header, and read the panels that come back."""

from __future__ import annotations

from typing import Any

from tests.support.html import Node, form_items, parse

HX = {"HX-Request": "true"}


def as_data(items: list[tuple[str, str]]) -> dict[str, list[str]]:
    data: dict[str, list[str]] = {}
    for k, v in items:
        data.setdefault(k, []).append(v)
    return data


class Table:
    """One game's turn panel in a test client."""

    def __init__(self, client, token: str):
        self.client, self.token = client, token
        self.page = self.panel()
        self.opened = parse("")  # the folded forms fetched by `open`, since the page last changed
        self.response: Any = None

    def open(self, fold: str) -> Node:
        """Open a folded section whose form the panel does not carry (issue 21): fetch it as its
        fold's first opening does (the `lazy-form` placeholder's hx-get)."""
        lazy = self.page.by_id(f"section-{fold}").one(cls="lazy-form")
        r = self.client.get(lazy.attrs["hx-get"], headers=HX)
        assert r.status_code == 200, r.text
        self.opened = parse(r.text)
        return self.opened

    def open_dice(self, fid: str) -> Node:
        """Open form `fid`'s closed "Dice by hand" fold (issue 21): fetch its grid as the fold's
        first opening does and put it in the fold, in place of the stand-in, as htmx does."""
        fold = self.page.by_id(f"{fid}-dice")
        lazy = fold.one(cls="lazy-form")
        r = self.client.get(lazy.attrs["hx-get"], headers=HX)
        assert r.status_code == 200, r.text
        grid = [c for c in parse(r.text).children if isinstance(c, Node)]
        assert len(grid) == 1 and grid[0].attrs["id"] == f"{fid}-dice-grid", r.text[:500]
        grid[0].parent = fold
        fold.children[fold.children.index(lazy)] = grid[0]
        return grid[0]

    def panel(self, name: str = "turn") -> Node:
        r = self.client.get(f"/g/{self.token}/panels/{name}")
        assert r.status_code == 200, r.text
        return parse(r.text)

    def submit(self, form_id: str, expect: int = 200, button: tuple[str, str] | str | None = None,
               **fill: Any) -> Node:
        """Post the form; `button`: the (name, value) of the submit button pressed, or the id of
        a button with its own hx-post (it sends its name and value to its own URL)."""
        form = self.page.by_id(f"form-{form_id}") if self.page.has_id(f"form-{form_id}") \
            else self.opened.by_id(f"form-{form_id}")
        # fields outside the form that belong to it (the `form` attribute: Phase 1's report grid) come
        # after its own in the page's order, as a browser sends them
        outside = [n for n in self.page.walk() if n.attrs.get("form") == form.attrs["id"] and n.tag != "button"]
        items = form_items(form, outside=outside, **fill)
        url = form.attrs.get("hx-post") or form.attrs["action"]
        if isinstance(button, str):
            pressed = form.by_id(button) if form.has_id(button) else self.page.by_id(button)
            assert pressed.attrs.get("form", form.attrs["id"]) == form.attrs["id"], f"{button} is not {form_id}'s"
            assert "disabled" not in pressed.attrs, f"{button} is disabled"
            items.append((pressed.attrs["name"], pressed.attrs["value"]))
            url = pressed.attrs.get("hx-post") or url
        elif button:
            items.append(button)
        self.response = self.client.post(url, data=as_data(items), headers=HX)
        assert self.response.status_code == expect, self.response.text[:3000]
        answer = parse(self.response.text)
        if answer.has_id("panel-turn"):
            self.page, self.opened = answer, parse("")
        return answer

    def status(self) -> Node:
        return self.panel("status")

    def chip(self, model_name: str) -> str:
        return self.status().one("li", data_name=model_name).text()


def facts(*rows: tuple[float, bool, bool]) -> dict[str, str]:
    """Board facts for the activate form, one (distance, line of sight, base contact) per
    Character in roster order."""
    fill: dict[str, str] = {}
    for i, (distance, los, contact) in enumerate(rows):
        fill |= {f"characters.{i}.distance": str(distance), f"characters.{i}.line_of_sight": str(los).lower(),
                 f"characters.{i}.base_contact": str(contact).lower()}
    return fill
