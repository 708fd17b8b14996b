"""Public keys an app publishes at a JWKS URL (its own key pair signs user tokens).

Fetched through the SSRF-checked outbound client (ports/outbound.py: public addresses
only, no redirect, the size and time capped), kept per URL for `ttl_s`, and fetched
again sooner when a token names a `kid` the set lacks (the app rotated its keys), at
most once per `refetch_s` per URL, so tokens with made-up kids cannot make feedloom
hammer the app's server. At most `max_sets` URLs are kept, the least recently used
dropped. A URL that fails keeps serving the set it last gave, if any.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

import jwt
from cachetools import LRUCache

from feedloom.domain.errors import Unauthorized, UpstreamFailed
from feedloom.ports import Clock
from feedloom.ports.outbound import OutboundHttp


@dataclass(frozen=True, slots=True)
class _Fetched:
    keys: jwt.PyJWKSet
    at: float


class RemoteKeySets:
    def __init__(
        self,
        outbound: OutboundHttp,
        clock: Clock,
        ttl_s: float = 300.0,
        refetch_s: float = 30.0,
        max_sets: int = 256,
    ) -> None:
        self._outbound, self._clock = outbound, clock
        self.ttl_s, self.refetch_s = ttl_s, refetch_s  # public: tests shorten them
        self._sets: LRUCache[str, _Fetched] = LRUCache(maxsize=max_sets)
        self._locks: LRUCache[str, asyncio.Lock] = LRUCache(maxsize=max_sets)

    async def keys(self, url: str, kid: str | None) -> jwt.PyJWKSet:
        held = self._usable(url, kid)
        if held is not None:
            return held
        lock = self._locks.get(url)
        if lock is None:
            lock = self._locks[url] = asyncio.Lock()
        async with lock:  # concurrent tokens of one app: one fetch
            held = self._usable(url, kid)
            if held is not None:
                return held
            stale = self._sets.get(url)
            try:
                fetched = await self._fetch(url)
            except Unauthorized:
                if stale is None:
                    raise
                return stale.keys
            self._sets[url] = _Fetched(fetched, self._clock().timestamp())
            return fetched

    def _usable(self, url: str, kid: str | None) -> jwt.PyJWKSet | None:
        """The set held, unless it is too old, or lacks `kid` and may be fetched again."""
        held = self._sets.get(url)
        if held is None:
            return None
        age = self._clock().timestamp() - held.at
        if age >= self.ttl_s:
            return None
        known = kid is None or any(key.key_id == kid for key in held.keys.keys)
        return held.keys if known or age < self.refetch_s else None

    async def _fetch(self, url: str) -> jwt.PyJWKSet:
        try:
            response = await self._outbound.request(
                "GET", url, headers={"accept": "application/json"}
            )
        except UpstreamFailed as error:
            raise Unauthorized(f"the app's JWKS URL cannot be read: {error.detail}") from error
        if response.status != 200:
            raise Unauthorized(f"the app's JWKS URL answered {response.status}")
        try:
            return jwt.PyJWKSet.from_dict(json.loads(response.body))
        except (ValueError, AttributeError, jwt.PyJWTError) as error:
            raise Unauthorized(f"the app's JWKS URL holds no key set: {error}") from error
