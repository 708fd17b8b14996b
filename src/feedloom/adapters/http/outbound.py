"""OutboundHttp over httpx, checked against SSRF (ports/outbound.py).

Every request resolves its host first, refuses it unless every address is public
(addresses.py), then connects to the address it checked: the URL is rewritten to the
IP, the Host header and TLS SNI (so certificate checks) keep the name. Resolving once
and connecting to what was resolved leaves no window for DNS rebinding (a name that
answers a public address to the check and a private one to the connect).

No redirects (a 3xx is refused: it could point anywhere, and following it would need
the check again), no proxies from the environment, the body read in chunks and given up
past `max_bytes` (a declared Content-Length over it is refused before reading), and one
deadline over the whole call (resolving, connecting, sending, reading).

One instance per use: generators and webhooks each get theirs, with their own
allow-loopback switch and caps (bootstrap).
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable, Mapping

import httpx

from feedloom.adapters.http.addresses import refusal
from feedloom.domain.errors import TargetRefused, UpstreamFailed, UpstreamTimeout
from feedloom.ports.outbound import OutboundResponse

Resolve = Callable[[str, int], Awaitable[list[str]]]
USER_AGENT = "feedloom"


async def resolve_host(host: str, port: int) -> list[str]:
    """Every address `host` resolves to (an IP literal resolves to itself)."""
    loop = asyncio.get_running_loop()
    try:
        infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as error:
        raise UpstreamFailed(f"cannot resolve {host}: {error.strerror}") from None
    except UnicodeError:  # the IDNA codec refuses it: a label over 63 characters, say
        raise TargetRefused(f"{host[:64]} is not a valid host name") from None
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


class HttpxOutbound:
    def __init__(
        self,
        *,
        allow_loopback: bool,
        max_bytes: int,
        timeout_s: float,
        resolve: Resolve = resolve_host,
        max_connections: int = 100,
    ) -> None:
        self._allow_loopback, self._max_bytes, self._timeout_s = (
            allow_loopback,
            max_bytes,
            timeout_s,
        )
        self._resolve = resolve
        self._client = httpx.AsyncClient(
            follow_redirects=False,
            trust_env=False,  # no HTTP(S)_PROXY: a proxy would connect where we did not check
            timeout=httpx.Timeout(timeout_s),
            limits=httpx.Limits(max_connections=max_connections),
            headers={"user-agent": USER_AGENT, "accept-encoding": "identity"},
        )

    async def aclose(self) -> None:
        await self._client.aclose()

    async def check(self, url: str) -> None:
        try:
            async with asyncio.timeout(self._timeout_s):  # a slow resolver holds nothing up
                await self._target(url)
        except TimeoutError:
            raise UpstreamTimeout(
                f"{url[:100]} did not resolve within {self._timeout_s:g} s"
            ) from None

    async def request(
        self,
        method: str,
        url: str,
        *,
        params: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        content: bytes | None = None,
        timeout_s: float | None = None,
    ) -> OutboundResponse:
        deadline = self._timeout_s if timeout_s is None else min(timeout_s, self._timeout_s)
        try:
            async with asyncio.timeout(deadline):
                return await self._send(method, url, params, headers or {}, content)
        except (TimeoutError, httpx.TimeoutException):
            raise UpstreamTimeout(f"no answer within {deadline:g} s") from None
        except httpx.HTTPError as error:
            raise UpstreamFailed(f"request failed: {type(error).__name__}") from None

    async def _send(
        self,
        method: str,
        url: str,
        params: Mapping[str, str] | None,
        headers: Mapping[str, str],
        content: bytes | None,
    ) -> OutboundResponse:
        target, netloc, host = await self._target(url)
        extensions = {"sni_hostname": host} if target.scheme == "https" else {}
        request = self._client.build_request(
            method,
            target,
            params=params,
            headers={**headers, "host": netloc},
            content=content,
            extensions=extensions,
        )
        response = await self._client.send(request, stream=True)
        try:
            if response.is_redirect or 300 <= response.status_code < 400:
                raise UpstreamFailed(f"redirect refused (status {response.status_code})")
            body = await self._body(response)
        finally:
            await response.aclose()
        return OutboundResponse(response.status_code, body, dict(response.headers.items()))

    async def _body(self, response: httpx.Response) -> bytes:
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self._max_bytes:
            raise UpstreamFailed(f"response larger than {self._max_bytes} bytes")
        body = bytearray()
        async for chunk in response.aiter_bytes():
            body += chunk
            if len(body) > self._max_bytes:
                raise UpstreamFailed(f"response larger than {self._max_bytes} bytes")
        return bytes(body)

    async def _target(self, url: str) -> tuple[httpx.URL, str, str]:
        """The URL rewritten to a checked address, its original host[:port], its host."""
        try:
            parsed = httpx.URL(url)
        except httpx.InvalidURL:
            raise TargetRefused("not a valid URL") from None
        if parsed.scheme not in ("http", "https") or not parsed.host:
            raise TargetRefused("only http and https URLs with a host may be called")
        if parsed.userinfo:
            raise TargetRefused("a URL with credentials in it is refused")
        port = parsed.port or (443 if parsed.scheme == "https" else 80)
        addresses = await self._resolve(parsed.host, port)
        if not addresses:
            raise UpstreamFailed(f"{parsed.host} resolves to no address")
        for address in addresses:
            reason = refusal(address, self._allow_loopback)
            if reason is not None:
                raise TargetRefused(f"{parsed.host} is a {reason} address, which is refused")
        return parsed.copy_with(host=addresses[0]), parsed.netloc.decode("ascii"), parsed.host
