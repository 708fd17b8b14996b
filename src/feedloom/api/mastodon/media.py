"""Media: POST /api/v2/media (and /api/v1/media), a multipart upload through the API as
Mastodon clients send it; PUT /api/v1/media/{id} (description = alt text). The bytes go
through the /v1 pipeline's checks (write/media.py: size, type, re-encoding without
metadata); 200 with the attachment, ready to post."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse
from starlette.datastructures import UploadFile

from feedloom.api.deps import MediaDep
from feedloom.api.mastodon import entities
from feedloom.api.mastodon.auth import WriteMedia
from feedloom.api.mastodon.forms import Pairs, one, params_of
from feedloom.api.mastodon.oauth_routes import base_url
from feedloom.domain.errors import InvalidInput, NotFound
from feedloom.domain.ids import parse_id

router = APIRouter()
# What multipart framing adds to the image itself (api/app.py lets this much through).
MULTIPART_SLACK = 64 * 1024
# The requests whose multipart body may hold an image: uploads, and an avatar sent with
# update_credentials (api/mastodon/accounts.py).
FORM_UPLOADS = frozenset(
    {
        ("POST", "/api/v1/media"),
        ("POST", "/api/v2/media"),
        ("PATCH", "/api/v1/accounts/update_credentials"),
    }
)


async def _upload(request: Request, media: MediaDep, user: WriteMedia) -> JSONResponse:
    async with request.form() as form:  # closed after: the file may be spooled to disk
        file = form.get("file")
        if not isinstance(file, UploadFile):
            raise InvalidInput("file: send the image as a multipart/form-data part named file")
        description = form.get("description")
        alt = description if isinstance(description, str) else ""
        content = await file.read()
    uploaded = await media.upload(user, content, alt)
    return JSONResponse(entities.attachment(uploaded, base_url(request)))


router.add_api_route("/v2/media", _upload, methods=["POST"])
router.add_api_route("/v1/media", _upload, methods=["POST"])


async def _media_id(media_id: str) -> int:
    try:
        return parse_id(media_id)
    except ValueError as error:
        raise NotFound("Record not found") from error


MediaId = Annotated[int, Depends(_media_id)]


@router.get("/v1/media/{media_id}")
async def get_media(
    request: Request, media_id: MediaId, media: MediaDep, user: WriteMedia
) -> JSONResponse:
    """Clients poll this until the attachment is processed: ours is at once."""
    found = await media.owned(user, media_id)
    return JSONResponse(entities.attachment(found, base_url(request)))


@router.put("/v1/media/{media_id}")
async def describe(
    request: Request,
    media_id: MediaId,
    params: Annotated[Pairs, Depends(params_of)],
    media: MediaDep,
    user: WriteMedia,
) -> JSONResponse:
    described = await media.describe(user, media_id, one(params, "description") or "")
    return JSONResponse(entities.attachment(described, base_url(request)))
