"""The address phones reach this machine at on the room's network: an IPv4 address of one of its
interfaces, never loopback, a private range (10/8, 172.16/12, 192.168/16) first.

The addresses come from the host name's own entries and from asking the system which address it
would send from to a private address (a UDP socket "connected" there: no packet leaves). Listing
every interface would need psutil or netifaces; these two ways find the interface a room's
Wi-Fi or cable gives without either.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable

# where a probe pretends to send: one address in each private range, so whichever the room's
# network uses gives the interface facing it
PROBES = ("10.254.254.254", "172.31.254.254", "192.168.254.254")


def ordered(addresses: Iterable[str]) -> list[str]:
    """Usable IPv4 addresses, each once: private ones first, then other unicast, link-local last;
    loopback, unspecified, multicast and anything not IPv4 left out."""
    seen: dict[str, int] = {}
    for text in addresses:
        try:
            ip = ipaddress.ip_address(text)
        except ValueError:
            continue
        if not isinstance(ip, ipaddress.IPv4Address) or ip.is_loopback or ip.is_unspecified or ip.is_multicast:
            continue
        rank = 2 if ip.is_link_local else 0 if ip.is_private else 1
        seen.setdefault(str(ip), rank)
    return sorted(seen, key=lambda a: seen[a])


def host_addresses() -> list[str]:
    """The IPv4 addresses the host name resolves to."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET, socket.SOCK_DGRAM)
    except OSError:
        return []
    return [str(info[4][0]) for info in infos]


def probed_addresses(probes: Iterable[str] = PROBES) -> list[str]:
    """The addresses the system would send from towards each probe; no packet is sent."""
    found = []
    for probe in probes:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                found.append(str(s.getsockname()[0]))
        except OSError:  # no route there: no interface faces that range
            continue
    return found


def candidates() -> list[str]:
    return ordered(probed_addresses() + host_addresses())


def choose_address() -> str | None:
    """The address to serve on, or None when the machine is on no network."""
    found = candidates()
    return found[0] if found else None
