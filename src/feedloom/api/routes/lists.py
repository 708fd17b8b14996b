"""Lists: POST|GET /v1/lists, GET|PATCH|DELETE /v1/lists/{id}, GET /v1/lists/{id}/members,
PUT|DELETE /v1/lists/{id}/members/{user_id}, GET /v1/lists/{id}/feed.
Parses, calls Lists or Feeds, renders."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from feedloom.api import render
from feedloom.api.deps import (
    CurrentUser,
    FeedCursor,
    FeedsDep,
    IdempotencyKey,
    ListId,
    ListsDep,
    UserId,
)
from feedloom.api.feed_schemas import (
    ListEdit,
    ListOut,
    ListsOut,
    MembersOut,
    NewList,
    SavedFeedPageOut,
)
from feedloom.api.schemas import Relation
from feedloom.read.timing import StageTimer
from feedloom.write.lists import ListChanges

router = APIRouter(prefix="/v1/lists", tags=["lists"])
Limit = Annotated[int | None, Query(ge=1, le=100)]


@router.post("", status_code=201, response_model=ListOut)
async def create_list(
    body: NewList,
    lists: ListsDep,
    owner: CurrentUser,
    response: Response,
    key: IdempotencyKey = None,
) -> ListOut:
    """A new list (409 past `lists.max_per_user`); `Idempotency-Key` makes a retry safe."""
    created, new = await lists.create(owner, body.title, body.replies, body.exclusive, key)
    response.headers["Location"] = f"/v1/lists/{created.id}"
    if not new:
        response.headers["Idempotent-Replayed"] = "true"
    return ListOut.of(created)


@router.get("", response_model=ListsOut)
async def get_lists(lists: ListsDep, owner: CurrentUser) -> ListsOut:
    """Your lists, oldest first."""
    return ListsOut(items=[ListOut.of(found) for found in await lists.of(owner)])


@router.get("/{list_id}", response_model=ListOut)
async def get_list(list_id: ListId, lists: ListsDep, owner: CurrentUser) -> ListOut:
    """One of your lists (anyone else's is 404)."""
    return ListOut.of(await lists.get(owner, list_id))


@router.patch("/{list_id}", response_model=ListOut)
async def edit_list(
    list_id: ListId, body: ListEdit, lists: ListsDep, owner: CurrentUser
) -> ListOut:
    """Change the title, the replies policy or whether the list is exclusive."""
    changes = ListChanges(body.title, body.replies, body.exclusive)
    return ListOut.of(await lists.change(owner, list_id, changes))


@router.delete("/{list_id}", status_code=204)
async def delete_list(list_id: ListId, lists: ListsDep, owner: CurrentUser) -> Response:
    """Delete the list (its members stay followed; an exclusive list's come back home)."""
    await lists.delete(owner, list_id)
    return Response(status_code=204)


@router.get("/{list_id}/members", response_model=MembersOut)
async def get_members(list_id: ListId, lists: ListsDep, owner: CurrentUser) -> MembersOut:
    """The list's members, newest first."""
    return MembersOut(user_ids=[str(member) for member in await lists.members(owner, list_id)])


@router.put("/{list_id}/members/{user_id}", response_model=Relation)
async def add_member(
    list_id: ListId, user_id: UserId, lists: ListsDep, owner: CurrentUser
) -> Relation:
    """Add an account you follow (422 otherwise; 409 past `lists.max_members`); idempotent."""
    return Relation(changed=await lists.add(owner, list_id, user_id))


@router.delete("/{list_id}/members/{user_id}", response_model=Relation)
async def remove_member(
    list_id: ListId, user_id: UserId, lists: ListsDep, owner: CurrentUser
) -> Relation:
    """Remove a member; idempotent. Counts on the list feed's next read."""
    return Relation(changed=await lists.remove(owner, list_id, user_id))


@router.get("/{list_id}/feed", response_model=SavedFeedPageOut)
async def list_feed(
    list_id: ListId,
    feeds: FeedsDep,
    reader: CurrentUser,
    cursor: FeedCursor = None,
    limit: Limit = None,
) -> Response:
    """The members' posts, newest first, keyset-paged, through the home feed's read-time
    filters and the list's replies policy."""
    timer = StageTimer()
    page = await feeds.list_page(reader, list_id, limit, cursor, timer)
    return render.json_response(render.feed_page(page), {"Server-Timing": timer.header()})
