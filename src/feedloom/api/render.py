"""Pages rendered straight to JSON bytes on the hot read paths.

Building a pydantic model per item and validating it again as the response model cost
more than the rest of a warm feed read. These functions write the same JSON the models
in schemas.py describe (the OpenAPI schema still comes from them, and
tests/unit/api/test_render.py holds both renderings equal), from the domain objects,
with orjson.
"""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import Response

from feedloom.domain.model import FeedItem, Media, Post, UserProfile, tag_reason
from feedloom.read.context import ContextPage
from feedloom.read.feed_page import FeedPage

JSON = "application/json"


def feed_page(page: FeedPage, explain: bool = False) -> bytes:
    """schemas.FeedPageOut (GET /v1/feed), explain fields only when asked for; without
    them, also schemas.Page (an author's posts)."""
    body: dict[str, Any] = {
        "items": [_item(item, explain) for item in page.items],
        "next_cursor": page.next_cursor,
        "order": None if page.generated else page.order.value,
    }
    if page.fallback is not None:  # served in another order than asked: always said
        body["fallback"] = page.fallback
    if explain:
        body["filtered"] = dict(page.filtered)
    return orjson.dumps(body, option=orjson.OPT_UTC_Z)


def context_page(page: ContextPage) -> bytes:
    """schemas.ContextOut (GET /v1/posts/{id}/context)."""
    body = {
        "ancestors": [_item(item, False) for item in page.ancestors],
        "descendants": [_item(item, False) for item in page.descendants],
        "next_cursor": page.next_cursor,
    }
    return orjson.dumps(body, option=orjson.OPT_UTC_Z)


def items(found: list[FeedItem]) -> list[dict[str, Any]]:
    """schemas.Item of each item, for pages of other shapes (a search's)."""
    return [_item(item, False) for item in found]


def search_page(kind: str, found: list[dict[str, Any]], next_cursor: str | None) -> bytes:
    """routes/search.py's results of one kind."""
    body = {"type": kind, "items": found, "next_cursor": next_cursor}
    return orjson.dumps(body, option=orjson.OPT_UTC_Z)


def json_response(body: bytes, headers: dict[str, str] | None = None) -> Response:
    return Response(content=body, media_type=JSON, headers=headers)


def _item(item: FeedItem, explain: bool) -> dict[str, Any]:
    post, reposter = item.post, item.reposted_by
    rendered: dict[str, Any] = {
        "post_id": str(post.id),
        "author": _author(item.author),
        "text": post.text,
        "media": [_media(media) for media in post.shown_media],
        "visibility": post.visibility.value,
        "created_at": post.created_at,  # orjson writes it as pydantic does (OPT_UTC_Z)
        "likes": item.counts.likes,
        "comments": item.counts.comments,
        "replies": item.counts.comments,
        "liked_by_me": item.liked_by_me,
        "views": item.views,
        "in_reply_to": _in_reply_to(item),
        "reposts": post.reposts,
        "quotes": post.quotes,
        "reposted_by_me": item.reposted_by_me,
        "reposted_by": {"id": str(reposter.id), "name": reposter.display_name}
        if reposter is not None
        else None,
        "repost_id": str(item.repost_id) if item.repost_id is not None else None,
        "quote": _quote(item),
        "facets": _facets(post),
        "mentions": _mentions(post),
        "reason": _reason(item),
        "edited_at": post.edited_at,
    }
    if explain:
        rendered["explain"] = _explain(item)
    return rendered


def _reason(item: FeedItem) -> dict[str, Any] | None:
    """schemas.TagReason, LikedByReason or TrendingReason: why an item from an account
    the reader does not follow is in their feed."""
    if (tag := tag_reason(item.source)) is not None:
        return {"tag": tag}
    if item.reason == "liked_by":
        return {"liked_by": [_author(person) for person in item.liked_by]}
    if item.reason == "trending":
        return {"trending": True}
    return None


def _author(author: UserProfile) -> dict[str, Any]:
    return {
        "id": str(author.id),
        "name": author.display_name,
        "username": author.username,
        "avatar": author.avatar,
    }


def _quote(item: FeedItem) -> dict[str, Any] | None:
    if item.post.quote_of is None:
        return None
    quoted, author = item.quote, item.quote_author
    if quoted is None or author is None:
        return {"unavailable": True}
    return {
        "post_id": str(quoted.id),
        "author": _author(author),
        "text": quoted.text,
        "media": [_media(media) for media in quoted.media],
        "visibility": quoted.visibility.value,
        "created_at": quoted.created_at,
        "facets": _facets(quoted),
        "mentions": _mentions(quoted),
    }


def _facets(post: Post) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for f in post.facets:
        facet: dict[str, Any] = {"type": f.kind, "start": f.start, "end": f.end}
        if f.kind == "mention":
            facet.update(id=str(f.user_id), username=f.value)
        else:
            facet["tag" if f.kind == "tag" else "url"] = f.value
        out.append(facet)
    return out


def _mentions(post: Post) -> list[dict[str, str]]:
    return [{"id": str(user_id), "username": name} for user_id, name in post.mentions]


def _in_reply_to(item: FeedItem) -> dict[str, Any] | None:
    post, author = item.post, item.replied_to
    if post.in_reply_to is None:
        return None
    return {
        "post_id": str(post.in_reply_to),
        "author": {
            "id": str(post.reply_to_author or ""),
            "name": author.display_name if author is not None else "",
        },
    }


def _media(media: Media) -> dict[str, Any]:
    return {
        "url": media.url,
        "w": media.width,
        "h": media.height,
        "alt": media.alt,
        "sizes": [{"url": size.url, "w": size.width, "h": size.height} for size in media.sizes],
    }


def _explain(item: FeedItem) -> dict[str, Any]:
    parts = None
    if item.score is not None:
        parts = {name: item.extra[name] for name in SCORE_FLOATS}
        parts.update({name: int(item.extra[name]) for name in SCORE_INTS})
    return {"source": item.source, "score": item.score, "components": parts}


SCORE_FLOATS = ("affinity_term", "engagement_term", "decay", "age_hours", "affinity")
SCORE_INTS = ("likes", "comments")
