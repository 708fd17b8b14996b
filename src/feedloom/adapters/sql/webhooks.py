"""SqlWebhooks: subscriptions and their durable deliveries (write/webhooks.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from feedloom.adapters.sql.app_tables import app_users, apps, webhook_deliveries, webhooks
from feedloom.adapters.sql.database import among, insert_ignoring_duplicates, utc
from feedloom.ports.webhooks import Delivery, NewDelivery, Webhook

_DELIVERY = (
    webhook_deliveries.c.id,
    webhook_deliveries.c.webhook_id,
    webhooks.c.url,
    webhooks.c.secret,
    webhook_deliveries.c.type,
    webhook_deliveries.c.payload,
    webhook_deliveries.c.state,
    webhook_deliveries.c.attempts,
    webhook_deliveries.c.next_attempt_at,
    webhook_deliveries.c.retry_from,
    webhook_deliveries.c.last_error,
)


class SqlWebhooks:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine
        self._dialect = engine.dialect.name

    async def add_webhook(self, webhook: Webhook) -> None:
        row = {
            "id": webhook.webhook_id,
            "app_id": webhook.app_id,
            "url": webhook.url,
            "events": ",".join(webhook.events),
            "secret": webhook.secret,
            "created_at": webhook.created_at,
        }
        async with self._engine.begin() as conn:
            await conn.execute(webhooks.insert().values(row))

    async def webhooks_of(self, app_id: int) -> list[Webhook]:
        query = select(webhooks).where(webhooks.c.app_id == app_id).order_by(webhooks.c.id)
        async with self._engine.connect() as conn:
            return [_webhook(row) for row in await conn.execute(query)]

    async def remove_webhook(self, app_id: int, webhook_id: int) -> bool:
        async with self._engine.begin() as conn:
            gone = await conn.execute(
                delete(webhooks).where(webhooks.c.id == webhook_id, webhooks.c.app_id == app_id)
            )
            return gone.rowcount > 0

    async def subscribed(self, user_ids: Sequence[int]) -> dict[int, list[tuple[Webhook, str]]]:
        if not user_ids:
            return {}
        query = (
            select(webhooks, app_users.c.user_id, app_users.c.external_id)
            .join(app_users, app_users.c.app_id == webhooks.c.app_id)
            .join(apps, apps.c.id == webhooks.c.app_id)
            .where(among(self._dialect, app_users.c.user_id, user_ids), apps.c.revoked_at.is_(None))
        )
        found: dict[int, list[tuple[Webhook, str]]] = {}
        async with self._engine.connect() as conn:
            for row in await conn.execute(query):
                found.setdefault(row.user_id, []).append((_webhook(row), row.external_id))
        return found

    async def subscribed_types(self) -> frozenset[str]:
        query = (
            select(webhooks.c.events)
            .join(apps, apps.c.id == webhooks.c.app_id)
            .where(apps.c.revoked_at.is_(None))
            .distinct()
        )
        async with self._engine.connect() as conn:
            return frozenset(
                t for events in (await conn.execute(query)).scalars() for t in events.split(",")
            )

    async def app_webhooks(self, app_ids: Sequence[int]) -> dict[int, list[Webhook]]:
        if not app_ids:
            return {}
        query = (
            select(webhooks)
            .join(apps, apps.c.id == webhooks.c.app_id)
            .where(among(self._dialect, webhooks.c.app_id, app_ids), apps.c.revoked_at.is_(None))
        )
        found: dict[int, list[Webhook]] = {}
        async with self._engine.connect() as conn:
            for row in await conn.execute(query):
                found.setdefault(row.app_id, []).append(_webhook(row))
        return found

    async def add_deliveries(self, deliveries: Sequence[NewDelivery], now: datetime) -> int:
        if not deliveries:
            return 0
        rows = [
            {
                "id": d.delivery_id,
                "webhook_id": d.webhook_id,
                "event_key": d.event_key,
                "type": d.type,
                "payload": d.payload,
                "state": "pending",
                "attempts": 0,
                "next_attempt_at": now,
                "retry_from": now,
            }
            for d in deliveries
        ]
        insert = insert_ignoring_duplicates(self._dialect, webhook_deliveries)
        async with self._engine.begin() as conn:
            return (await conn.execute(insert, rows)).rowcount

    async def claim_due(
        self, now: datetime, lease_until: datetime, limit: int, skip: Sequence[int]
    ) -> list[Delivery]:
        due = (
            select(webhook_deliveries.c.id)
            .join(webhooks, webhooks.c.id == webhook_deliveries.c.webhook_id)
            .where(
                webhook_deliveries.c.state == "pending",
                webhook_deliveries.c.next_attempt_at <= now,
                webhook_deliveries.c.webhook_id.not_in(list(skip)),
            )
            .order_by(webhook_deliveries.c.next_attempt_at)
            .limit(limit)
        )
        if self._dialect == "postgresql":
            # Two senders never claim the same row.
            due = due.with_for_update(skip_locked=True, of=webhook_deliveries)
        async with self._engine.begin() as conn:
            ids = list((await conn.execute(due)).scalars())
            if not ids:
                return []
            await conn.execute(
                update(webhook_deliveries)
                .where(webhook_deliveries.c.id.in_(ids))
                .values(next_attempt_at=lease_until)
            )
            rows = await conn.execute(_joined().where(webhook_deliveries.c.id.in_(ids)))
            return [_delivery(row) for row in rows]

    async def release(self, delivery_ids: Sequence[int], now: datetime) -> None:
        query = (
            update(webhook_deliveries)
            .where(among(self._dialect, webhook_deliveries.c.id, delivery_ids))
            .values(next_attempt_at=now)
        )
        async with self._engine.begin() as conn:
            await conn.execute(query)

    async def finish(self, delivery_id: int, now: datetime) -> None:
        await self._set(delivery_id, state="done", finished_at=now, last_error=None)

    async def retry_at(self, delivery_id: int, when: datetime, error: str) -> None:
        attempts = webhook_deliveries.c.attempts + 1
        await self._set(
            delivery_id, next_attempt_at=when, last_error=error[:300], attempts=attempts
        )

    async def bury(self, delivery_id: int, now: datetime, error: str) -> None:
        attempts = webhook_deliveries.c.attempts + 1
        await self._set(
            delivery_id, state="dead", finished_at=now, last_error=error[:300], attempts=attempts
        )

    async def deliveries(self, state: str, limit: int) -> list[Delivery]:
        query = (
            _joined()
            .where(webhook_deliveries.c.state == state)
            .order_by(webhook_deliveries.c.id.desc())
            .limit(limit)
        )
        async with self._engine.connect() as conn:
            return [_delivery(row) for row in await conn.execute(query)]

    async def delivery(self, delivery_id: int) -> Delivery | None:
        query = _joined().where(webhook_deliveries.c.id == delivery_id)
        async with self._engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return _delivery(row) if row is not None else None

    async def replay(self, delivery_id: int, now: datetime) -> bool:
        query = (
            update(webhook_deliveries)
            .where(webhook_deliveries.c.id == delivery_id, webhook_deliveries.c.state == "dead")
            .values(state="pending", next_attempt_at=now, retry_from=now, finished_at=None)
        )
        async with self._engine.begin() as conn:
            return (await conn.execute(query)).rowcount > 0

    async def _set(self, delivery_id: int, **values: Any) -> None:
        query = (
            update(webhook_deliveries)
            .where(webhook_deliveries.c.id == delivery_id)
            .values(**values)
        )
        async with self._engine.begin() as conn:
            await conn.execute(query)


def _joined() -> Any:
    return select(*_DELIVERY).join(webhooks, webhooks.c.id == webhook_deliveries.c.webhook_id)


def _webhook(row: Any) -> Webhook:
    return Webhook(
        row.id,
        row.app_id,
        row.url,
        tuple(row.events.split(",")),
        row.secret,
        utc(row.created_at) or row.created_at,
    )


def _delivery(row: Any) -> Delivery:
    return Delivery(
        row.id,
        row.webhook_id,
        row.url,
        row.secret,
        row.type,
        row.payload,
        row.state,
        row.attempts,
        utc(row.next_attempt_at) or row.next_attempt_at,
        utc(row.retry_from) or row.retry_from,
        row.last_error,
    )
