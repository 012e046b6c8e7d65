"""The games this browser holds: the home page lists only them.

A game's links are its only key, so the list of games a device may resume is the list of links it
was given. They are kept in one cookie, `potham_games`, on this device only:

- why a cookie and not local storage: the home page is rendered by the server, so the list (with
  each game's current name, turn and Danger) works without JavaScript, like the rest of the app;
  the cookie is HttpOnly, so no script on any page can read the play links out of it; and links
  that stopped working (a deleted game, a replaced link) are dropped the next time the list is
  shown. It holds nothing but tokens, newest first, at most MAX_KEPT of them (a cookie's 4 KB).
- what goes in: opening /g/<play link> keeps the play link; opening /v/<link> keeps the game's
  watch link, even when the page was opened with a play link (a watch page never hands one out).
- SameSite=Lax: opening a shared link from a chat app sends the cookie along, so the list the
  answer writes back still holds the device's other games.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fastapi import Request, Response
from sqlmodel import Session, col, or_, select

from app.store.tables import Game
from app.web.templating import templates

COOKIE = "potham_games"
MAX_KEPT = 100  # 100 × 33 characters stays under a cookie's 4 KB
KEEP_SECONDS = 400 * 24 * 3600  # the longest a browser keeps a cookie
TOKEN = re.compile(r"[A-Za-z0-9_-]{20,64}")


@dataclass
class Held:
    game: Game
    access: str  # "edit" or "view"

    @property
    def token(self) -> str:
        return self.game.edit_token if self.access == "edit" else self.game.view_token


def held_tokens(request: Request) -> list[str]:
    """The tokens in this request's cookie, newest first; anything else in it is ignored."""
    raw = request.cookies.get(COOKIE, "")
    return [t for t in raw.split(".") if TOKEN.fullmatch(t)][:MAX_KEPT]


def write(response: Response, tokens: list[str]) -> None:
    if not tokens:
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")
        return
    response.set_cookie(COOKIE, ".".join(tokens[:MAX_KEPT]), max_age=KEEP_SECONDS, path="/",
                        httponly=True, samesite="lax")


def remember(request: Request, response: Response, token: str) -> None:
    kept = held_tokens(request)
    if kept[:1] != [token]:
        write(response, [token, *(t for t in kept if t != token)])


def forget(request: Request, response: Response, token: str) -> None:
    kept = held_tokens(request)
    if token in kept:
        write(response, [t for t in kept if t != token])


def held_games(session: Session, tokens: list[str]) -> list[Held]:
    """The games these tokens open, last played first; a game held by both links shows once,
    with its play link."""
    if not tokens:
        return []
    found = session.exec(select(Game).where(or_(col(Game.edit_token).in_(tokens),
                                                   col(Game.view_token).in_(tokens)))).all()
    wanted = set(tokens)
    held = [Held(g, "edit" if g.edit_token in wanted else "view") for g in found]
    return sorted(held, key=lambda h: (h.game.updated_at, h.game.id), reverse=True)


def home_context(request: Request, session: Session) -> dict:
    tokens = held_tokens(request)
    held = held_games(session, tokens)
    live = {h.token for h in held}
    return {"games": held, "kept": tokens, "still_kept": [t for t in tokens if t in live]}


def render_home(request: Request, context: dict, status: int = 200) -> Response:
    """The home page; the cookie drops the links that no longer open a game."""
    response = templates.TemplateResponse(request, "home.html", context, status_code=status)
    if context["still_kept"] != context["kept"]:
        write(response, context["still_kept"])
    return response


def find_token(link: str) -> str | None:
    """The token in a pasted link (`http://…/g/<token>`, `/v/<token>`, or the token alone)."""
    found = TOKEN.findall(link.strip())
    return found[-1] if found else None
