"""Finding people: lookup by username, prefix search, followers and following.
Parses, calls the People use case, renders."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from feedloom.api.deps import (
    CurrentUser,
    FollowCursor,
    PeopleDep,
    SearchCursor,
    SearchQuery,
    UserId,
)
from feedloom.api.routes.users import RELATION_EXAMPLE, RelationOut, render_profile, render_relation
from feedloom.api.schemas import PROFILE_EXAMPLE, JsonDict, Profile, example
from feedloom.read.people import PeoplePage, Person, ProfileView

router = APIRouter(prefix="/v1/users", tags=["people"])
Limit = Annotated[int, Query(ge=1, le=100)]
PERSON_EXAMPLE: JsonDict = {**PROFILE_EXAMPLE, "followed_by_me": True, "follows_me": False}


class PersonOut(Profile):
    model_config = example(PERSON_EXAMPLE)

    followed_by_me: bool = Field(description="you follow this account")
    follows_me: bool = Field(description="this account follows you")


class FoundPersonOut(PersonOut):
    model_config = example({**PERSON_EXAMPLE, "relation": RELATION_EXAMPLE})

    relation: RelationOut


class PeoplePageOut(BaseModel):
    model_config = example({"items": [PERSON_EXAMPLE], "next_cursor": None})

    items: list[PersonOut]
    next_cursor: str | None


def render_person(person: Person) -> PersonOut:
    return PersonOut(
        **render_profile(person.profile).model_dump(),
        followed_by_me=person.followed_by_me,
        follows_me=person.follows_me,
    )


def render_page(page: PeoplePage) -> PeoplePageOut:
    return PeoplePageOut(
        items=[render_person(p) for p in page.people], next_cursor=page.next_cursor
    )


@router.get("/lookup", response_model=FoundPersonOut)
async def lookup_user(
    people: PeopleDep,
    viewer: CurrentUser,
    username: Annotated[str, Query(min_length=1, max_length=32, description="case ignored")],
) -> FoundPersonOut:
    """The profile with this username, whatever its case, with your relations to it, as
    `GET /v1/users/{id}` (404 if none, or it blocks you)."""
    return render_found(await people.lookup(viewer, username))


def render_found(view: ProfileView) -> FoundPersonOut:
    return FoundPersonOut(
        **render_profile(view.profile).model_dump(),
        followed_by_me=view.relation.following,
        follows_me=view.relation.followed_by,
        relation=render_relation(view.relation),
    )


@router.get("/search", response_model=PeoplePageOut)
async def search_users(
    people: PeopleDep,
    viewer: CurrentUser,
    q: SearchQuery,
    cursor: SearchCursor = None,
    limit: Limit = 20,
) -> PeoplePageOut:
    """People with a word of their username or display name starting with each word of
    `q` (case and Latin accents ignored; `Wonder` finds "Alice Wonder"): the exact
    username first, then by followers. Accounts blocked either way are left out. The
    same search as `GET /v1/search?type=people`."""
    return render_page(await people.search(viewer, q, limit, cursor))


@router.get("/{user_id}/followers", response_model=PeoplePageOut)
async def list_followers(
    user_id: UserId,
    people: PeopleDep,
    viewer: CurrentUser,
    cursor: FollowCursor = None,
    limit: Limit = 20,
) -> PeoplePageOut:
    """Who follows this user, newest follow first, cursor-paged."""
    return render_page(await people.followers(viewer, user_id, limit, cursor))


@router.get("/{user_id}/following", response_model=PeoplePageOut)
async def list_following(
    user_id: UserId,
    people: PeopleDep,
    viewer: CurrentUser,
    cursor: FollowCursor = None,
    limit: Limit = 20,
) -> PeoplePageOut:
    """Whom this user follows, newest follow first, cursor-paged."""
    return render_page(await people.following(viewer, user_id, limit, cursor))
