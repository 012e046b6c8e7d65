"""One HTTP client for the tests' own calls to a real server (making a game, sending a command
the scenario does not count, reading the state to assert it).

`httpx.get(...)` and its siblings build a new client for every call, and with it a TLS context
(the CA bundle read and parsed), even for plain http: about 55 ms of CPU a call. The six-turn
browser test made 240 of them, a third of its time. This client is made once; a call through it
costs well under a millisecond. Same defaults as `httpx.get` (5 s timeout, no redirects)."""

from __future__ import annotations

import httpx

client = httpx.Client()
get, post, delete = client.get, client.post, client.delete
