"""Media uploads: the API hands out a short-lived signed upload URL and never carries
image bytes in a post request. The embedded default plays object storage itself
(files under data_dir/media); a deployment points `media_base_url` at a CDN in
front of its object store and signs URLs for it the same way.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from feedloom.domain.errors import Conflict, Forbidden, InvalidInput, NotFound
from feedloom.domain.ids import IdGenerator
from feedloom.domain.model import Media
from feedloom.ports import Clock, MediaStore
from feedloom.write.images import verified

UPLOAD_TTL = timedelta(minutes=15)
CONTENT_TYPES = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "image/gif": "gif"}
MAX_SIDE = 10_000


@dataclass(frozen=True, slots=True)
class UploadTicket:
    media: Media
    upload_url: str
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class MediaConfig:
    secret_key: str
    base_url: str  # where uploaded images are served (a CDN in production)
    directory: Path  # the embedded object store
    max_bytes: int


class MediaUploads:
    def __init__(
        self, media: MediaStore, ids: IdGenerator, clock: Clock, config: MediaConfig
    ) -> None:
        self._media, self._ids, self._clock, self.config = media, ids, clock, config

    async def request_upload(
        self, owner_id: int, content_type: str, width: int, height: int, alt: str = ""
    ) -> UploadTicket:
        if content_type not in CONTENT_TYPES:
            raise InvalidInput(f"content_type must be one of {', '.join(CONTENT_TYPES)}")
        if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
            raise InvalidInput(f"width and height must be 1-{MAX_SIDE} pixels")
        media_id = self._ids.next_id()
        url = f"{self.config.base_url}/{media_id}.{CONTENT_TYPES[content_type]}"
        media = Media(media_id, url, width, height, alt.strip())
        await self._media.create_media(media, owner_id, self._clock())
        expires_at = self._clock() + UPLOAD_TTL
        expires = int(expires_at.timestamp())
        signature = self._signature(media_id, expires)
        upload_url = f"/v1/media/{media_id}/content?expires={expires}&signature={signature}"
        return UploadTicket(media, upload_url, expires_at)

    def path_of(self, file_name: str) -> Path:
        return self.config.directory / Path(file_name).name

    async def store_upload(
        self, media_id: int, expires: int, signature: str, content: bytes
    ) -> None:
        """The object-storage side of a presigned PUT (embedded default only). The
        bytes are checked for what they are (write/images.py) and stored re-encoded,
        without metadata. A URL works once: bytes that may already be in a post are
        never replaced."""
        if len(content) > self.config.max_bytes:
            raise InvalidInput(f"images are limited to {self.config.max_bytes} bytes")
        if not hmac.compare_digest(self._signature(media_id, expires), signature):
            raise Forbidden("the upload signature is not valid for this media")
        if expires < self._clock().timestamp():
            raise Forbidden("the upload URL has expired; request a new one")
        if not content:
            raise InvalidInput("the upload is empty")
        owned = await self._media.media_by_id(media_id)
        if owned is None:
            raise NotFound("no such media")
        file_name = owned.url.rsplit("/", 1)[-1]
        image = await asyncio.to_thread(verified, content, file_name.rsplit(".", 1)[-1])
        path = self.path_of(file_name)
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written aside first: the file appears under its served name only once this
        # upload is the one recorded, so a losing concurrent PUT changes nothing.
        partial = path.with_name(f".{path.name}.{secrets.token_hex(8)}.part")
        await asyncio.to_thread(partial.write_bytes, image.content)
        if not await self._media.mark_uploaded(media_id, image.width, image.height, self._clock()):
            partial.unlink(missing_ok=True)
            raise Conflict("this upload URL was already used; request a new one")
        os.replace(partial, path)

    def _signature(self, media_id: int, expires: int) -> str:
        message = f"{media_id}:{expires}".encode()
        return hmac.new(self.config.secret_key.encode(), message, hashlib.sha256).hexdigest()
