"""This machine's address on the table's network, from its interfaces (issue 22): which interface
wins, which never do, and the kernel's own tables read as they are."""

from __future__ import annotations

import pytest

from app.web import netif
from app.web.netif import IFF_LOOPBACK, IFF_RUNNING, IFF_UP, Interface, lan_address

UP = IFF_UP | IFF_RUNNING
WIFI = Interface("wlan0", "192.168.1.23", UP)
DOCKER = Interface("docker0", "172.17.0.1", UP)
LOOPBACK = Interface("lo", "127.0.0.1", UP | IFF_LOOPBACK)


@pytest.mark.parametrize(("interfaces", "expected"), [
    ([LOOPBACK, WIFI], "192.168.1.23"),
    ([LOOPBACK, DOCKER, WIFI], "192.168.1.23"),  # a container bridge comes after a real interface
    ([LOOPBACK, Interface("eth0", "81.2.69.160", UP), WIFI], "192.168.1.23"),  # a private address first
    ([LOOPBACK, DOCKER], "172.17.0.1"),  # better than nothing
    ([LOOPBACK, Interface("wlan0", "192.168.1.23", IFF_UP)], None),  # up but not running: no carrier
    ([LOOPBACK, Interface("wlan0", "192.168.1.23", IFF_RUNNING)], None),  # taken down
    ([Interface("eth0", "169.254.10.2", UP)], None),  # link-local: no DHCP answered
    ([Interface("tun9", "127.0.0.2", UP)], None),  # loopback address on another interface
    ([LOOPBACK], None),
    ([], None),
])
def test_the_address_for_other_devices_is_a_running_non_loopback_one_real_and_private_first(interfaces, expected):
    assert lan_address(interfaces, []) == expected


def test_an_ipv6_address_is_offered_only_when_no_ipv4_one_is():
    v6 = [Interface("wlan0", "2001:db8::5")]
    assert lan_address([LOOPBACK, WIFI], v6) == "192.168.1.23"
    assert lan_address([LOOPBACK], v6) == "2001:db8::5"
    assert lan_address([LOOPBACK], [Interface("lo", "::1")]) is None


def test_the_kernels_ipv6_table_gives_only_global_addresses(tmp_path):
    table = tmp_path / "if_inet6"
    table.write_text(
        "20010db8000000000000000000000005 03 40 00 80    wlan0\n"  # global
        "fe8000000000000000fc00fffe000001 03 40 20 80    wlan0\n"  # link-local (scope 20)
        "00000000000000000000000000000001 01 80 10 80       lo\n")  # host (scope 10)
    assert netif.ipv6_interfaces(table) == [Interface("wlan0", "2001:db8::5")]
    assert netif.ipv6_interfaces(tmp_path / "missing") == []


def test_listing_this_machines_interfaces_finds_its_loopback_and_sends_nothing():
    """The ioctls read the kernel's interface table; loopback is on every Linux machine."""
    found = netif.ipv4_interfaces()
    assert Interface("lo", "127.0.0.1", found[0].flags) in found
    assert all(i.flags & IFF_LOOPBACK for i in found if i.address.startswith("127."))
    assert netif.this_machine("0.0.0.0") in [i.address for i in found if netif.usable(i)] + [None]
