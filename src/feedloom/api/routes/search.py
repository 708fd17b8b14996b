"""GET /v1/search: parses, calls the search of posts or of people, renders."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response
from pydantic import BaseModel, Field

from feedloom.api import render
from feedloom.api.deps import (
    AnySearchCursor,
    CurrentUser,
    PeopleDep,
    SearchPostsDep,
    SearchQuery,
    SearchTagsDep,
)
from feedloom.api.render import json_response
from feedloom.api.routes.people import PersonOut, render_person
from feedloom.api.schemas import ITEM_EXAMPLE, Item
from feedloom.domain.search import SearchOrder, SearchType

router = APIRouter(prefix="/v1", tags=["search"])
MAX_LIMIT = 40


class PostResults(BaseModel):
    type: Literal["posts"]
    items: list[Item] = Field(description="as on a post page")
    next_cursor: str | None


class PeopleResults(BaseModel):
    type: Literal["people"]
    items: list[PersonOut]
    next_cursor: str | None


class TagHit(BaseModel):
    name: str = Field(description="the tag, normalised (NFKC, case folded), without `#`")
    posts_count: int = Field(description="live public posts with the tag")


class TagResults(BaseModel):
    type: Literal["tags"]
    items: list[TagHit]
    next_cursor: str | None


SearchResults = Annotated[PostResults | PeopleResults | TagResults, Field(discriminator="type")]


EXAMPLE = {"type": "posts", "items": [ITEM_EXAMPLE], "next_cursor": "n7291544012345678"}


@router.get(
    "/search",
    response_model=SearchResults,
    responses={200: {"content": {"application/json": {"example": EXAMPLE}}}},
)
async def search(
    posts: SearchPostsDep,
    people: PeopleDep,
    tags_found: SearchTagsDep,
    viewer: CurrentUser,
    q: SearchQuery,
    type: Annotated[SearchType, Query(description="what to find")] = SearchType.POSTS,
    order: Annotated[
        SearchOrder, Query(description="posts: newest first, or most relevant first")
    ] = SearchOrder.NEWEST,
    cursor: AnySearchCursor = None,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = 20,
) -> Response:
    """Posts holding every word, among those you may see (public ones, followers-only
    ones of accounts you follow, your own), less those of accounts you block, that
    block you or that you mute; or people with a word of their username or display
    name starting with each word, the exact username first; or tags starting with the
    first word (`#` or not), most used first. A cursor of another type or order is
    400."""
    if type is SearchType.TAGS:
        tags = await tags_found(q, limit, cursor)
        found_tags = TagResults(
            type="tags",
            items=[TagHit(name=tag.name, posts_count=tag.posts_count) for tag in tags.items],
            next_cursor=tags.next_cursor,
        )
        return json_response(found_tags.model_dump_json().encode())
    if type is SearchType.PEOPLE:
        found = await people.search(viewer, q, limit, cursor)
        body = PeopleResults(
            type="people",
            items=[render_person(person) for person in found.people],
            next_cursor=found.next_cursor,
        )
        return json_response(body.model_dump_json().encode())
    page = await posts(viewer, q, order, limit, cursor)
    return json_response(render.search_page("posts", render.items(page.items), page.next_cursor))
