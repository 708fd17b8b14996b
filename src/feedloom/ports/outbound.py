"""Outbound HTTP to services other people run (feed generators, webhook receivers).

One port for every such call, so the SSRF rules (which addresses may be reached, no
redirects, a size and a time cap) live in one adapter (adapters/http/outbound.py) and
no use case can reach a socket any other way. Errors: `TargetRefused` for a URL that
may not be reached, `UpstreamTimeout` past the time cap, `UpstreamFailed` for the rest
(unreachable, a redirect, a body over the size cap) — all from domain/errors.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True, slots=True)
class OutboundResponse:
    status: int
    body: bytes
    headers: Mapping[str, str] = field(default_factory=dict)  # names lower-cased

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";")[0].strip().lower()


class OutboundHttp(Protocol):
    async def check(self, url: str) -> None:
        """Raise `TargetRefused` unless `url` is http(s) and every address its host
        resolves to may be reached (used when a URL is registered, before it is stored)."""
        ...

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
        """One request to a checked address, redirects not followed (a 3xx is an
        `UpstreamFailed`), the body read up to the size cap; any other status is
        returned for the caller to judge. `timeout_s` may only shorten the cap."""
        ...
