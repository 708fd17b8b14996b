"""The client's address behind trusted proxies (api/forwarded.py): headers are read only
from a trusted peer, from the right, one header kind only; the left of the client's hop
is the client's own writing and is ignored."""

from __future__ import annotations

import ipaddress

import pytest
from starlette.types import Message, Receive, Scope, Send

from feedloom.api.forwarded import ForwardedHeader, TrustedProxies

TRUSTED = [ipaddress.ip_network("127.0.0.1"), ipaddress.ip_network("10.0.0.0/8")]


async def seen(
    headers: list[tuple[str, str]],
    peer: str = "127.0.0.1",
    header: ForwardedHeader = "x-forwarded-for",
) -> tuple[tuple[str, int], str]:
    """The (client, scheme) the app behind the middleware sees."""
    found: list[tuple[tuple[str, int], str]] = []

    async def app(scope: Scope, _receive: Receive, _send: Send) -> None:
        found.append((scope["client"], scope["scheme"]))

    async def nothing() -> Message:
        return {"type": "http.disconnect"}

    async def ignore(_message: Message) -> None:
        pass

    scope = {
        "type": "http",
        "scheme": "http",
        "client": (peer, 50_000),
        "headers": [(name.lower().encode(), value.encode()) for name, value in headers],
    }
    await TrustedProxies(app, TRUSTED, header)(scope, nothing, ignore)
    [result] = found
    return result


async def test_an_untrusted_peer_is_the_client_whatever_it_says() -> None:
    headers = [("X-Forwarded-For", "198.51.100.1"), ("X-Forwarded-Proto", "https")]
    assert await seen(headers, peer="203.0.113.50") == (("203.0.113.50", 50_000), "http")


async def test_the_rightmost_hop_no_trusted_proxy_wrote_is_the_client() -> None:
    forged = "6.6.6.6, 203.0.113.9, 10.0.0.5"  # client's own entry, its address, a proxy
    assert (await seen([("X-Forwarded-For", forged)]))[0] == ("203.0.113.9", 0)
    lines = [("X-Forwarded-For", "6.6.6.6"), ("X-Forwarded-For", "203.0.113.9:4242")]
    assert (await seen(lines))[0] == ("203.0.113.9", 4242)


async def test_a_chain_of_trusted_proxies_only_names_its_first_hop() -> None:
    assert (await seen([("X-Forwarded-For", "10.0.0.7, 10.0.0.5")]))[0] == ("10.0.0.7", 0)


async def test_no_header_leaves_the_peer() -> None:
    assert await seen([]) == (("127.0.0.1", 50_000), "http")


async def test_the_scheme_comes_from_a_trusted_proxy_only_when_it_is_one() -> None:
    https = [("X-Forwarded-For", "203.0.113.9"), ("X-Forwarded-Proto", "https")]
    assert (await seen(https))[1] == "https"
    bogus = [("X-Forwarded-For", "203.0.113.9"), ("X-Forwarded-Proto", "gopher")]
    assert (await seen(bogus))[1] == "http"


async def test_an_ipv4_peer_on_a_dual_stack_socket_is_trusted_by_its_ipv4_address() -> None:
    headers = [("X-Forwarded-For", "203.0.113.9")]
    assert (await seen(headers, peer="::ffff:127.0.0.1"))[0] == ("203.0.113.9", 0)


@pytest.mark.parametrize(
    ("value", "client", "scheme"),
    [
        ('for=6.6.6.6, for="[2001:db8:cafe::17]:4711";proto=https, for=10.0.0.5',
         ("2001:db8:cafe::17", 4711), "https"),
        ("For=203.0.113.9;Proto=HTTPS;by=10.0.0.5", ("203.0.113.9", 0), "https"),
        ('for="203.0.113.9:8080"', ("203.0.113.9", 8080), "http"),
        ('for="_forged,one", for=unknown', ("unknown", 0), "http"),
        ('for="_hidden";proto=http, for=10.0.0.9', ("_hidden", 0), "http"),
        ("proto=https", ("unknown", 0), "https"),
    ],
)  # fmt: skip
async def test_forwarded_is_parsed_as_rfc_7239_writes_it(
    value: str, client: tuple[str, int], scheme: str
) -> None:
    assert await seen([("Forwarded", value)], header="forwarded") == (client, scheme)


async def test_only_the_configured_header_is_read() -> None:
    both = [("X-Forwarded-For", "198.51.100.1"), ("Forwarded", "for=203.0.113.9")]
    assert (await seen(both))[0] == ("198.51.100.1", 0)
    assert (await seen(both, header="forwarded"))[0] == ("203.0.113.9", 0)
