"""GET /v1/notifications, GET /v1/notifications/unread_count, POST /v1/notifications/read.
Parses, calls one use case, renders."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from feedloom.api.deps import CurrentUser, Cursor, NotificationsDep, NotificationSettingsDep
from feedloom.api.schemas import Item, JsonDict, Strict, example
from feedloom.domain.cursors import KeysetCursor, encode_cursor, keyset_before
from feedloom.domain.errors import InvalidInput
from feedloom.domain.ids import MAX_ID
from feedloom.domain.model import UserProfile
from feedloom.domain.notifications import NotificationType
from feedloom.read.notifications import ALL_TYPES, NotificationItem

router = APIRouter(prefix="/v1/notifications", tags=["notifications"])
Types = Annotated[
    list[NotificationType] | None,
    Query(description="only these types (repeat the parameter for several)"),
]

ACCOUNT_EXAMPLE: JsonDict = {"id": "7291543817012345", "name": "Alice", "avatar": None}
NOTIFICATION_EXAMPLE: JsonDict = {
    "id": "7291544012345678",
    "type": "like",
    "created_at": "2026-12-07T12:00:00Z",
    "accounts": [ACCOUNT_EXAMPLE],
    "accounts_count": 15,
    "post": None,
    "group_key": "like:7291543900000001:20429",
}


class NotificationAccount(BaseModel):
    model_config = example(ACCOUNT_EXAMPLE)

    id: str
    name: str
    avatar: str | None


class NotificationOut(BaseModel):
    model_config = example(NOTIFICATION_EXAMPLE)

    id: str = Field(description="the group's newest activity: what `up_to` and cursors compare")
    type: NotificationType
    created_at: datetime = Field(description="when the group's newest activity happened")
    accounts: list[NotificationAccount] = Field(
        description="who did it, the most recent first (at most 8)"
    )
    accounts_count: int = Field(description="how many accounts did it, all told")
    post: Item | None = Field(
        description="the post it is about, as you may see it (null: a follow, or a "
        "moderation outcome of a post that is gone)"
    )
    group_key: str = Field(description="the group's stable identity")


class NotificationPageOut(BaseModel):
    model_config = example(
        {"items": [NOTIFICATION_EXAMPLE], "next_cursor": None, "unread_count": 1}
    )

    items: list[NotificationOut]
    next_cursor: str | None
    unread_count: int = Field(description="groups newer than your read marker")


class UnreadOut(BaseModel):
    model_config = example({"unread_count": 3, "up_to": "7291544012345678"})

    unread_count: int
    up_to: str = Field(description="the read marker: the newest notification ID read")


class ReadMarker(Strict):
    up_to: str = Field(
        pattern=r"^[0-9]{1,20}$",
        description="a notification ID: everything up to it is read (never moves backwards)",
    )


def _account(profile: UserProfile) -> NotificationAccount:
    return NotificationAccount(id=str(profile.id), name=profile.display_name, avatar=profile.avatar)


def render(item: NotificationItem) -> NotificationOut:
    group = item.group
    moderation = group.type is NotificationType.MODERATION
    return NotificationOut(
        id=str(group.id),
        type=group.type,
        created_at=group.updated_at,
        accounts=[_account(profile) for profile in item.accounts],
        accounts_count=0 if moderation else group.accounts_count,
        post=Item.of(item.post) if item.post is not None else None,
        group_key=group.group_key,
    )


@router.get("", response_model=NotificationPageOut)
async def get_notifications(
    notifications: NotificationsDep,
    user_id: CurrentUser,
    cursor: Cursor = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    types: Types = None,
    exclude_types: Types = None,
) -> NotificationPageOut:
    """Your notifications, grouped, newest first, cursor-paged."""
    wanted = frozenset(types or ALL_TYPES) - frozenset(exclude_types or ())
    page = await notifications.page(user_id, limit, keyset_before(cursor), wanted)
    next_cursor = None
    if page.next_before is not None:
        next_cursor = encode_cursor(KeysetCursor(page.next_before))
    return NotificationPageOut(
        items=[render(item) for item in page.items],
        next_cursor=next_cursor,
        unread_count=page.unread_count,
    )


@router.get("/unread_count", response_model=UnreadOut)
async def get_unread_count(notifications: NotificationsDep, user_id: CurrentUser) -> UnreadOut:
    """How many notifications are newer than your read marker (the same on every device)."""
    unread, marker = await notifications.unread_count(user_id)
    return UnreadOut(unread_count=unread, up_to=str(marker))


@router.post("/read", response_model=UnreadOut)
async def mark_read(
    body: ReadMarker,
    settings: NotificationSettingsDep,
    notifications: NotificationsDep,
    user_id: CurrentUser,
) -> UnreadOut:
    """Mark everything up to `up_to` read. Idempotent; a marker never moves backwards
    (an older ID changes nothing); an ID above 2^63-1 or from the future is 422."""
    up_to = int(body.up_to)
    if up_to > MAX_ID:
        raise InvalidInput("up_to is above 2^63-1")
    marker = await settings.mark_read(user_id, up_to)
    unread, _ = await notifications.unread_count(user_id)
    return UnreadOut(unread_count=unread, up_to=str(marker))
