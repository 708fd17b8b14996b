"""The viewer's own lists of people: whom they block and whom they mute, newest first,
so every such choice can be found again and undone. Parses, calls People, renders."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from feedloom.api.deps import CurrentUser, FollowCursor, PeopleDep
from feedloom.api.routes.people import PeoplePageOut, render_page

router = APIRouter(prefix="/v1/me", tags=["people"])
Limit = Annotated[int, Query(ge=1, le=100)]


@router.get("/blocks", response_model=PeoplePageOut)
async def list_blocks(
    people: PeopleDep, viewer: CurrentUser, cursor: FollowCursor = None, limit: Limit = 20
) -> PeoplePageOut:
    """Accounts you block, newest block first, cursor-paged (suspended and deleted
    accounts left out). `DELETE /v1/users/{id}/block` undoes one."""
    return render_page(await people.blocking(viewer, limit, cursor))


@router.get("/mutes", response_model=PeoplePageOut)
async def list_mutes(
    people: PeopleDep, viewer: CurrentUser, cursor: FollowCursor = None, limit: Limit = 20
) -> PeoplePageOut:
    """Accounts you mute, newest mute first, cursor-paged (suspended and deleted accounts
    left out). `DELETE /v1/users/{id}/mute` undoes one."""
    return render_page(await people.muting(viewer, limit, cursor))
