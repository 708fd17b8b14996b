"""POST /v1/media (a presigned upload URL: to the bucket, or to the file store's PUT
here), and GET /media/{file}: the file store's bytes, or a redirect to a signed GET of
a private bucket (write/media.py)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request, Response
from fastapi.responses import RedirectResponse
from pydantic import BaseModel, ConfigDict, Field

from feedloom.api.deps import CurrentUser, MediaDep
from feedloom.api.schemas import Integer, Strict
from feedloom.domain.errors import NotFound
from feedloom.domain.ids import ID_PATTERN, parse_id
from feedloom.write.media import CONTENT_TYPES, MAX_SIDE, SignedLink

router = APIRouter(tags=["media"])


class NewMedia(Strict):
    content_type: str = Field(
        max_length=64, examples=["image/jpeg"], json_schema_extra={"enum": list(CONTENT_TYPES)}
    )
    width: Integer = Field(
        ge=1, le=MAX_SIDE, description="as the client believes; the upload's real size wins"
    )
    height: Integer = Field(ge=1, le=MAX_SIDE)
    alt: str = Field("", max_length=1000, description="text shown instead of the image")


class MediaTicket(BaseModel):
    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "media_id": "72915440123",
                    "upload_url": "/v1/media/72915440123/content?expires=1796131200&signature=9f",
                    "upload_headers": {"Content-Type": "image/jpeg"},
                    "expires_at": "2026-12-01T12:15:00+00:00",
                    "url": "/media/72915440123-yH3rJx0qfE2aVb7LwNc8sQ.jpg",
                }
            ]
        }
    )

    media_id: str
    upload_url: str = Field(
        description="PUT the bytes here. A path of this API: send your bearer token too. "
        "Another origin (an S3 bucket, presigned): send no token, only `upload_headers`"
    )
    upload_headers: dict[str, str] = Field(description="headers the PUT must carry")
    expires_at: str
    url: str = Field(description="where the image is served: unguessable, keep it private")


@router.post("/v1/media", status_code=201, response_model=MediaTicket)
async def create_media(body: NewMedia, media: MediaDep, owner: CurrentUser) -> MediaTicket:
    """A short-lived signed upload URL: PUT the image there, then attach `media_id`."""
    ticket = await media.request_upload(owner, body.content_type, body.width, body.height, body.alt)
    return MediaTicket(
        media_id=str(ticket.media.id),
        upload_url=ticket.upload_url,
        upload_headers=ticket.upload_headers,
        expires_at=ticket.expires_at.isoformat(),
        url=ticket.media.url,
    )


@router.put("/v1/media/{media_id}/content", status_code=204)
async def upload_media(
    media_id: Annotated[str, Path(json_schema_extra={"pattern": ID_PATTERN})],
    request: Request,
    media: MediaDep,
    uploader: CurrentUser,
    expires: Annotated[int, Query()],
    signature: Annotated[str, Query(max_length=128)],
) -> Response:
    """The upload URL of POST /v1/media: PUT the image there with the same bearer token
    that asked for the URL (the signature names that account). Works once, and never
    once the medium is attached to a post or an avatar."""
    try:
        parsed = parse_id(media_id)
    except ValueError as error:
        raise NotFound("no such media") from error
    await media.store_upload(uploader, parsed, expires, signature, await request.body())
    return Response(status_code=204)


@router.get("/media/{file_name}", include_in_schema=False)
async def serve_media(file_name: str, media: MediaDep) -> Response:
    served = await media.served(file_name)
    if served is None:
        raise NotFound("no such media file")
    if isinstance(served, SignedLink):
        # Kept by browsers and a CDN no longer than the link stays valid. Nothing in it
        # is personal: the name is the capability, the signature is the bucket's.
        cache = f"public, max-age={served.max_age_s}"
        return RedirectResponse(served.url, 307, headers={"Cache-Control": cache})
    # Immutable for real: an upload URL works once, so these bytes never change. The
    # type is the verified one (the format is checked at upload) and never sniffed.
    headers = {
        "Cache-Control": "public, max-age=31536000, immutable",
        "X-Content-Type-Options": "nosniff",
    }
    return Response(served.content, media_type=served.media_type, headers=headers)
