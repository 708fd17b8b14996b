"""Ports of webhooks: subscriptions, and the durable deliveries the sender works from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol


@dataclass(frozen=True, slots=True)
class Webhook:
    webhook_id: int
    app_id: int
    url: str
    events: tuple[str, ...]
    secret: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class NewDelivery:
    delivery_id: int
    webhook_id: int
    event_key: str  # unique per webhook: the same event twice is one delivery
    type: str
    payload: str  # the JSON body, as signed


@dataclass(frozen=True, slots=True)
class Delivery:
    delivery_id: int
    webhook_id: int
    url: str
    secret: str
    type: str
    payload: str
    state: str  # pending | done | dead
    attempts: int
    next_attempt_at: datetime
    retry_from: datetime
    last_error: str | None


class WebhookStore(Protocol):
    async def add_webhook(self, webhook: Webhook) -> None: ...
    async def webhooks_of(self, app_id: int) -> list[Webhook]: ...
    async def remove_webhook(self, app_id: int, webhook_id: int) -> bool: ...
    async def subscribed(self, user_ids: Sequence[int]) -> dict[int, list[tuple[Webhook, str]]]:
        """user ID -> the webhooks of the apps that have the user, with its external ID."""
        ...

    async def subscribed_types(self) -> frozenset[str]:
        """Every event type some webhook of a live app subscribes to."""
        ...

    async def app_webhooks(self, app_ids: Sequence[int]) -> dict[int, list[Webhook]]:
        """app ID -> its webhooks (live apps only)."""
        ...

    async def add_deliveries(self, deliveries: Sequence[NewDelivery], now: datetime) -> int:
        """Store what is new (a (webhook, event key) already there is skipped)."""
        ...

    async def claim_due(
        self, now: datetime, lease_until: datetime, limit: int, skip: Sequence[int]
    ) -> list[Delivery]:
        """Pending deliveries due by `now` (none of the webhooks in `skip`), leased: due
        again at `lease_until` unless finished before."""
        ...

    async def release(self, delivery_ids: Sequence[int], now: datetime) -> None:
        """Claimed but not sent: due again at `now`."""
        ...

    async def finish(self, delivery_id: int, now: datetime) -> None: ...
    async def retry_at(self, delivery_id: int, when: datetime, error: str) -> None: ...
    async def bury(self, delivery_id: int, now: datetime, error: str) -> None: ...
    async def deliveries(self, state: str, limit: int) -> list[Delivery]:
        """Newest first."""
        ...

    async def delivery(self, delivery_id: int) -> Delivery | None: ...
    async def replay(self, delivery_id: int, now: datetime) -> bool:
        """A dead delivery pending again, its retries counted from now."""
        ...
