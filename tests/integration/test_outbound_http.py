"""The SSRF-checked outbound client (adapters/http/outbound.py) against a real socket
on 127.0.0.1, and its address rule (adapters/http/addresses.py) on its own."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from feedloom.adapters.http.addresses import refusal
from feedloom.adapters.http.outbound import HttpxOutbound
from feedloom.domain.errors import TargetRefused, UpstreamFailed, UpstreamTimeout
from tests.stub_http import Reply, StubRequest, json_reply, stub_server

REFUSED = [
    "10.0.0.1",
    "172.16.5.4",
    "192.168.1.1",
    "100.64.0.1",
    "127.0.0.1",
    "127.8.9.10",
    "169.254.169.254",
    "224.0.0.1",
    "239.255.255.250",
    "240.0.0.1",
    "0.0.0.0",
    "255.255.255.255",
    "192.0.2.1",
    "::1",
    "::",
    "fe80::1",
    "fe80::1%eth0",
    "fc00::1",
    "fd12:3456::1",
    "ff02::1",
    "::ffff:10.0.0.1",
    "::ffff:127.0.0.1",
    "::ffff:169.254.169.254",
    "64:ff9b::a00:1",
    "2002:a00:1::",
    "2001:db8::1",
]


@pytest.mark.parametrize("address", REFUSED)
def test_private_loopback_link_local_multicast_and_reserved_addresses_are_refused(
    address: str,
) -> None:
    assert refusal(address) is not None


@pytest.mark.parametrize(
    "address", ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"]
)
def test_public_addresses_are_allowed(address: str) -> None:
    assert refusal(address) is None


@pytest.mark.parametrize("address", ["127.0.0.1", "127.1.2.3", "::1"])
def test_allow_loopback_admits_127_slash_8_and_ipv6_loopback(address: str) -> None:
    assert refusal(address, allow_loopback=True) is None


@pytest.mark.parametrize("address", ["10.0.0.1", "169.254.169.254", "::ffff:127.0.0.1", "fe80::1"])
def test_allow_loopback_admits_nothing_else(address: str) -> None:
    assert refusal(address, allow_loopback=True) is not None


def client(allow_loopback: bool = True, **caps: float) -> HttpxOutbound:
    max_bytes = int(caps.get("max_bytes", 10_000))
    return HttpxOutbound(
        allow_loopback=allow_loopback, max_bytes=max_bytes, timeout_s=caps.get("timeout_s", 2.0)
    )


@pytest.fixture
async def outbound() -> AsyncIterator[HttpxOutbound]:
    http = client()
    yield http
    await http.aclose()


async def ok(request: StubRequest) -> Reply:
    return json_reply(b'{"ok": true}')


async def test_a_loopback_server_answers_when_loopback_is_allowed(outbound: HttpxOutbound) -> None:
    async with stub_server(ok) as stub:
        response = await outbound.request(
            "GET", stub.url("/skeleton"), params={"limit": "3"}, headers={"x-sig": "s"}
        )
    assert (response.status, response.body, response.content_type) == (
        200,
        b'{"ok": true}',
        "application/json",
    )
    sent = stub.requests[0]
    assert (sent.path, sent.query, sent.headers["x-sig"]) == ("/skeleton", {"limit": "3"}, "s")
    assert sent.headers["host"] == f"127.0.0.1:{stub.port}"


async def test_loopback_is_refused_without_the_switch_and_nothing_is_sent() -> None:
    http = client(allow_loopback=False)
    async with stub_server(ok) as stub:
        with pytest.raises(TargetRefused, match="loopback"):
            await http.request("GET", stub.url())
        with pytest.raises(TargetRefused):
            await http.request("GET", f"http://localhost:{stub.port}/")
    await http.aclose()
    assert stub.requests == []


async def test_a_name_resolving_to_a_private_address_is_refused_before_connecting() -> None:
    async def rebinding(host: str, port: int) -> list[str]:
        return ["93.184.216.34", "10.1.2.3"]  # one bad address is enough

    http = HttpxOutbound(allow_loopback=True, max_bytes=100, timeout_s=1, resolve=rebinding)
    with pytest.raises(TargetRefused, match="private"):
        await http.check("https://feeds.example.com/skeleton")
    await http.aclose()


@pytest.mark.parametrize(
    "url",
    [
        "ftp://127.0.0.1/",
        "file:///etc/passwd",
        "http://user:pw@127.0.0.1/",
        "not a url",
        "http:///x",
        f"https://{'0' * 300}/",  # a label the IDNA codec refuses (over 63 characters)
    ],
)
async def test_urls_that_are_not_plain_http_are_refused(outbound: HttpxOutbound, url: str) -> None:
    with pytest.raises(TargetRefused):
        await outbound.check(url)


async def test_a_redirect_is_refused_not_followed(outbound: HttpxOutbound) -> None:
    async def redirect(request: StubRequest) -> Reply:
        return 302, {"location": "http://169.254.169.254/latest/meta-data"}, b""

    async with stub_server(redirect) as stub:
        with pytest.raises(UpstreamFailed, match="redirect"):
            await outbound.request("GET", stub.url())
    assert len(stub.requests) == 1


async def test_a_body_over_the_size_cap_is_refused_declared_or_not() -> None:
    http = client(max_bytes=1_000)

    async def declared(request: StubRequest) -> Reply:
        return json_reply(b"x" * 5_000)

    async def chunked(request: StubRequest) -> Reply:
        # No Content-Length: the client learns the size only while reading.
        return (
            200,
            {"content-length": "", "transfer-encoding": "chunked"},
            (b"".join(b"400\r\n" + b"y" * 1024 + b"\r\n" for _ in range(8)) + b"0\r\n\r\n"),
        )

    for handler in (declared, chunked):
        async with stub_server(handler) as stub:
            with pytest.raises(UpstreamFailed, match="larger than 1000"):
                await http.request("GET", stub.url())
    await http.aclose()


async def test_a_slow_server_times_out_within_the_cap() -> None:
    http = client(timeout_s=5.0)

    async def slow(request: StubRequest) -> Reply:
        await asyncio.sleep(3)
        return json_reply(b"{}")

    async with stub_server(slow) as stub:
        with pytest.raises(UpstreamTimeout):
            await http.request("GET", stub.url(), timeout_s=0.2)
    await http.aclose()


async def test_a_closed_port_is_an_upstream_failure(outbound: HttpxOutbound) -> None:
    async with stub_server(ok) as stub:
        url = stub.url()
    with pytest.raises(UpstreamFailed):
        await outbound.request("GET", url)


async def test_a_post_carries_its_body(outbound: HttpxOutbound) -> None:
    async with stub_server(ok) as stub:
        await outbound.request("POST", stub.url("/hook"), content=b'{"a":1}')
    assert (stub.requests[0].method, stub.requests[0].body) == ("POST", b'{"a":1}')


async def test_a_resolver_that_hangs_is_cut_at_the_time_cap() -> None:
    async def hanging(host: str, port: int) -> list[str]:
        await asyncio.sleep(10)
        return ["93.184.216.34"]

    http = HttpxOutbound(allow_loopback=False, max_bytes=100, timeout_s=0.2, resolve=hanging)
    with pytest.raises(UpstreamTimeout):
        await http.check("https://slow.example.com/")
    with pytest.raises(UpstreamTimeout):
        await http.request("GET", "https://slow.example.com/")
    await http.aclose()
