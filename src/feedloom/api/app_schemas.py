"""Request and response bodies of the app endpoints (/v1/apps/…)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field
from pydantic.config import JsonDict

from feedloom.api.schemas import Strict, example
from feedloom.domain.apps import EXTERNAL_ID_PATTERN, MAX_EXTERNAL_ID

_EXT: JsonDict = {"pattern": EXTERNAL_ID_PATTERN}


class AppUserIn(Strict):
    model_config = example({"username": "ada", "display_name": "Ada L."})

    username: str = Field(max_length=32, description="3-32 letters, digits or underscores")
    display_name: str = Field("", max_length=64, description="default: the username")
    avatar_url: str | None = Field(None, max_length=500, description="an http(s) image URL")


class AppUserRowIn(AppUserIn):
    external_id: str = Field(max_length=MAX_EXTERNAL_ID, json_schema_extra=_EXT)


class FollowRowIn(Strict):
    follower: str = Field(max_length=MAX_EXTERNAL_ID, description="external ID")
    followee: str = Field(max_length=MAX_EXTERNAL_ID, description="external ID")
    op: Literal["follow", "unfollow"] = "follow"


class AppUserOut(BaseModel):
    model_config = example({"external_id": "u-42", "user_id": "1234", "result": "created"})

    external_id: str
    user_id: str
    result: Literal["created", "updated", "unchanged"]


class RowError(BaseModel):
    type: str
    title: str
    status: int
    detail: str


class RowOut(BaseModel):
    index: int = Field(description="the row's place in the request, from 0")
    external_id: str | None = Field(None, description="the row's (follower's) external ID")
    user_id: str | None = None
    result: str | None = Field(
        None, description="created, updated, unchanged; followed, unfollowed, unchanged"
    )
    error: RowError | None = Field(None, description="the row was not written: why")


class BatchOut(BaseModel):
    model_config = example(
        {
            "rows": 2,
            "failed": 1,
            "results": [
                {"index": 0, "external_id": "u-1", "user_id": "1234", "result": "created"},
                {
                    "index": 1,
                    "external_id": "u-2",
                    "error": {
                        "type": "https://feedloom.dev/problems/conflict",
                        "title": "Conflict",
                        "status": 409,
                        "detail": "username is taken",
                    },
                },
            ],
        }
    )

    rows: int
    failed: int = Field(description="rows not written (each with its error)")
    results: list[RowOut] = Field(description="one per row, in the request's order")


class WebhookIn(Strict):
    model_config = example(
        {"url": "https://app.example/hooks/feedloom", "events": ["post.created"]}
    )

    url: str = Field(max_length=2048, description="http(s); private and loopback addresses refused")
    events: list[str] = Field(min_length=1, max_length=32, description="event types")


class WebhookOut(BaseModel):
    model_config = example(
        {
            "id": "1234",
            "url": "https://app.example/hooks/feedloom",
            "events": ["post.created"],
            "created_at": "2026-12-07T12:00:00Z",
        }
    )

    id: str
    url: str
    events: list[str]
    created_at: datetime


class WebhookCreated(WebhookOut):
    model_config = example(
        {
            "id": "1234",
            "url": "https://app.example/hooks/in",
            "events": ["post.created"],
            "created_at": "2026-12-07T12:00:00Z",
            "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        }
    )

    secret: str = Field(description="whsec_…: verifies each delivery's signature (shown once)")


class WebhookList(BaseModel):
    model_config = example(
        {
            "items": [
                {
                    "id": "1234",
                    "url": "https://app.example/hooks/in",
                    "events": ["post.created"],
                    "created_at": "2026-12-07T12:00:00Z",
                }
            ]
        }
    )

    items: list[WebhookOut]
