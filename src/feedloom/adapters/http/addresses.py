"""Which IP addresses an outbound request may reach: public unicast only.

Refused: private (RFC 1918, fc00::/7), shared (100.64.0.0/10), loopback, link-local
(169.254.0.0/16 holds the cloud metadata service, fe80::/10), multicast, reserved,
unspecified and documentation ranges; everything `ipaddress` does not call global.
An IPv6 address that carries an IPv4 one (IPv4-mapped ::ffff:a.b.c.d, 6to4 2002::/16,
Teredo, NAT64 64:ff9b::/96) is judged by the IPv4 address inside, so ::ffff:10.0.0.1
cannot smuggle a private target past the rule.

`allow_loopback` admits 127.0.0.0/8 and ::1 only (tests, one-machine setups), and only
as themselves: a mapped ::ffff:127.0.0.1 stays refused.
"""

from __future__ import annotations

import ipaddress
from ipaddress import IPv4Address, IPv6Address

NAT64 = ipaddress.ip_network("64:ff9b::/96")


def embedded_ipv4(address: IPv6Address) -> IPv4Address | None:
    """The IPv4 address an IPv6 one carries, if it is of a form that carries one."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]
    if address in NAT64:
        return IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def refusal(text: str, allow_loopback: bool = False) -> str | None:
    """Why `text` (an IP address) may not be reached; None if it may."""
    try:
        address = ipaddress.ip_address(text.split("%")[0])  # drop an IPv6 zone
    except ValueError:
        return "not an IP address"
    if allow_loopback and (
        (address.version == 4 and address.is_loopback) or address == IPv6Address("::1")
    ):
        return None
    if isinstance(address, IPv6Address):
        inner = embedded_ipv4(address)
        if inner is not None:
            return _kind(inner)
    return _kind(address)


def _kind(address: IPv4Address | IPv6Address) -> str | None:
    if address.is_loopback:
        return "loopback"
    if address.is_link_local:
        return "link-local"
    if address.is_multicast:
        return "multicast"
    if address.is_unspecified:
        return "unspecified"
    if address.is_reserved:
        return "reserved"
    if address.is_private or not address.is_global:
        return "private"
    return None
