"""One HTTP client for the tests' own calls to a real server (making a game, sending a command
the scenario does not count, reading the state to assert it): one kept-alive connection instead
of a new client and connection per `httpx.get(...)`. (The TLS context each new client built, about
55 ms of CPU, is shared by every client since `share_tls_context` in tests/conftest.py; this
client saves the rest.) Same defaults as `httpx.get` (5 s timeout, no redirects)."""

from __future__ import annotations

import httpx

client = httpx.Client()
get, post, delete = client.get, client.post, client.delete
