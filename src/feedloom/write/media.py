"""Media uploads: the API hands out a short-lived signed upload URL and never carries
image bytes in a post request. The embedded default plays object storage itself
(files under data_dir/media); a deployment points `media_base_url` at a CDN in
front of its object store and signs URLs for it the same way.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from feedloom.backend import Backend
from feedloom.domain.errors import Forbidden, InvalidInput, NotFound
from feedloom.domain.model import Media

UPLOAD_TTL = timedelta(minutes=15)
CONTENT_TYPES = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "image/gif": "gif"}
MAX_SIDE = 10_000


@dataclass(frozen=True, slots=True)
class UploadTicket:
    media: Media
    upload_url: str
    expires_at: datetime


def _signature(backend: Backend, media_id: int, expires: int) -> str:
    message = f"{media_id}:{expires}".encode()
    return hmac.new(backend.settings.secret_key.encode(), message, hashlib.sha256).hexdigest()


async def request_upload(
    backend: Backend, owner_id: int, content_type: str, width: int, height: int
) -> UploadTicket:
    if content_type not in CONTENT_TYPES:
        raise InvalidInput(f"content_type must be one of {', '.join(CONTENT_TYPES)}")
    if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
        raise InvalidInput(f"width and height must be 1-{MAX_SIDE} pixels")
    media_id = backend.ids.next_id()
    url = f"{backend.settings.media_base_url}/{media_id}.{CONTENT_TYPES[content_type]}"
    media = Media(media_id, url, width, height)
    await backend.posts.create_media(media, owner_id, backend.clock())
    expires_at = backend.clock() + UPLOAD_TTL
    expires = int(expires_at.timestamp())
    signature = _signature(backend, media_id, expires)
    upload_url = f"/v1/media/{media_id}/content?expires={expires}&signature={signature}"
    return UploadTicket(media, upload_url, expires_at)


def media_path(backend: Backend, file_name: str) -> Path:
    return backend.settings.data_dir / "media" / Path(file_name).name


async def store_upload(
    backend: Backend, media_id: int, expires: int, signature: str, content: bytes
) -> None:
    """The object-storage side of a presigned PUT (embedded default only)."""
    expected = _signature(backend, media_id, expires)
    if not hmac.compare_digest(expected, signature):
        raise Forbidden("the upload signature is not valid for this media")
    if expires < backend.clock().timestamp():
        raise Forbidden("the upload URL has expired; request a new one")
    if not content:
        raise InvalidInput("the upload is empty")
    owned = await backend.posts.media_by_id(media_id)
    if owned is None:
        raise NotFound("no such media")
    path = media_path(backend, owned.url.rsplit("/", 1)[-1])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
