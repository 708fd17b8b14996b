"""Notifications: GET /api/v1/notifications (ungrouped), /{id}, /unread_count, POST
/clear and /{id}/dismiss; grouped GET /api/v2/notifications (Mastodon 4.3's shape) and
its /unread_count.
Each maps onto the use cases of /v1/notifications (Notifications, NotificationSettings):
a Mastodon notification is one of our groups, whose ID is the group's (its most recent
activity), so `max_id`/`since_id`/`min_id` page over group IDs as the timelines do
over entries (api/mastodon/windows.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

from feedloom.api.deps import NotificationsDep, NotificationSettingsDep
from feedloom.api.mastodon import entities
from feedloom.api.mastodon.auth import ReadNotifications, WriteNotifications
from feedloom.api.mastodon.forms import many
from feedloom.api.mastodon.oauth_routes import base_url
from feedloom.api.mastodon.paging import paged
from feedloom.api.mastodon.windows import Paging, Window, paging
from feedloom.domain.cursors import KeysetCursor, encode_cursor, keyset_before
from feedloom.domain.errors import NotFound
from feedloom.domain.ids import parse_id
from feedloom.domain.notifications import NotificationType
from feedloom.read.notifications import NotificationItem, Notifications

v1 = APIRouter(prefix="/v1/notifications")
v2 = APIRouter(prefix="/v2/notifications")
GROUPED_DEFAULT, GROUPED_MAX = 40, 80  # Mastodon's for /api/v2/notifications
SHOWN = frozenset(entities.NOTIFICATION_TYPES)  # a moderation outcome has no Mastodon type


@dataclass(frozen=True, slots=True)
class _Page:
    items: list[NotificationItem]
    next_cursor: str | None


def wanted(request: Request) -> frozenset[NotificationType]:
    """`types[]` and `exclude_types[]` (Mastodon's names) as ours; Mastodon types we
    have nothing for (poll, status, update…) select nothing."""
    pairs = list(request.query_params.multi_items())
    types, excluded = set(many(pairs, "types")), set(many(pairs, "exclude_types"))
    return frozenset(
        ours
        for ours, theirs in entities.NOTIFICATION_TYPES.items()
        if (not types or theirs in types) and theirs not in excluded
    )


async def _window(
    notifications: Notifications,
    user: int,
    paging: Paging,
    types: frozenset[NotificationType],
) -> list[NotificationItem]:
    if not types:
        return []

    async def fetch(cursor: str | None, limit: int) -> _Page:
        page = await notifications.page(user, limit, keyset_before(cursor), types)
        before = page.next_before
        return _Page(page.items, encode_cursor(KeysetCursor(before)) if before else None)

    return await paging.walk(fetch, lambda item: item.group.id)


def _links(request: Request, body: object, items: list[NotificationItem]) -> JSONResponse:
    if not items:
        return JSONResponse(body)
    return paged(request, body, str(items[-1].group.id), str(items[0].group.id))


@v1.get("")
async def get_notifications(
    request: Request, notifications: NotificationsDep, user: ReadNotifications, window: Window
) -> JSONResponse:
    """One notification per group: the group's ID, time and most recent account."""
    items = await _window(notifications, user, window, wanted(request))
    base = base_url(request)
    body = [n for item in items if (n := entities.notification(item, base)) is not None]
    return _links(request, body, items)


@v1.get("/unread_count")
@v2.get("/unread_count")
async def unread_count(notifications: NotificationsDep, user: ReadNotifications) -> JSONResponse:
    """Groups newer than the read marker: v1's notifications and v2's groups are both
    our groups, so the two counts are one."""
    unread, _ = await notifications.unread_count(user)
    return JSONResponse({"count": unread})


@v1.get("/{notification_id}")
async def get_notification(
    request: Request,
    notification_id: str,
    notifications: NotificationsDep,
    user: ReadNotifications,
) -> JSONResponse:
    wanted_id = _notification_id(notification_id)
    page = await notifications.page(user, 1, wanted_id + 1, SHOWN)
    found = [item for item in page.items if item.group.id == wanted_id]
    rendered = entities.notification(found[0], base_url(request)) if found else None
    if rendered is None:
        raise NotFound("Record not found")
    return JSONResponse(rendered)


@v1.post("/clear")
async def clear(settings: NotificationSettingsDep, user: WriteNotifications) -> JSONResponse:
    await settings.clear(user)
    return JSONResponse({})


@v1.post("/{notification_id}/dismiss")
async def dismiss(
    notification_id: str, settings: NotificationSettingsDep, user: WriteNotifications
) -> JSONResponse:
    await settings.dismiss(user, _notification_id(notification_id))
    return JSONResponse({})


GroupedWindow = Annotated[Paging, Depends(paging(GROUPED_DEFAULT, GROUPED_MAX))]


@v2.get("")
async def grouped_notifications(
    request: Request,
    notifications: NotificationsDep,
    user: ReadNotifications,
    window: GroupedWindow,
) -> JSONResponse:
    """Our groups as they are (`grouped_types` changes nothing: a group holds no
    per-activity IDs to ungroup), with the accounts and statuses they refer to."""
    items = await _window(notifications, user, window, wanted(request))
    base = base_url(request)
    groups: list[entities.Json] = []
    accounts: dict[int, entities.Json] = {}
    statuses: dict[int, entities.Json] = {}
    for item in items:
        group = entities.notification_group(item)
        if group is None:
            continue
        groups.append(group)
        for profile in item.accounts:
            accounts.setdefault(profile.id, entities.account(profile, base))
        if item.post is not None:
            statuses.setdefault(item.post.entry_id, entities.status(item.post, base))
    body = {
        "accounts": list(accounts.values()),
        "statuses": list(statuses.values()),
        "notification_groups": groups,
    }
    return _links(request, body, items)


def _notification_id(value: str) -> int:
    try:
        return parse_id(value)
    except ValueError as error:
        raise NotFound("Record not found") from error
