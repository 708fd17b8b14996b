"""Who to follow: GET /v1/users/suggestions and DELETE /v1/users/suggestions/{id}.
Parses, calls Suggestions or DismissSuggestion, renders. Matched before /v1/users/{id}."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from feedloom.api.deps import CurrentUser, DismissSuggestionDep, SuggestionsDep, UserId
from feedloom.api.routes.people import PERSON_EXAMPLE, PersonOut, render_person
from feedloom.api.schemas import JsonDict, Relation, example
from feedloom.read.suggestions import Suggestion

router = APIRouter(prefix="/v1/users/suggestions", tags=["people"])
_SUGGESTION: JsonDict = {
    **PERSON_EXAMPLE,
    "followed_by_me": False,
    "reason": "followed_by",
    "followed_by": 3,
}


class SuggestionOut(PersonOut):
    model_config = example(_SUGGESTION)

    reason: str = Field(
        description="`followed_by`: people you follow follow this account; `popular`: "
        "among the most followed accounts active lately"
    )
    followed_by: int = Field(description="how many of the people you follow follow it")


class SuggestionsOut(BaseModel):
    model_config = example({"items": [_SUGGESTION]})

    items: list[SuggestionOut]


def render_suggestion(suggestion: Suggestion) -> SuggestionOut:
    return SuggestionOut(
        **render_person(suggestion.person).model_dump(),
        reason="followed_by" if suggestion.followed_by else "popular",
        followed_by=suggestion.followed_by,
    )


@router.get("", response_model=SuggestionsOut)
async def list_suggestions(
    suggestions: SuggestionsDep,
    viewer: CurrentUser,
    limit: Annotated[int, Query(ge=1, le=50)] = 10,
) -> SuggestionsOut:
    """Accounts you may want to follow: first those the people you follow follow (most
    of them first), then popular accounts active lately. Never you, anyone you follow,
    block, are blocked by or mute, a suggestion you dismissed, or a suspended account."""
    found = await suggestions.suggest(viewer, limit)
    return SuggestionsOut(items=[render_suggestion(s) for s in found])


@router.delete("/{user_id}", response_model=Relation)
async def dismiss_suggestion(
    user_id: UserId, dismiss: DismissSuggestionDep, viewer: CurrentUser
) -> Relation:
    """Never suggest this account to you again (idempotent: `changed` is false if it was
    dismissed already; 404 for no such account)."""
    return Relation(changed=await dismiss(viewer, user_id))
