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
from feedloom.domain.model import Event, PostEdited, PostPublished
from feedloom.domain.webhook_events import EVENT_TYPES, Announcement, announcements, possible_types
from feedloom.lookups.cached_views import Views
from feedloom.lookups.webhook_subscriptions import SubscribedTypes
from feedloom.ports import Clock
from feedloom.ports.outbound import OutboundHttp
from feedloom.ports.webhooks import Delivery, NewDelivery, Webhook, WebhookStore

log = logging.getLogger(__name__)

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
        self,
        store: WebhookStore,
        subscriptions: SubscribedTypes,
        outbound: OutboundHttp,
        ids: IdGenerator,
        clock: Clock,
    ) -> None:
        self._store, self._subscriptions = store, subscriptions
        self._outbound, self._ids, self._clock = outbound, ids, clock

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
        await self._subscriptions.changed()  # after the commit: no cache holds the old set
        return hook

    async def list(self, app_id: int) -> list[Webhook]:
        return await self._store.webhooks_of(app_id)

    async def delete(self, app_id: int, webhook_id: int) -> None:
        if not await self._store.remove_webhook(app_id, webhook_id):
            raise NotFound("no such webhook")
        await self._subscriptions.changed()


class WebhookEvents:
    """Outbox events -> the deliveries they make (called by the fan-out worker)."""

    def __init__(
        self,
        store: WebhookStore,
        subscriptions: SubscribedTypes,
        views: Views,
        ids: IdGenerator,
        clock: Clock,
    ) -> None:
        self._store, self._subscriptions = store, subscriptions
        self._views, self._ids, self._clock = views, ids, clock

    async def __call__(self, events: Sequence[Event]) -> int:
        subscribed_types = await self._subscriptions()  # cached: no webhooks, no SQL
        wanted = [e for e in events if possible_types(e) & subscribed_types]
        if not wanted:
            return 0
        shown = [e.post_id for e in wanted if isinstance(e, PostPublished | PostEdited)]
        posts = await self._views.posts(shown) if shown else {}
        made = [a for e in wanted for a in announcements(e, posts) if a.type in subscribed_types]
        audience = sorted({user for a in made for user in a.audience})
        by_user = await self._store.subscribed(audience) if audience else {}
        app_ids = sorted({a.app_id for a in made if a.app_id})
        by_app = await self._store.app_webhooks(app_ids) if app_ids else {}
        now = self._clock()
        deliveries = []
        for announced in made:
            for hook in _hooks_of(announced, by_user, by_app):
                data = {**announced.data, **_people(announced, hook.app_id, by_user)}
                body = {"type": announced.type, "timestamp": now.isoformat(), "data": data}
                deliveries.append(
                    NewDelivery(
                        self._ids.next_id(),
                        hook.webhook_id,
                        announced.key,
                        announced.type,
                        json.dumps(body, separators=(",", ":")),
                    )
                )
        return await self._store.add_deliveries(deliveries, now)


Subscribed = dict[int, list[tuple[Webhook, str]]]  # user ID -> (webhook, external ID)


def _hooks_of(
    announced: Announcement, by_user: Subscribed, by_app: dict[int, list[Webhook]]
) -> list[Webhook]:
    """The webhooks that want it: of the apps of its audience (each once), or its app."""
    found = {hook.webhook_id: hook for hook in by_app.get(announced.app_id, [])}
    for user in announced.audience:
        found.update((hook.webhook_id, hook) for hook, _ in by_user.get(user, []))
    return [hook for hook in found.values() if announced.type in hook.events]


def _people(announced: Announcement, app_id: int, by_user: Subscribed) -> dict[str, object]:
    """Each person by feedloom's ID, and by the external ID this app knows them by."""
    named: dict[str, object] = {}
    for role, user in announced.people:
        known = (ext for hook, ext in by_user.get(user, []) if hook.app_id == app_id)
        named[f"{role}_id"] = str(user)
        named[role] = next(known, None)
    return named


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
        started, waiting = 0, []
        for delivery in claimed:
            if self._in_flight[delivery.webhook_id] >= self.limits.per_receiver:
                waiting.append(delivery.delivery_id)
                continue
            self._in_flight[delivery.webhook_id] += 1
            task = asyncio.create_task(self._send(delivery))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            started += 1
        if waiting:
            # Claimed past the receiver's limit: due again now, not when the lease ends.
            await self._store.release(waiting, now)
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
