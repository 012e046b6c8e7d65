"""A link grants exactly what it says (issue 10 § 1), against a real server process.

A crawler holding only a watch link follows everything a page offers, as a browser and a curious
person would: links, htmx gets, forms (submitted with what they hold), the event stream, the JSON
reads and the export. Another one starts at `/` with no cookie. Neither may ever meet the watched
game's play link, nor anything of another game, nor the admin link."""

from __future__ import annotations

import re
import stat
from collections import deque
from urllib.parse import urljoin, urlsplit

import httpx
import pytest

from app.web.panels import PANELS
from tests.support.html import parse
from tests.support.server import LiveServer

# Not marked db: these servers serve SQLite files (the admin token lives beside the file), so
# the PostgreSQL pass ran the same tests again.
pytestmark = pytest.mark.server

URL_ATTRS = ("href", "src", "hx-get", "sse-connect", "data-changes")
POST_ATTRS = ("hx-post", "hx-put", "hx-patch", "hx-delete")
MOST_PAGES = 400


def api(server: LiveServer, method: str, path: str, **kwargs) -> dict:
    r = httpx.request(method, server.url + path, timeout=10, **kwargs)
    assert r.status_code < 300, r.text
    return r.json()


def played_game(server: LiveServer, name: str) -> dict:
    """A game with a roster and a log, so every panel and the log have something to show."""
    game = api(server, "POST", "/api/games", json={"name": name})
    token = game["edit_token"]
    for command in ({"type": "add_character", "character": {"name": f"Ada of {name}"}},
                    {"type": "add_bot", "bot": {"name": f"Warden of {name}", "role": "hunter"}}):
        api(server, "POST", f"/api/games/{token}/commands", json=command)
    api(server, "POST", f"/api/games/{token}/undo", json={})
    return game


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = LiveServer(tmp_path_factory.mktemp("crawl") / "crawl.db").start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def games_(server) -> tuple[dict, dict]:
    return played_game(server, "Watched"), played_game(server, "Elsewhere")


def links_in(page_url: str, html: str) -> tuple[set[str], list[tuple[str, str, dict]]]:
    """The URLs a page leads to with a GET, and its forms and htmx posts (method, url, fields)."""
    gets, posts = set(), []
    root = parse(html)
    for node in root.walk():
        for attr in URL_ATTRS:
            if node.attrs.get(attr):
                gets.add(urljoin(page_url, node.attrs[attr]))
        if node.attrs.get("data-panels"):  # live.js re-fetches each panel from here
            gets |= {urljoin(page_url, node.attrs["data-panels"] + name) for name in PANELS}
        for attr in POST_ATTRS:
            if node.attrs.get(attr):
                posts.append(("POST", urljoin(page_url, node.attrs[attr]), {}))
        if node.tag == "form":
            fields = {f.attrs["name"]: f.attrs.get("value") or "" for f in node.walk()
                      if f.attrs.get("name") and f.tag in ("input", "select", "textarea")}
            action = urljoin(page_url, node.attrs.get("action") or page_url)
            method = (node.attrs.get("method") or "get").upper()
            if method == "GET":
                gets.add(action)
            else:
                posts.append((method, action, fields))
    return gets, posts


def crawl(server: LiveServer, client: httpx.Client, seeds: list[str]) -> tuple[list[str], list[str]]:
    """Everything reachable from the seeds on our own server: (visited URLs, every text seen)."""
    seen, texts, queue, done_posts = set(), [], deque(server.url + s for s in seeds), set()
    while queue and len(seen) < MOST_PAGES:
        url = queue.popleft().split("#")[0]
        if url in seen or urlsplit(url).netloc != urlsplit(server.url).netloc:
            continue
        seen.add(url)
        if url.endswith("/events"):
            texts.append(read_stream(client, url))
            continue
        r = client.get(url, headers={"Accept": "text/html"}, follow_redirects=False)
        texts += [r.text, *(f"{k}: {v}" for k, v in r.headers.items())]
        if "location" in r.headers:
            queue.append(urljoin(url, r.headers["location"]))
        if r.headers.get("content-type", "").startswith("text/html"):
            gets, posts = links_in(url, r.text)
            queue.extend(gets)
            for method, action, fields in posts:
                if (action, tuple(sorted(fields.items()))) in done_posts:
                    continue
                done_posts.add((action, tuple(sorted(fields.items()))))
                answer = client.request(method, action, data=fields, headers={"Accept": "text/html"},
                                        follow_redirects=False)
                texts += [answer.text, *(f"{k}: {v}" for k, v in answer.headers.items())]
        for found in re.findall(r'"((?:/[gv]/|/api/)[^"\s]+)"', r.text):  # URLs inside JSON answers
            queue.append(urljoin(url, found))
    return sorted(seen), texts


def read_stream(client: httpx.Client, url: str) -> str:
    """The first messages of an event stream, with its headers."""
    with client.stream("GET", url, timeout=10) as stream:
        assert stream.headers["cache-control"] == "no-store"
        assert stream.headers["referrer-policy"] == "no-referrer"
        assert stream.headers["x-content-type-options"] == "nosniff"
        lines = []
        for line in stream.iter_lines():
            lines.append(line)
            if line.startswith("data: "):
                break
        return "\n".join(lines) + "".join(f"{k}: {v}" for k, v in stream.headers.items())


def admin_token(server: LiveServer) -> str:
    return (server.db_path.parent / "admin_token").read_text().strip()


def secrets_of(watched: dict, other: dict, server: LiveServer) -> dict[str, str]:
    return {"the watched game's play link": watched["edit_token"],
            "the other game's play link": other["edit_token"],
            "the other game's watch link": other["view_token"],
            "the other game's name": "Elsewhere", "the admin link": admin_token(server)}


def assert_none_leaked(texts: list[str], secrets: dict[str, str]) -> None:
    everything = "\n".join(texts)
    leaked = [what for what, value in secrets.items() if value in everything]
    assert not leaked, f"found {leaked}"


def test_nothing_reachable_from_a_watch_link_reveals_a_play_link_or_another_game(server, games_):
    watched, other = games_
    view = watched["view_token"]
    with httpx.Client(timeout=10) as client:
        seeds = [f"/v/{view}", f"/api/games/{view}", f"/api/games/{view}/steps", f"/api/games/{view}/export"]
        visited, texts = crawl(server, client, seeds)
    paths = {urlsplit(u).path for u in visited}
    must_reach = {f"/v/{view}", f"/v/{view}/events", f"/v/{view}/panels/roster", f"/v/{view}/panels/log",
                  f"/api/games/{view}/export", "/"}
    assert must_reach <= paths, must_reach - paths  # the crawl really went everywhere
    assert_none_leaked(texts, secrets_of(watched, other, server))
    assert "Watched" in "\n".join(texts)  # it did read the watched game itself


def test_nothing_reachable_from_the_home_page_without_cookies_reveals_any_game(server, games_):
    watched, other = games_
    with httpx.Client(timeout=10) as client:
        visited, texts = crawl(server, client, ["/"])
    assert {"/", "/static/theme.js"} <= {urlsplit(u).path for u in visited}
    secrets = {**secrets_of(watched, other, server), "the watched game's watch link": watched["view_token"],
               "the watched game's name": "Watched"}
    assert_none_leaked(texts, secrets)


def test_listing_and_backup_need_the_admin_token_on_the_real_server(server, games_):
    for path in ("/api/games", "/api/backup"):
        assert httpx.get(server.url + path, timeout=10).status_code == 403
        r = httpx.get(server.url + path, headers={"Authorization": f"Bearer {admin_token(server)}"}, timeout=10)
        assert r.status_code == 200 and "Elsewhere" in r.text and "Watched" in r.text


def test_the_admin_token_is_made_once_printed_at_startup_and_reused_after_a_restart(tmp_path):
    first = LiveServer(tmp_path / "admin.db").start()
    try:
        token_file = tmp_path / "admin_token"
        token = token_file.read_text().strip()
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
        assert httpx.get(f"{first.url}/admin/{token}", timeout=10).status_code == 200
    finally:
        first.stop()
    assert f"/admin/{token}" in first.log_path.read_text()  # the Jupyter pattern: the link is in the log
    again = LiveServer(tmp_path / "admin.db").start()
    try:
        assert token_file.read_text().strip() == token
        assert httpx.get(f"{again.url}/admin/{token}", timeout=10).status_code == 200
        assert httpx.get(f"{again.url}/admin/{'x' * len(token)}", timeout=10).status_code == 404
    finally:
        again.stop()
