"""Which address the share panel's links and QR codes use, and whether another device can open it
. In order:

1. The address the device in hand used, when it is not loopback (a LAN address, a name, or the
   public host a proxy passed along): another device can use it too.
2. Behind a proxy that sends `Host: 127.0.0.1…`, its `X-Forwarded-Host`: the forwarded host wins.
   Else SHARE_HOST, when whoever runs the server set it (a container cannot see the laptop's address).
3. Served on all interfaces (HOST=0.0.0.0 or ::) and opened on 127.0.0.1: this machine's own
   address on the network (app/web/netif.py: its interfaces, no traffic), on the port it serves.
4. Otherwise (HOST=127.0.0.1, the default, or no network): the loopback address, and the panel says
   the links open only on this computer and how to share on the table's network.
"""

from __future__ import annotations

import ipaddress
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from fastapi import Request

from app.settings import Settings, get_settings
from app.web import netif

ALL_INTERFACES = ("0.0.0.0", "::", "")
SHARE_COMMAND = "make share"  # the Makefile's: `make run HOST=0.0.0.0`
HOST_PORT = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$")  # a Host header's shape


@dataclass(frozen=True)
class Reach:
    origin: str  # scheme://host[:port], no trailing slash
    reachable: Literal["network", "local-only"]
    why: Literal["served-here", "forwarded", "configured", "this-machine", "loopback", "no-network"]


@lru_cache(maxsize=256)  # asked on every share panel's request (its cache key): parsing costs
def is_loopback(host: str) -> bool:
    """An address only this computer can use: loopback, or 0.0.0.0 / :: (uvicorn prints
    http://0.0.0.0:8000 when serving on all interfaces, and a browser here opens it)."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(host)
        return ip.is_loopback or ip.is_unspecified
    except ValueError:
        return False


def _url_host(address: str) -> str:
    return f"[{address}]" if ":" in address and not address.startswith("[") else address


def reach_of(request: Request, bind_host: str, lan: Callable[[str], str | None],
             share_host: str | None = None) -> Reach:
    """See the module's docstring. `lan(bind_host)` finds this machine's network address;
    `share_host` (SHARE_HOST, host or host:port) names it instead; without a port, the page's."""
    scheme, host = request.url.scheme, request.url.hostname or ""
    if host and not is_loopback(host):
        return Reach(str(request.base_url).rstrip("/"), "network", "served-here")
    forwarded = HOST_PORT.match(request.headers.get("x-forwarded-host", "").split(",")[0].strip())
    if forwarded and not is_loopback(forwarded.group(1)):
        return Reach(f"{scheme}://{forwarded.group(0)}", "network", "forwarded")
    configured = HOST_PORT.match(share_host or "")
    if configured:
        port = configured.group(2) or (f":{request.url.port}" if request.url.port else "")
        return Reach(f"{scheme}://{configured.group(1)}{port}", "network", "configured")
    if bind_host not in ALL_INTERFACES:
        return Reach(str(request.base_url).rstrip("/"), "local-only", "loopback")
    address = lan(bind_host)
    if address is None:
        return Reach(str(request.base_url).rstrip("/"), "local-only", "no-network")
    port = (request.scope.get("server") or (None, request.url.port))[1]  # the socket we serve on
    default = {"http": 80, "https": 443}.get(scheme)
    suffix = f":{port}" if port and port != default else ""
    return Reach(f"{scheme}://{_url_host(address)}{suffix}", "network", "this-machine")


def reach(request: Request) -> Reach:
    """This request's share address (kept on the request: the panel asks for it twice)."""
    found = getattr(request.state, "share_reach", None)
    if found is None:
        settings = get_settings()
        found = reach_of(request, settings.host, netif.this_machine, settings.share_host)
        request.state.share_reach = found
    return found


def announce(settings: Settings) -> None:
    """One line at start, where whoever started the server reads it: the address other devices at
    the table open, or how to serve on the table's network (not through the loggers, like the
    admin link: app/web/admin_link.py)."""
    configured = HOST_PORT.match(settings.share_host or "")
    if configured or settings.host in ALL_INTERFACES:
        address = netif.this_machine(settings.host) if not configured else configured.group(1)
        port = configured.group(2) if configured and configured.group(2) else f":{settings.port}"
        line = (f"On the table's network, other devices open http://{_url_host(address)}{port} "
                f"(a play or watch link opens its own game only; keep the admin link above secret)"
                if address else "Served on all interfaces, but this computer has no network address yet: "
                "join the table's Wi-Fi, then reload the game page")
    elif is_loopback(settings.host):
        line = (f"Only this computer can open these pages; to share a game with a phone or tablet on "
                f"the table's network, run: {SHARE_COMMAND}")
    else:
        return
    print(line, file=sys.stderr, flush=True)
