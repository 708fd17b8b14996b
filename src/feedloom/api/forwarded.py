"""The client's address behind reverse proxies the operator trusts
(FEEDLOOM_HTTP__TRUSTED_PROXIES): what sign-in and sign-up are limited by.

A request's address is its TCP peer. Only when the peer is a trusted proxy is its
forwarded header read, and then from the right: each proxy appends the address it
received the request from, so the right-most hop that is not itself a trusted proxy is
the client, and everything left of it was written by the client and proves nothing.
A chain of trusted proxies only (a health check from the proxy's host) names its
left-most hop.

One header is read, `X-Forwarded-For` (what nginx, Caddy, HAProxy and cloud load
balancers append) or RFC 7239 `Forwarded` (`FEEDLOOM_HTTP__FORWARDED_HEADER`), never
both: a proxy passes the header it does not write through from the client untouched,
so reading it too would let a client name any address. The scheme comes with it
(`X-Forwarded-Proto`, or the client hop's `proto=`), so a response knows it was
served over TLS.

uvicorn's own proxy-header middleware is switched off (api/serving.py): it trusts
127.0.0.1 unless told otherwise, and it does not read `Forwarded`.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from starlette.types import ASGIApp, Receive, Scope, Send

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
ForwardedHeader = Literal["x-forwarded-for", "forwarded"]
SCHEMES = frozenset({"http", "https"})


@dataclass(frozen=True, slots=True)
class Hop:
    node: str  # an address, or what the proxy wrote instead ("unknown", "_hidden")
    port: int = 0
    proto: str | None = None


class TrustedProxies:
    """Rewrites the request's client (and scheme) from a trusted proxy's header. The
    scope is changed in place, so uvicorn's access line shows the client too."""

    def __init__(self, app: ASGIApp, networks: Sequence[Network], header: ForwardedHeader) -> None:
        self.app = app
        self.networks, self.header = tuple(networks), header

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        peer = scope.get("client")
        if scope["type"] == "http" and peer is not None and self.trusts(peer[0]):
            hop, scheme = self.client_hop(scope["headers"])
            if hop is not None:
                scope["client"] = (hop.node, hop.port)
            if scheme in SCHEMES:
                scope["scheme"] = scheme
        await self.app(scope, receive, send)

    def trusts(self, node: str) -> bool:
        address = _address(node)
        return address is not None and any(address in network for network in self.networks)

    def client_hop(self, headers: Sequence[tuple[bytes, bytes]]) -> tuple[Hop | None, str | None]:
        """The client's hop, and the scheme it used, as the trusted proxy says."""
        if self.header == "forwarded":
            hops = forwarded_hops(_values(headers, b"forwarded"))
            hop = self.rightmost_untrusted(hops)
            return hop, hop.proto if hop is not None else None
        hops = x_forwarded_hops(_values(headers, b"x-forwarded-for"))
        protos = _values(headers, b"x-forwarded-proto")
        proto = protos[-1].strip().lower() if len(protos) == 1 else None
        return self.rightmost_untrusted(hops), proto

    def rightmost_untrusted(self, hops: Sequence[Hop]) -> Hop | None:
        for hop in reversed(hops):
            if not self.trusts(hop.node):
                return hop
        return hops[0] if hops else None


def x_forwarded_hops(values: Sequence[str]) -> list[Hop]:
    """`X-Forwarded-For: client, proxy1, proxy2` (several header lines join with commas)."""
    entries = (entry.strip() for value in values for entry in value.split(","))
    return [_node(entry) for entry in entries if entry]


def forwarded_hops(values: Sequence[str]) -> list[Hop]:
    """RFC 7239: `Forwarded: for=192.0.2.60;proto=https, for="[2001:db8::17]:4711"`.
    An element without `for=` is a hop whose client is not known."""
    hops = []
    for element in _split(",".join(values), ","):
        pairs = {}
        for pair in _split(element, ";"):
            name, equals, value = pair.partition("=")
            if equals:
                pairs[name.strip().lower()] = _unquote(value.strip())
        if pairs:
            hop = _node(pairs.get("for", "unknown"))
            proto = pairs.get("proto", "").lower() or None
            hops.append(Hop(hop.node, hop.port, proto))
    return hops


def _values(headers: Sequence[tuple[bytes, bytes]], name: bytes) -> list[str]:
    return [value.decode("latin-1") for key, value in headers if key == name]


def _node(text: str) -> Hop:
    """`192.0.2.1`, `192.0.2.1:80`, `[2001:db8::1]:80`, `2001:db8::1`, `unknown`."""
    host, port = text, ""
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        port = rest.removeprefix(":")
    elif text.count(":") == 1:
        host, _, port = text.partition(":")
    return Hop(host, int(port) if port.isdigit() and len(port) <= 5 else 0)


def _address(node: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(node)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped  # an IPv4 peer on a dual-stack socket
    return address


def _split(text: str, separator: str) -> list[str]:
    """`text` split at `separator` outside double quotes (RFC 7230 quoted-strings)."""
    parts: list[str] = []
    current: list[str] = []
    quoted = escaped = False
    for char in text:
        if escaped:
            escaped = False
        elif char == "\\" and quoted:
            escaped = True
        elif char == '"':
            quoted = not quoted
        elif char == separator and not quoted:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    parts.append("".join(current).strip())
    return [part for part in parts if part]


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] == '"':
        out: list[str] = []
        escaped = False
        for char in value[1:-1]:
            if escaped or char != "\\":
                out.append(char)
                escaped = False
            else:
                escaped = True
        return "".join(out)
    return value
