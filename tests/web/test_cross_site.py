"""Every route that may change something refuses another site's request with 403 and its reason
(app/web/middleware/cross_site.py); the app's own pages, a typed address and clients that are not browsers
are served as before."""

from __future__ import annotations

import pytest

from app.web.device import COOKIE


def new_game(client) -> dict:
    return client.post("/api/games", json={"name": "Ours"}).json()


@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Origin": "http://evil.test"},
    {"Origin": "http://testserver:8080"},  # another port is another origin
    {"Origin": "null"},
], ids=["cross-site", "same-site", "other-origin", "other-port", "opaque-origin"])
def test_a_state_changing_request_from_another_site_is_403_with_its_reason(client, headers):
    game = new_game(client)
    api = client.post(f"/api/games/{game['edit_token']}/duplicate", headers=headers)
    assert api.status_code == 403 and "another site" in api.json()["detail"]
    form = client.post(f"/g/{game['edit_token']}/duplicate", headers={**headers, "Accept": "text/html"},
                       follow_redirects=False)
    assert form.status_code == 403 and "another site" in form.text and COOKIE not in form.headers.get("set-cookie", "")
    made = client.post("/api/games", json={"name": "Theirs"}, headers=headers)
    assert made.status_code == 403


@pytest.mark.parametrize("headers", [
    {"Sec-Fetch-Site": "same-origin"},
    {"Sec-Fetch-Site": "none"},
    {"Origin": "http://testserver"},
    {"Origin": "http://testserver:80"},
    {},
], ids=["same-origin", "typed-address", "own-origin", "own-origin-port", "not-a-browser"])
def test_the_apps_own_requests_are_served(client, headers):
    game = new_game(client)
    assert client.post(f"/api/games/{game['edit_token']}/duplicate", headers=headers).status_code == 201


def test_reading_is_never_refused(client):
    game = new_game(client)
    answer = client.get(f"/api/games/{game['edit_token']}", headers={"Sec-Fetch-Site": "cross-site"})
    assert answer.status_code == 200


def test_the_devices_cookie_is_same_site_lax(client):
    game = new_game(client)
    answer = client.get(f"/g/{game['edit_token']}")
    assert "samesite=lax" in answer.headers["set-cookie"].lower()
