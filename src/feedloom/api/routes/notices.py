"""New-post notices: GET /v1/feed/new (poll). Parses, calls NewPosts, renders."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from feedloom.api.deps import CurrentUser, NewPostsDep
from feedloom.api.schemas import example
from feedloom.domain.errors import InvalidInput
from feedloom.domain.ids import ID, parse_id
from feedloom.domain.patterns import whole

router = APIRouter(prefix="/v1/feed", tags=["feed"])


class NewPostsOut(BaseModel):
    model_config = example({"count": 3, "newest_id": "7291544012345678"})

    count: int = Field(description="posts above `since` on your top page (at most 50)")
    newest_id: str | None = Field(description="the newest of them; null when count is 0")


@router.get("/new", response_model=NewPostsOut)
async def new_posts(
    posts: NewPostsDep,
    reader: CurrentUser,
    since: Annotated[
        str,
        Query(
            max_length=20,
            description="the newest post ID the client shows; 0: none yet",
            json_schema_extra={"pattern": whole(f"0|{ID}")},
        ),
    ],
) -> NewPostsOut:
    """How many posts newer than `since` the top of your chronological feed would show,
    after the same filters as GET /v1/feed: poll it for an "N new posts" button, then
    load the top page. Served from the caches."""
    try:
        since_id = 0 if since == "0" else parse_id(since)  # 0: count from the beginning
    except ValueError as error:
        raise InvalidInput(f"since: {error}") from error
    found = await posts.since(reader, since_id)
    newest = str(found.newest_id) if found.newest_id is not None else None
    return NewPostsOut(count=found.count, newest_id=newest)
