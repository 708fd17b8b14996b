"""GET /v1/generators/{id}/items (and a saved feed whose source is a generator): a feed
someone else computes, of which feedloom takes IDs only.

ask the generator (signed, SSRF-checked, short timeout, bounded answer) → filter the
IDs for the reader (deleted, private, blocked, muted, muted words: never shown, whatever
the generator says; it needs no follow) → hydrate → page with the generator's cursor
inside feedloom's own. A slow or failing generator is a 504 or 502 problem (no cached
page is served): the request fails alone, no other feed waits on it.
"""

from __future__ import annotations

from functools import partial

import orjson

from feedloom.domain.custom_feeds import FeedGenerator
from feedloom.domain.errors import NotFound, UpstreamFailed
from feedloom.domain.generators import (
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    decode_generator_cursor,
    encode_generator_cursor,
    parse_skeleton,
    sign,
)
from feedloom.domain.model import FeedOrder
from feedloom.domain.visibility import thread_filter
from feedloom.metrics import Metrics
from feedloom.ports import Clock, OutboundHttp
from feedloom.ports.feeds import GeneratorStore
from feedloom.read.feed_page import FeedPage, count_filtered
from feedloom.read.hydrate import Hydrator, Loaded
from feedloom.read.viewer import Readers
from feedloom.read.visible import visible

GENERATOR = "generator"


class GeneratorFeed:
    def __init__(
        self,
        generators: GeneratorStore,
        outbound: OutboundHttp,
        readers: Readers,
        hydrator: Hydrator,
        metrics: Metrics,
        clock: Clock,
    ) -> None:
        self._generators, self._outbound, self._readers = generators, outbound, readers
        self._hydrator, self._metrics, self._clock = hydrator, metrics, clock

    async def by_id(self, generator_id: int) -> FeedGenerator:
        found = await self._generators.generator_by_id(generator_id)
        if found is None:
            raise NotFound("no such generator")
        return found

    async def by_uri(self, uri: str) -> FeedGenerator:
        found = await self._generators.generator_by_uri(uri)
        if found is None:
            raise NotFound("this feed's generator is no longer registered")
        return found

    async def page(
        self, viewer_id: int, generator: FeedGenerator, limit: int, cursor: str | None
    ) -> FeedPage:
        remote = decode_generator_cursor(cursor) if cursor is not None else None
        skeleton = parse_skeleton(await self._ask(viewer_id, generator, limit, remote), limit)
        reader = await self._readers.load(viewer_id)
        loaded = Loaded()
        views = await self._hydrator.views(viewer_id, skeleton.post_ids, loaded)
        # A thread's rule: what the reader may see, less muted accounts and muted words
        # (no follow needed: the generator chose the posts).
        kept = visible(skeleton.post_ids, views, partial(thread_filter, reader.context))
        count_filtered(self._metrics, kept.filtered)
        items = await self._hydrator.hydrate(
            viewer_id,
            kept.posts,
            dict.fromkeys([post.id for post in kept.posts], GENERATOR),
            loaded,
            reader.hidden_commenters,
        )
        more = skeleton.cursor is not None and bool(skeleton.post_ids)
        next_cursor = encode_generator_cursor(skeleton.cursor) if more and skeleton.cursor else None
        return FeedPage(items, next_cursor, FeedOrder.CHRONOLOGICAL, kept.filtered, generated=True)

    async def feedback(self, viewer_id: int, generator_id: int, post_id: int, kind: str) -> bool:
        """Post one interaction back to a generator that asked for feedback (`POST {uri}`,
        signed over viewer, post and kind); False if it did not ask."""
        generator = await self.by_id(generator_id)
        if not generator.feedback:
            return False
        body = orjson.dumps({"viewer": str(viewer_id), "post_id": str(post_id), "kind": kind})
        stamp = int(self._clock().timestamp())
        headers = {
            TIMESTAMP_HEADER: str(stamp),
            SIGNATURE_HEADER: sign(generator.secret, stamp, str(viewer_id), str(post_id), kind),
            "content-type": "application/json",
        }
        response = await self._outbound.request(
            "POST", generator.uri, headers=headers, content=body
        )
        if not 200 <= response.status < 300:
            raise UpstreamFailed(f"the generator answered feedback with status {response.status}")
        return True

    async def _ask(
        self, viewer_id: int, generator: FeedGenerator, limit: int, remote: str | None
    ) -> bytes:
        params = {"viewer": str(viewer_id), "limit": str(limit)}
        if remote is not None:
            params["cursor"] = remote
        stamp = int(self._clock().timestamp())
        signature = sign(generator.secret, stamp, str(viewer_id), str(limit), remote or "")
        headers = {TIMESTAMP_HEADER: str(stamp), SIGNATURE_HEADER: signature}
        response = await self._outbound.request(
            "GET", generator.uri, params=params, headers=headers
        )
        if response.status != 200:
            raise UpstreamFailed(f"the generator answered with status {response.status}")
        if response.content_type != "application/json":
            raise UpstreamFailed("the generator's answer is not application/json")
        return response.body
