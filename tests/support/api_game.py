"""A new game made through the JSON API, for the web tests of what is kept per step and link."""

from __future__ import annotations


def new_game(client, *names: str) -> tuple[str, str, str]:
    """A game with these Characters: its play token, its watch token and its commands' URL."""
    game = client.post("/api/games", json={"name": "Night"}).json()
    send = f"/api/games/{game['edit_token']}/commands"
    for name in names:
        client.post(send, json={"type": "add_character", "character": {"name": name}}).raise_for_status()
    return game["edit_token"], game["view_token"], send
