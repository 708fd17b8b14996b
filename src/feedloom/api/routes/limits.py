"""GET /v1/limits: this deployment's limits on what a client may send, from Settings, so
a client reads a few numbers instead of the whole OpenAPI document. Public and storeless:
the sign-up page may read it, and it answers while the database is away."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict

from feedloom.api.deps import feedloom_of
from feedloom.api.schemas import BIO_MAX_CHARS
from feedloom.write.media import CONTENT_TYPES

router = APIRouter(prefix="/v1", tags=["operations"])


class Limits(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "post_max_chars": 500,
                    "comment_max_chars": 1000,
                    "bio_max_chars": 300,
                    "media_per_post": 4,
                    "media_max_bytes": 10485760,
                    "media_types": ["image/jpeg", "image/png", "image/webp", "image/gif"],
                }
            ]
        }
    )

    post_max_chars: int
    comment_max_chars: int
    bio_max_chars: int
    media_per_post: int
    media_max_bytes: int
    media_types: list[str]


@router.get("/limits", response_model=Limits)
async def limits(request: Request) -> Limits:
    """Longest post, comment and bio (characters), images per post, largest image upload
    (bytes) and the image types accepted."""
    settings = feedloom_of(request).settings
    return Limits(
        post_max_chars=settings.post_max_chars,
        comment_max_chars=settings.comment_max_chars,
        bio_max_chars=BIO_MAX_CHARS,
        media_per_post=settings.media_per_post,
        media_max_bytes=settings.media_max_bytes,
        media_types=sorted(CONTENT_TYPES),
    )
