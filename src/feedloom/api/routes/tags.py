"""Hashtags: a tag, its posts, following it, the tags you follow, trending tags.
Parses, calls one use case, renders."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Response

from feedloom.api import render
from feedloom.api.deps import (
    CurrentUser,
    Cursor,
    FollowTagsDep,
    TagPagesDep,
    TrendingTagsDep,
)
from feedloom.api.schemas import (
    Page,
    Relation,
    TagList,
    TagOut,
    TrendingTagOut,
    TrendingTagsPage,
)
from feedloom.domain.patterns import TAG_PATH_PATTERN
from feedloom.read.tags import TagView

router = APIRouter(prefix="/v1", tags=["tags"])
Tag = Annotated[
    str,
    Path(
        description="the tag's name without `#`, in any case or Unicode form "
        "(`Café` is `café`); 404 for what can be no tag",
        json_schema_extra={"pattern": TAG_PATH_PATTERN},
    ),
]
Window = Literal["1h", "24h"]  # domain/trending.py WINDOWS


@router.get("/tags/{tag}", response_model=TagOut)
async def get_tag(tag: Tag, tags: TagPagesDep, viewer: CurrentUser) -> TagOut:
    """A tag: its normal name, its live public posts, whether you follow it (a tag never
    used is there too, with no posts)."""
    return _tag(await tags.tag(viewer, tag))


@router.get("/tags/{tag}/posts", response_model=Page)
async def get_tag_posts(
    tag: Tag,
    tags: TagPagesDep,
    viewer: CurrentUser,
    cursor: Cursor = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> Response:
    """Public posts with the tag, newest first, cursor-paged, as the feed filters them for
    you (blocked either way, muted, suspended or held left out)."""
    return render.json_response(render.feed_page(await tags.page(viewer, tag, limit, cursor)))


@router.put("/tags/{tag}/follow", response_model=Relation, summary="follow a tag (idempotent)")
async def put_tag_follow(tag: Tag, follows: FollowTagsDep, user: CurrentUser) -> Relation:
    """Follow the tag: its public posts join your home feed (`reason: {"tag": …}` on their
    items); `changed` is false if you already did. At most 100 tags (409 past that)."""
    return Relation(changed=await follows.follow(user, tag))


@router.delete("/tags/{tag}/follow", response_model=Relation, summary="unfollow a tag")
async def delete_tag_follow(tag: Tag, follows: FollowTagsDep, user: CurrentUser) -> Relation:
    """Unfollow the tag: its posts leave your home feed on the next read; `changed` is false
    if you did not follow it."""
    return Relation(changed=await follows.unfollow(user, tag))


@router.get("/me/tags", response_model=TagList)
async def get_my_tags(tags: TagPagesDep, user: CurrentUser) -> TagList:
    """The tags you follow, most recently followed first."""
    return TagList(items=[_tag(view) for view in await tags.followed(user)])


@router.get("/trending/tags", response_model=TrendingTagsPage)
async def get_trending_tags(
    trending: TrendingTagsDep,
    viewer: CurrentUser,
    window: Annotated[Window, Query(description="the last hour or day")] = "1h",
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> TrendingTagsPage:
    """Tags by the distinct authors using them in the window, best first; approximate (the
    sketches of trending posts)."""
    found = await trending.page(window, limit)
    items = [
        TrendingTagOut(name=t.name, authors=t.authors, posts_count=t.posts_count) for t in found
    ]
    return TrendingTagsPage(window=window, items=items)


def _tag(view: TagView) -> TagOut:
    return TagOut(name=view.name, posts_count=view.posts_count, followed_by_me=view.followed_by_me)
