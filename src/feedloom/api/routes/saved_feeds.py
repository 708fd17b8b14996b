"""Saved feeds and muted words: POST /v1/feeds, GET|DELETE /v1/feeds/{id},
GET /v1/feeds/{id}/items, GET|PUT /v1/me/feeds, GET|PUT /v1/me/muted_words.
Parses, calls SavedFeeds, Feeds or MutedWords, renders."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from feedloom.api import render
from feedloom.api.deps import (
    CurrentUser,
    FeedId,
    FeedsDep,
    IdempotencyKey,
    MutedWordsDep,
    SavedFeedsDep,
)
from feedloom.api.feed_schemas import (
    Arrangement,
    FeedOut,
    FeedsOut,
    MutedWordsIn,
    MutedWordsOut,
    NewFeed,
    SavedFeedPageOut,
)
from feedloom.domain.cursors import FEED_CURSOR_PATTERN
from feedloom.domain.feed_definitions import FeedDefinition, FeedFilters, parse_source
from feedloom.domain.generators import GENERATOR_CURSOR_PATTERN
from feedloom.domain.ids import parse_id
from feedloom.read.timing import StageTimer

router = APIRouter(prefix="/v1", tags=["feeds"])
Limit = Annotated[int | None, Query(ge=1, le=100)]
AnyCursor = Annotated[
    str | None,
    Query(
        description="opaque, from next_cursor",
        json_schema_extra={
            "pattern": f"{FEED_CURSOR_PATTERN}|{GENERATOR_CURSOR_PATTERN}",
        },
    ),
]


@router.post("/feeds", status_code=201, response_model=FeedOut)
async def create_feed(
    body: NewFeed,
    feeds: SavedFeedsDep,
    owner: CurrentUser,
    response: Response,
    key: IdempotencyKey = None,
) -> FeedOut:
    """Save a feed definition (422 naming what is wrong with it; 409 past
    `saved_feeds.max_per_user`); `Idempotency-Key` makes a retry safe."""
    filters = body.filters
    definition = FeedDefinition(
        tuple(parse_source(source) for source in body.sources),
        FeedFilters.of(
            filters.media_only, filters.no_replies, filters.no_reposts, filters.muted_words
        ),
        body.order,
    )
    created, new = await feeds.create(owner, body.name, definition, key)
    response.headers["Location"] = f"/v1/feeds/{created.id}"
    if not new:
        response.headers["Idempotent-Replayed"] = "true"
    return FeedOut.of(created)


@router.get("/feeds/{feed_id}", response_model=FeedOut)
async def get_feed_definition(feed_id: FeedId, feeds: SavedFeedsDep, owner: CurrentUser) -> FeedOut:
    """One of your saved feeds (anyone else's is 404)."""
    return FeedOut.of(await feeds.get(owner, feed_id))


@router.delete("/feeds/{feed_id}", status_code=204)
async def delete_feed(feed_id: FeedId, feeds: SavedFeedsDep, owner: CurrentUser) -> Response:
    """Delete a saved feed."""
    await feeds.delete(owner, feed_id)
    return Response(status_code=204)


@router.get("/feeds/{feed_id}/items", response_model=SavedFeedPageOut)
async def feed_items(
    feed_id: FeedId,
    feeds: FeedsDep,
    reader: CurrentUser,
    cursor: AnyCursor = None,
    limit: Limit = None,
) -> Response:
    """A page of a saved feed, read by the home feed's pipeline (a generator feed by its
    generator: 502/504 when it fails)."""
    timer = StageTimer()
    page = await feeds.saved_page(reader, feed_id, limit, cursor, timer)
    return render.json_response(render.feed_page(page), {"Server-Timing": timer.header()})


@router.get("/me/feeds", response_model=FeedsOut)
async def my_feeds(feeds: SavedFeedsDep, owner: CurrentUser) -> FeedsOut:
    """Your saved feeds in your order, pinned ones flagged."""
    return FeedsOut(items=[FeedOut.of(feed) for feed in await feeds.of(owner)])


@router.put("/me/feeds", response_model=FeedsOut)
async def arrange_feeds(body: Arrangement, feeds: SavedFeedsDep, owner: CurrentUser) -> FeedsOut:
    """Order and pin your saved feeds: name each once (422 otherwise)."""
    order = [(parse_id(feed.id), feed.pinned) for feed in body.feeds]
    return FeedsOut(items=[FeedOut.of(feed) for feed in await feeds.arrange(owner, order)])


@router.get("/me/muted_words", response_model=MutedWordsOut)
async def get_muted_words(words: MutedWordsDep, user_id: CurrentUser) -> MutedWordsOut:
    """Words and phrases hidden in every feed and thread you read."""
    return MutedWordsOut(words=await words.of(user_id))


@router.put("/me/muted_words", response_model=MutedWordsOut)
async def put_muted_words(
    body: MutedWordsIn, words: MutedWordsDep, user_id: CurrentUser
) -> MutedWordsOut:
    """Replace your muted words (422 past `saved_feeds.max_muted_words`); counts on the
    next read of every feed and thread; a hidden post is not counted as viewed."""
    return MutedWordsOut(words=await words.set(user_id, body.words))
