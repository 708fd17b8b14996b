"""Feed generators: POST /v1/generators, GET /v1/generators/{id},
GET /v1/generators/{id}/items, POST /v1/generators/{id}/feedback (docs/FEEDS.md).
Parses, calls RegisterGenerator or GeneratorFeed, renders."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from feedloom.api import render
from feedloom.api.deps import (
    CurrentUser,
    GeneratorFeedDep,
    GeneratorId,
    IdempotencyKey,
    RegisterGeneratorDep,
)
from feedloom.api.feed_schemas import (
    Feedback,
    FeedbackOut,
    GeneratorOut,
    NewGenerator,
    SavedFeedPageOut,
)
from feedloom.domain.generators import GENERATOR_CURSOR_PATTERN
from feedloom.domain.ids import parse_id

router = APIRouter(prefix="/v1/generators", tags=["feeds"])
GeneratorCursor = Annotated[
    str | None,
    Query(
        description="opaque, from next_cursor",
        json_schema_extra={"pattern": GENERATOR_CURSOR_PATTERN},
    ),
]


@router.post("", status_code=201, response_model=GeneratorOut)
async def register_generator(
    body: NewGenerator,
    register: RegisterGeneratorDep,
    owner: CurrentUser,
    response: Response,
    key: IdempotencyKey = None,
) -> GeneratorOut:
    """Register a generator (422 for a URI feedloom may not call; 409 if registered);
    the answer carries the secret that signs its requests."""
    generator, new = await register(
        owner, body.uri, body.name, body.description, body.feedback, key
    )
    response.headers["Location"] = f"/v1/generators/{generator.id}"
    if not new:
        response.headers["Idempotent-Replayed"] = "true"
    return GeneratorOut.of(generator, owner)


@router.get("/{generator_id}", response_model=GeneratorOut)
async def get_generator(
    generator_id: GeneratorId, generators: GeneratorFeedDep, viewer: CurrentUser
) -> GeneratorOut:
    """A registered generator (its secret only to the account that registered it)."""
    return GeneratorOut.of(await generators.by_id(generator_id), viewer)


@router.get("/{generator_id}/items", response_model=SavedFeedPageOut)
async def generator_items(
    generator_id: GeneratorId,
    generators: GeneratorFeedDep,
    reader: CurrentUser,
    cursor: GeneratorCursor = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> Response:
    """The generator's feed for you: its IDs, filtered for you and hydrated. 504 when it
    does not answer in time, 502 when it fails or answers outside the contract."""
    generator = await generators.by_id(generator_id)
    page = await generators.page(reader, generator, limit, cursor)
    return render.json_response(render.feed_page(page))


@router.post("/{generator_id}/feedback", status_code=202, response_model=FeedbackOut)
async def send_feedback(
    generator_id: GeneratorId, body: Feedback, generators: GeneratorFeedDep, viewer: CurrentUser
) -> FeedbackOut:
    """Tell the generator you saw, liked or want less of a post (sent only to generators
    that asked for feedback)."""
    sent = await generators.feedback(viewer, generator_id, parse_id(body.post_id), body.kind)
    return FeedbackOut(sent=sent)
