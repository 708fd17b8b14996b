"""GET /v1/trending: the most engaged visible public posts of a window."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from feedloom.api.deps import CurrentUser, TrendingDep
from feedloom.api.schemas import TrendingItem, TrendingPage

router = APIRouter(prefix="/v1", tags=["feed"])
Window = Literal["1h", "24h"]  # domain/trending.py WINDOWS


@router.get("/trending", response_model=TrendingPage)
async def trending(
    posts: TrendingDep,
    viewer: CurrentUser,
    window: Annotated[Window, Query(description="engagement over the last hour or day")] = "1h",
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> TrendingPage:
    """Posts with the most likes and comments (a comment weighs 3 likes) in the window, best
    first; approximate (a sketch), public posts you may see only."""
    items = await posts.page(viewer, window, limit)
    return TrendingPage(
        window=window,
        items=[TrendingItem.scored(item) for item in items],
    )
