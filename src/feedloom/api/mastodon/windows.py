"""Mastodon's timeline paging over our cursor-paged lists (the home feed, an author's
posts): `max_id` (older than), `since_id` (the newest above), `min_id` (the oldest
above, the next page up), `limit` (default 20, at most 40), each with the same meaning
as Mastodon's, and the `Link` header of the page served.

Our lists page downwards from a keyset (`KeysetCursor(before)`), so `max_id` is that
keyset. A page above an ID is read by walking down from the top (or from `max_id`) until
the walk reaches it; the walk is bounded by the home timeline's cache length, as
Mastodon's own home feed is by its cached length.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Protocol, TypeVar

from fastapi import Depends, Query, Request
from fastapi.responses import JSONResponse

from feedloom.api.mastodon import entities
from feedloom.api.mastodon.oauth_routes import base_url
from feedloom.api.mastodon.paging import DEFAULT_LIMIT, MAX_LIMIT, entry_id, paged
from feedloom.domain.cursors import KeysetCursor, encode_cursor
from feedloom.domain.model import FeedItem
from feedloom.read.feed_page import FeedPage

WALK_PAGE = 40
WALK_PAGES = 13  # 520 entries: more than a home timeline keeps (FEEDLOOM_TIMELINE_LENGTH)
Fetch = Callable[[str | None, int], Awaitable[FeedPage]]
T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Page(Protocol[T_co]):
    """A page of a keyset-paged list, newest first (a FeedPage, a notifications page)."""

    @property
    def items(self) -> Sequence[T_co]: ...
    @property
    def next_cursor(self) -> str | None: ...


@dataclass(frozen=True, slots=True)
class Paging:
    limit: int
    max_id: int | None
    since_id: int | None
    min_id: int | None

    async def items(self, fetch: Fetch) -> list[FeedItem]:
        return await self.walk(fetch, lambda item: item.entry_id)

    async def walk(
        self, fetch: Callable[[str | None, int], Awaitable[Page[T]]], key: Callable[[T], int]
    ) -> list[T]:
        """The window's entries of any keyset-paged list; `key` is an entry's ID."""
        cursor = encode_cursor(KeysetCursor(self.max_id)) if self.max_id is not None else None
        lower = self.min_id if self.min_id is not None else self.since_id
        if lower is None:
            return list((await fetch(cursor, self.limit)).items)
        above: list[T] = []
        for _ in range(WALK_PAGES):
            page = await fetch(cursor, WALK_PAGE)
            kept = [item for item in page.items if key(item) > lower]
            above += kept
            if len(kept) < len(page.items) or page.next_cursor is None:
                break
            if self.min_id is None and len(above) >= self.limit:
                break  # since_id: the newest `limit` above are found
            cursor = page.next_cursor
        # min_id: the `limit` just above it (the oldest), still served newest first.
        return above[-self.limit :] if self.min_id is not None else above[: self.limit]

    def render(self, request: Request, items: list[FeedItem]) -> JSONResponse:
        base = base_url(request)
        body = [entities.status(item, base) for item in items]
        if not items:
            return JSONResponse(body)
        return paged(request, body, str(items[-1].entry_id), str(items[0].entry_id))


def paging(
    default: int = DEFAULT_LIMIT, maximum: int = MAX_LIMIT
) -> Callable[..., Awaitable[Paging]]:
    """The dependency reading a window; a `limit` above `maximum` is capped."""

    async def window(
        limit: Annotated[int, Query(ge=1)] = default,
        max_id: str | None = None,
        since_id: str | None = None,
        min_id: str | None = None,
    ) -> Paging:
        return Paging(
            min(limit, maximum),
            entry_id(max_id, "max_id"),
            entry_id(since_id, "since_id"),
            entry_id(min_id, "min_id"),
        )

    return window


Window = Annotated[Paging, Depends(paging())]
