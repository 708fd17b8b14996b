"""POST /v1/generators: register an outside feed generator (docs/FEEDS.md).

Its URI is checked like every outbound target before it is stored (http(s), every
address public, or loopback where the operator allows it): a refused target is 422.
The generator's secret, which signs each skeleton request, is made here and shown to
the account that registered it only.
"""

from __future__ import annotations

import secrets

from feedloom.domain.custom_feeds import FeedGenerator, Keyed
from feedloom.domain.errors import InvalidInput, TargetRefused, UpstreamFailed
from feedloom.domain.ids import IdGenerator
from feedloom.ports import Clock, OutboundHttp
from feedloom.ports.feeds import GeneratorStore
from feedloom.write.idempotency import request_hash


class RegisterGenerator:
    def __init__(
        self, store: GeneratorStore, outbound: OutboundHttp, ids: IdGenerator, clock: Clock
    ) -> None:
        self._store, self._outbound, self._ids, self._clock = store, outbound, ids, clock

    async def __call__(
        self,
        owner_id: int,
        uri: str,
        name: str,
        description: str,
        feedback: bool,
        key: str | None,
    ) -> tuple[FeedGenerator, bool]:
        try:
            await self._outbound.check(uri)
        except TargetRefused as refused:
            raise InvalidInput(f"uri: {refused.detail}") from None
        except UpstreamFailed as failed:  # e.g. a name that does not resolve
            raise InvalidInput(f"uri: {failed.detail}") from None
        generator = FeedGenerator(
            self._ids.next_id(),
            owner_id,
            uri,
            name,
            description,
            secrets.token_urlsafe(32),
            feedback,
            self._clock(),
        )
        keyed = Keyed(key, request_hash("generator", uri, name, description, feedback))
        return await self._store.create_generator(generator, keyed)
