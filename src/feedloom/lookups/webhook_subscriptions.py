"""The event types some webhook subscribes to, cached, so the fan-out worker's webhook
step costs no SQL for an event nobody subscribed to (most events, on most deployments).

One record in the apps' record cache (ports.RecordCache: in process on the embedded
default, Redis in production, so every process sees a change at once): a webhook added
or removed invalidates it after its commit, and the generation keeps a filler that read
the old set from storing it. A revoked app's types stay until the next change: a
superset costs a query, never a lost event.
"""

from __future__ import annotations

from feedloom.ports import RecordCache
from feedloom.ports.webhooks import WebhookStore

KEY = "webhooks:types"


class SubscribedTypes:
    def __init__(self, store: WebhookStore, cache: RecordCache) -> None:
        self._store, self._cache = store, cache

    async def __call__(self) -> frozenset[str]:
        [(cached, generation)] = await self._cache.get_many([KEY])
        if cached is not None:
            return frozenset(cached.decode().split(",")) - {""}
        types = await self._store.subscribed_types()
        await self._cache.put(KEY, ",".join(sorted(types)).encode(), generation)
        return types

    async def changed(self) -> None:
        await self._cache.invalidate([KEY])
