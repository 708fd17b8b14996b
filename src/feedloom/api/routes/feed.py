"""GET /v1/feed (the home timeline) and GET|PUT /v1/me/settings (its default order).
Parses, calls one use case, renders."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from feedloom.api import render
from feedloom.api.deps import (
    CurrentUser,
    FeedCursor,
    FeedOrdersDep,
    HomeFeedDep,
    NotificationSettingsDep,
)
from feedloom.api.schemas import FeedPageOut, FeedPreferences, FeedPreferencesOut
from feedloom.domain.model import FeedOrder
from feedloom.read.feed_order import FeedOrders
from feedloom.read.timing import StageTimer
from feedloom.write.notifications import NotificationSettings

router = APIRouter(prefix="/v1", tags=["feed"])


# The model documents the body; api/render.py writes it (explain fields only when asked).
@router.get("/feed", response_model=FeedPageOut, response_model_exclude_unset=True)
async def get_feed(
    feed: HomeFeedDep,
    reader: CurrentUser,
    cursor: FeedCursor = None,
    limit: Annotated[int | None, Query(ge=1, le=100)] = None,
    order: Annotated[
        FeedOrder | None,
        Query(description="default: the cursor's order, else the account setting"),
    ] = None,
    explain: Annotated[
        bool, Query(description="add each item's source and score parts, and filter counts")
    ] = False,
) -> Response:
    """The home feed: followed accounts and your own posts, newest first or ranked, cursor-paged."""
    timer = StageTimer()
    page = await feed.page(
        reader,
        limit,
        cursor,
        timer,
        order,
        explain=explain,
    )
    with timer.stage("render"):
        body = render.feed_page(page, explain)
    feed.served(page, timer.total())
    return render.json_response(body, {"Server-Timing": timer.header()})


@router.get("/me/settings", response_model=FeedPreferencesOut)
async def get_settings(
    orders: FeedOrdersDep, switches: NotificationSettingsDep, user_id: CurrentUser
) -> FeedPreferencesOut:
    """Your feed order preference, what GET /v1/feed serves by default, and which
    notification types are on."""
    return await _settings(orders, switches, user_id)


@router.put("/me/settings", response_model=FeedPreferencesOut)
async def put_settings(
    body: FeedPreferences,
    orders: FeedOrdersDep,
    switches: NotificationSettingsDep,
    user_id: CurrentUser,
) -> FeedPreferencesOut:
    """Choose the default feed order (null: the service default) and turn notification
    types on or off; a field left out is unchanged."""
    if "feed_order" in body.model_fields_set:
        await orders.change(user_id, body.feed_order)
    if body.notifications:
        await switches.switch(user_id, body.notifications)
    return await _settings(orders, switches, user_id)


async def _settings(
    orders: FeedOrders, switches: NotificationSettings, user_id: int
) -> FeedPreferencesOut:
    chosen, effective = await orders.preferences(user_id)
    return FeedPreferencesOut(
        feed_order=chosen,
        effective_feed_order=effective,
        notifications=await switches.switches(user_id),
    )
