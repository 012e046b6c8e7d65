"""This machine's own address on the network it serves, found by listing its interfaces: no packet
is sent, nothing is resolved (the share panel's links must open on a co-player's phone).

Why the standard library and not a package: no interface-listing package (psutil, ifaddr,
netifaces) is in the app's locks, and this needs two ioctls. `socket.if_nameindex()` names the
interfaces; `SIOCGIFFLAGS` says which are up, running and not loopback; `SIOCGIFADDR` gives each
one's IPv4 address. Both ioctls are Linux's (the app's platform: Debian, its Docker image); a
system where they fail finds no address, and the share panel then says the links open only on
this computer. It needs no `ip` binary (the slim Docker image has none) and no subprocess.
IPv6 (global addresses from /proc/net/if_inet6) is offered only when no IPv4 address is.
"""

from __future__ import annotations

import ipaddress
import socket
import struct
from dataclasses import dataclass
from pathlib import Path

SIOCGIFFLAGS, SIOCGIFADDR = 0x8913, 0x8915  # linux/sockios.h
IFF_UP, IFF_LOOPBACK, IFF_RUNNING = 0x1, 0x8, 0x40  # linux/if.h
# Interfaces of containers, VMs and bridges: up on a laptop, but no phone at the table is on them.
VIRTUAL = ("docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "lxc", "cni", "podman", "flannel")
IF_INET6 = Path("/proc/net/if_inet6")


@dataclass(frozen=True)
class Interface:
    name: str
    address: str
    flags: int = IFF_UP | IFF_RUNNING


def _ioctl(sock: socket.socket, request: int, name: str) -> bytes:
    import fcntl  # not on every platform: an ImportError there means "no address found"

    return fcntl.ioctl(sock.fileno(), request, struct.pack("256s", name.encode()[:15]))


def ipv4_interfaces() -> list[Interface]:
    """Every interface with an IPv4 address (a datagram socket only carries the ioctls)."""
    found = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            for _, name in socket.if_nameindex():
                try:
                    flags = struct.unpack("H", _ioctl(sock, SIOCGIFFLAGS, name)[16:18])[0]
                    address = socket.inet_ntoa(_ioctl(sock, SIOCGIFADDR, name)[20:24])
                except OSError:  # this interface has no IPv4 address
                    continue
                found.append(Interface(name, address, flags))
    except (OSError, ImportError):  # not Linux: nothing found, said so on the page
        return []
    return found


def ipv6_interfaces(table: Path = IF_INET6) -> list[Interface]:
    """Global-scope IPv6 addresses (the kernel's table: address, index, prefix, scope, flags, name)."""
    try:
        lines = table.read_text().splitlines()
    except OSError:
        return []
    found = []
    for line in lines:
        fields = line.split()
        if len(fields) == 6 and fields[3] == "00":  # scope 00: global (ULA included)
            address = str(ipaddress.IPv6Address(bytes.fromhex(fields[0])))
            found.append(Interface(fields[5], address))
    return found


def usable(interface: Interface) -> bool:
    """Up, carrying traffic, not loopback, and an address another device could use."""
    if interface.flags & (IFF_UP | IFF_RUNNING) != IFF_UP | IFF_RUNNING or interface.flags & IFF_LOOPBACK:
        return False
    ip = ipaddress.ip_address(interface.address)
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def rank(interface: Interface) -> tuple[bool, bool]:
    """A real interface before a container's bridge, a private (home or club) address before others."""
    return interface.name.startswith(VIRTUAL), not ipaddress.ip_address(interface.address).is_private


def lan_address(ipv4: list[Interface], ipv6: list[Interface]) -> str | None:
    """The best address of these for a device on the same network, IPv4 first; None if none is."""
    for candidates in (ipv4, ipv6):
        good = sorted(filter(usable, candidates), key=rank)  # stable: the kernel's order breaks ties
        if good:
            return good[0].address
    return None


def this_machine(bind_host: str) -> str | None:
    """The address to give other devices when the server listens on `bind_host` (all interfaces:
    "0.0.0.0" takes IPv4 only, "::" takes both)."""
    return lan_address(ipv4_interfaces(), ipv6_interfaces() if bind_host == "::" else [])
