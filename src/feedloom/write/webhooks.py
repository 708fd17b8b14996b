"""Webhooks: an app subscribes a URL to event types; each event of its users is
delivered there, signed per Standard Webhooks (docs/INTEGRATION.md).

Where events come from: the fan-out worker hands every outbox event it handles to
`WebhookEvents` before acking it, which stores one delivery per subscribed webhook
(unique per webhook and event: the outbox delivers at least once, a receiver hears of
an event once per success). `WebhookSender` sends the due deliveries in a loop of its
own, beside fan-out, so a slow or dead receiver never holds fan-out up; at most
`per_receiver` sends to one webhook are in flight, so it never holds other receivers up
either. A failed send (not 2xx, a timeout, a refused address) is retried with
exponential backoff and jitter until `give_up_after` has passed since the event, then
the delivery is dead (`feedloom webhooks list | show | replay`).

A send in flight holds a lease (its row is due again at `now + lease`): a worker killed
mid-send leaves it due, and it goes out again with the same `webhook-id`.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import random
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from standardwebhooks import Webhook as Signer

from feedloom.domain.errors import InvalidInput, NotFound, TargetRefused, UpstreamFailed
from feedloom.domain.ids import IdGenerator
from feedloom.domain.model import Event, Post, PostDeleted, PostPublished
from feedloom.lookups.cached_views import Views
from feedloom.ports import Clock
from feedloom.ports.outbound import OutboundHttp
from feedloom.ports.webhooks import Delivery, NewDelivery, Webhook, WebhookStore

log = logging.getLogger(__name__)

EVENT_TYPES = (
    "post.created",
    "reply.created",
    "repost.created",
    "post.deleted",
)
MAX_URL = 2048


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    base: timedelta
    cap: timedelta
    give_up_after: timedelta
    lease: timedelta  # a send's timeout and then some

    def next_try(self, attempts: int, now: datetime, rng: random.Random) -> datetime:
        """Exponential backoff with full jitter in its upper half: never in lockstep."""
        wait = min(self.cap.total_seconds(), self.base.total_seconds() * 2 ** (attempts - 1))
        return now + timedelta(seconds=wait * rng.uniform(0.5, 1.0))


def new_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


class Webhooks:
    """POST|GET /v1/apps/webhooks, DELETE /v1/apps/webhooks/{id}."""

    def __init__(
        self, store: WebhookStore, outbound: OutboundHttp, ids: IdGenerator, clock: Clock
    ) -> None:
        self._store, self._outbound, self._ids, self._clock = store, outbound, ids, clock

    async def create(self, app_id: int, url: str, events: Sequence[str]) -> Webhook:
        unknown = sorted(set(events) - set(EVENT_TYPES))
        if unknown or not events:
            raise InvalidInput(f"event types are among {', '.join(EVENT_TYPES)}")
        if len(url) > MAX_URL:
            raise InvalidInput(f"a webhook URL is at most {MAX_URL} characters")
        try:
            await self._outbound.check(url)
        except TargetRefused as error:
            raise InvalidInput(f"the webhook URL may not be called: {error.detail}") from None
        except UpstreamFailed as error:
            raise InvalidInput(f"the webhook URL cannot be reached: {error.detail}") from None
        hook = Webhook(
            self._ids.next_id(),
            app_id,
            url,
            tuple(dict.fromkeys(events)),
            new_secret(),
            self._clock(),
        )
        await self._store.add_webhook(hook)
        return hook

    async def list(self, app_id: int) -> list[Webhook]:
        return await self._store.webhooks_of(app_id)

    async def delete(self, app_id: int, webhook_id: int) -> None:
        if not await self._store.remove_webhook(app_id, webhook_id):
            raise NotFound("no such webhook")


class WebhookEvents:
    """Outbox events -> the deliveries they make (called by the fan-out worker)."""

    def __init__(self, store: WebhookStore, views: Views, ids: IdGenerator, clock: Clock):
        self._store, self._views, self._ids, self._clock = store, views, ids, clock

    async def __call__(self, events: Sequence[Event]) -> int:
        wanted = [e for e in events if isinstance(e, PostPublished | PostDeleted)]
        if not wanted:
            return 0
        subscribed = await self._store.subscribed(sorted({e.author_id for e in wanted}))
        if not subscribed:
            return 0
        published = [e.post_id for e in wanted if isinstance(e, PostPublished)]
        posts = await self._views.posts(published) if published else {}
        now = self._clock()
        made = []
        for event in wanted:
            for hook, external_id in subscribed.get(event.author_id, []):
                kind, data = _describe(event, posts)
                if kind is None or kind not in hook.events:
                    continue
                data = {**data, "author_id": str(event.author_id), "author": external_id}
                body = {"type": kind, "timestamp": now.isoformat(), "data": data}
                made.append(
                    NewDelivery(
                        self._ids.next_id(),
                        hook.webhook_id,
                        f"{kind}:{event.post_id}",
                        kind,
                        json.dumps(body, separators=(",", ":")),
                    )
                )
        return await self._store.add_deliveries(made, now)


def _describe(event: Event, posts: dict[int, Post]) -> tuple[str | None, dict[str, object]]:
    data: dict[str, object] = {"post_id": str(event.post_id)}
    if isinstance(event, PostDeleted):
        return "post.deleted", data
    post = posts.get(event.post_id)
    if post is None:
        return None, data  # deleted before its event was handled: nothing to announce
    data["text"] = post.text
    if post.repost_of is not None:
        return "repost.created", {**data, "repost_of": str(post.repost_of)}
    if post.in_reply_to is not None:
        return "reply.created", {**data, "in_reply_to": str(post.in_reply_to)}
    return "post.created", data


@dataclass(frozen=True, slots=True)
class SendLimits:
    concurrency: int
    per_receiver: int
    timeout_s: float


class WebhookSender:
    def __init__(
        self,
        store: WebhookStore,
        outbound: OutboundHttp,
        clock: Clock,
        policy: RetryPolicy,
        limits: SendLimits,
        rng: random.Random | None = None,
    ) -> None:
        self._store, self._outbound, self._clock = store, outbound, clock
        self.policy, self.limits = policy, limits  # public: tests shorten them
        self._rng = rng or random.Random()
        self._in_flight: Counter[int] = Counter()  # webhook ID -> sends under way
        self._tasks: set[asyncio.Task[None]] = set()

    async def step(self) -> int:
        """Start the sends that are due and fit the limits; returns how many started."""
        room = self.limits.concurrency - sum(self._in_flight.values())
        if room <= 0:
            return 0
        full = [hook for hook, n in self._in_flight.items() if n >= self.limits.per_receiver]
        now = self._clock()
        claimed = await self._store.claim_due(now, now + self.policy.lease, room, full)
        started = 0
        for delivery in claimed:
            if self._in_flight[delivery.webhook_id] >= self.limits.per_receiver:
                continue  # leased, not sent: due again when the lease runs out
            self._in_flight[delivery.webhook_id] += 1
            task = asyncio.create_task(self._send(delivery))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            started += 1
        return started

    async def deliver_due(self) -> int:
        """Send everything due now and wait for the answers (tests, the CLI)."""
        sent = 0
        while started := await self.step():
            sent += started
            await self.drain()
        return sent

    async def drain(self) -> None:
        if self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _send(self, delivery: Delivery) -> None:
        try:
            error = await self._attempt(delivery)
            now = self._clock()
            if error is None:
                await self._store.finish(delivery.delivery_id, now)
            elif now - delivery.retry_from >= self.policy.give_up_after:
                log.warning("webhook delivery %d is dead: %s", delivery.delivery_id, error)
                await self._store.bury(delivery.delivery_id, now, error)
            else:
                when = self.policy.next_try(delivery.attempts + 1, now, self._rng)
                await self._store.retry_at(delivery.delivery_id, when, error)
        except Exception:
            log.exception("webhook delivery %d failed to record", delivery.delivery_id)
        finally:
            self._in_flight[delivery.webhook_id] -= 1
            if self._in_flight[delivery.webhook_id] <= 0:
                del self._in_flight[delivery.webhook_id]

    async def _attempt(self, delivery: Delivery) -> str | None:
        """None when the receiver took it (2xx), else why not."""
        message_id = f"msg_{delivery.delivery_id}"
        now = self._clock()
        signature = Signer(delivery.secret).sign(message_id, now, delivery.payload)
        headers = {
            "content-type": "application/json",
            "webhook-id": message_id,
            "webhook-timestamp": str(int(now.timestamp())),
            "webhook-signature": signature,
        }
        try:
            response = await self._outbound.request(
                "POST",
                delivery.url,
                headers=headers,
                content=delivery.payload.encode(),
                timeout_s=self.limits.timeout_s,
            )
        except UpstreamFailed as error:
            return f"{type(error).__name__}: {error.detail}"
        if 200 <= response.status < 300:
            return None
        return f"the receiver answered {response.status}"
