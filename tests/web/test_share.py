"""The share panel: two links as absolute URLs with copy buttons and QR codes; regenerating one."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`


def new_game(client):
    return client.post("/api/games", json={"name": "Night shift"}).json()


def share_panel(html: str) -> str:
    match = re.search(r'<section class="card share".*?</section>', html, re.S)
    assert match, "no share panel"
    return match.group(0)


def qr_images(panel: str) -> list[str]:
    """The `src` of each QR code image in the panel, checking each is folded and loads lazily."""
    found = re.findall(r'<details class="share-qr"><summary[^>]*>QR code</summary>'
                       r'<img class="qr" src="([^"]+)" alt="QR code of the (?:play|watch) link" loading="lazy"', panel)
    assert panel.count('<img class="qr"') == len(found), "a QR code outside its fold, or not lazy"
    return found


def test_the_play_page_shows_both_links_as_absolute_urls_with_copy_and_qr(client):
    game = new_game(client)
    panel = share_panel(client.get(game["edit_url"]).text)
    for url in (f"http://testserver/g/{game['edit_token']}", f"http://testserver/v/{game['view_token']}"):
        assert f'value="{url}"' in panel
    assert panel.count("data-copy=") == 2
    assert qr_images(panel) == [f"/g/{game['edit_token']}/qr/play.svg", f"/v/{game['view_token']}/qr/watch.svg"]
    assert "<svg" not in panel  # the codes are images, not drawn into the page
    assert "cannot change anything" in panel and "can act" in panel


@pytest.mark.parametrize("path", ["{edit_url}", "{view_url}", "/g/{edit_token}/panels/share"])
def test_rendering_the_share_panel_makes_no_qr_code(client, path):
    """Issue 21: every new game's first page paid two codes (17.5 ms of CPU) nobody had opened."""
    from app.web.routes.share import qr_svg

    game = new_game(client)
    before = qr_svg.cache_info()
    assert client.get(path.format(**game)).status_code == 200
    after = qr_svg.cache_info()
    assert (after.hits, after.misses) == (before.hits, before.misses)


@pytest.mark.parametrize("host", [None, "192.168.1.20:8000"])
def test_each_qr_image_is_the_code_of_exactly_the_link_the_panel_shows(client, host):
    from app.web.routes.share import qr_svg

    game = new_game(client)
    headers = {"Host": host} if host else {}
    panel = share_panel(client.get(game["edit_url"], headers=headers).text)
    shown = dict(re.findall(r'id="share-(play|watch)-url" readonly value="([^"]+)"', panel))
    assert set(shown) == {"play", "watch"}
    for src in qr_images(panel):
        which = "play" if src.endswith("/play.svg") else "watch"
        r = client.get(src, headers=headers)
        assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
        assert r.text == qr_svg(shown[which], f"{which} link")
        assert r.text.startswith('<svg xmlns="http://www.w3.org/2000/svg"')  # an image of its own
        assert r.headers["cache-control"] == "no-store" and r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer" and "img-src 'self'" in r.headers["content-security-policy"]


@pytest.mark.parametrize(("path", "status"), [
    ("/v/{view_token}/qr/play.svg", 404),  # a watch path serves no play code, as no other read it lacks
    ("/v/{edit_token}/qr/play.svg", 404),  # the play token on a watch path only watches
    ("/g/{view_token}/qr/play.svg", 403),  # the watch token on the play path: refused, as every change
])
def test_a_watch_link_cannot_get_the_play_links_code(client, path, status):
    game = new_game(client)
    r = client.get(path.format(**game))
    assert r.status_code == status
    assert game["edit_token"] not in r.text and "<svg" not in r.text


@pytest.mark.parametrize("path", ["/g/{token}/qr/play.svg", "/v/{token}/qr/watch.svg"])
def test_an_unknown_or_replaced_link_has_no_qr_code(client, path):
    game = new_game(client)
    assert client.get(path.format(token="x" * 32)).status_code == 404
    which = "play" if "play" in path else "watch"
    old = game["edit_token"] if which == "play" else game["view_token"]
    client.post(f"/api/games/{game['edit_token']}/links/{which}").raise_for_status()
    assert client.get(path.format(token=old)).status_code == 404


@pytest.mark.parametrize("path", ["/v/{view}", "/v/{view}/panels/share", "/v/{edit}/panels/share"])
def test_the_watch_page_shows_only_the_watch_link(client, path):
    game = new_game(client)
    panel = share_panel(client.get(path.format(view=game["view_token"], edit=game["edit_token"])).text)
    assert f"/v/{game['view_token']}" in panel
    assert f"/g/{game['edit_token']}" not in panel and "Play link" not in panel
    assert qr_images(panel) == [f"/v/{game['view_token']}/qr/watch.svg"]


def test_the_links_follow_the_address_the_device_used(client):
    game = new_game(client)
    panel = share_panel(client.get(game["edit_url"], headers={"Host": "192.168.1.20:8000"}).text)
    assert f'value="http://192.168.1.20:8000/v/{game["view_token"]}"' in panel


def test_a_new_watch_link_replaces_the_old_one_at_once(client):
    game = new_game(client)
    old = game["view_token"]
    r = client.post(f"/g/{game['edit_token']}/links/watch", headers={"HX-Request": "true"})
    assert r.status_code == 200 and 'data-panel="share"' in r.text
    new = client.get(f"/api/games/{game['edit_token']}").json()["view_token"]
    assert new != old and f"/v/{new}" in r.text
    assert client.get(f"/v/{old}").status_code == 404
    assert client.get(f"/api/games/{old}").status_code == 404
    assert client.get(f"/v/{new}").status_code == 200
    assert client.get(game["edit_url"]).status_code == 200  # the play link is untouched


def test_a_new_play_link_moves_this_page_to_it_and_the_old_one_404s(client):
    game = new_game(client)
    r = client.post(f"/g/{game['edit_token']}/links/play", headers={"HX-Request": "true"})
    target = r.headers["HX-Redirect"]
    assert target.startswith("/g/") and target != game["edit_url"]
    assert client.get(game["edit_url"]).status_code == 404
    assert client.get(target).status_code == 200
    assert client.get(game["view_url"]).status_code == 200  # the watch link is untouched


def test_without_javascript_a_new_link_redirects_to_the_play_page(client):
    game = new_game(client)
    r = client.post(f"/g/{game['edit_token']}/links/play", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] != game["edit_url"]


def test_the_json_api_replaces_a_link_and_answers_both(client):
    game = new_game(client)
    r = client.post(f"/api/games/{game['edit_token']}/links/watch")
    assert r.status_code == 200
    body = r.json()
    assert body["edit_token"] == game["edit_token"] and body["view_token"] != game["view_token"]
    assert body["view_url"] == f"/v/{body['view_token']}"


def test_an_unknown_link_kind_is_422(client):
    game = new_game(client)
    assert client.post(f"/api/games/{game['edit_token']}/links/admin").status_code == 422


def test_after_a_new_watch_link_a_live_refresh_of_another_page_shows_the_new_link_and_its_qr(client):
    """Issue 16: the refreshed panels were cached by URL, step and last change; replacing a link
    changes none of them, so other pages kept showing the revoked link and its QR code."""
    game = new_game(client)
    old = game["view_token"]
    refresh = f"/g/{game['edit_token']}/panels?names=share,log"
    assert f"/v/{old}" in client.get(refresh).text  # another page's refresh, cached
    new = client.post(f"/api/games/{game['edit_token']}/links/watch").json()["view_token"]
    panel = share_panel(client.get(refresh).text)
    assert f"/v/{new}" in panel and f"/v/{old}" not in panel
    assert qr_images(panel)[1] == f"/v/{new}/qr/watch.svg"  # a new image URL: no page keeps the old code


def test_a_links_qr_code_is_made_once_and_each_link_has_its_own():
    """Issue 21: the two QR codes were most of the share panel's time, on every refresh."""
    from app.web.routes.share import qr_svg

    qr_svg.cache_clear()
    play, watch = "http://192.168.1.20:8000/g/abc", "http://192.168.1.20:8000/v/xyz"
    first = qr_svg(play, "play link")
    assert qr_svg(play, "play link") is first and qr_svg.cache_info().misses == 1
    assert qr_svg(watch, "watch link") != first and "<title>QR code of the play link</title>" in first
