"""Media uploads: the API hands out a short-lived upload URL and never carries image
bytes in a post request.

Where the URL leads depends on the object store. On a bucket (DirectUploads) it is a
presigned PUT straight to the bucket: the bytes never pass through the API, and the
worker checks them before anyone is shown them (write/media_jobs.py). On the file
store it is this API's own PUT, which checks the bytes on the spot; its signature
covers the medium, its uploader and the expiry, and the PUT must come with the
uploader's token too: a media ID is public, a URL may leak (logs, a referrer), and
neither is enough to replace someone's image.

Reads: `media_base_url` (a CDN, or a public bucket) serves the files directly, or this
API does at /media/{name}: from the directory, or by a redirect to a short-lived
signed GET of a private bucket (SignedReads).

A file's URL is a capability: its name carries a random token minted here, at upload,
and stored with the media (`{id}-{token}.{ext}`, the sizes derive theirs from it). Media
IDs are public and time-ordered, so a name made of the ID alone would let anyone fetch
a followers-only post's images; the token makes the URL unguessable, and it reaches
only readers the post's view is handed to (lookups/access.py decides who).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from feedloom.domain.errors import Conflict, Forbidden, InvalidInput, NotFound
from feedloom.domain.ids import IdGenerator
from feedloom.domain.model import Media, object_name
from feedloom.ports import Clock, DirectUploads, MediaStore, ObjectStore, SignedReads
from feedloom.write.images import verified
from feedloom.write.throttle import Throttle

UPLOAD_TTL = timedelta(minutes=15)
CONTENT_TYPES = {"image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "image/gif": "gif"}
MIME_TYPES = {extension: mime for mime, extension in CONTENT_TYPES.items()}
MAX_SIDE = 10_000
MAX_ALT = 1000  # the column's width (media.alt)
URL_TOKEN_BYTES = 16  # 128 random bits: not found by guessing


@dataclass(frozen=True, slots=True)
class UploadTicket:
    media: Media
    upload_url: str
    expires_at: datetime
    upload_headers: dict[str, str]  # what the PUT must send (a presigned URL signs them)


@dataclass(frozen=True, slots=True)
class MediaConfig:
    secret_key: str
    base_url: str  # where uploaded images are served (a CDN in production)
    max_bytes: int
    upload_ttl: timedelta = UPLOAD_TTL
    signed_get_ttl: timedelta = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class StoredImage:
    content: bytes
    media_type: str


@dataclass(frozen=True, slots=True)
class SignedLink:
    """Where the bytes are, for a while: a signed GET of a private bucket."""

    url: str
    max_age_s: int  # how long a client may keep following this link


class MediaUploads:
    def __init__(
        self,
        media: MediaStore,
        objects: ObjectStore,
        ids: IdGenerator,
        clock: Clock,
        config: MediaConfig,
        throttle: Throttle,
        direct: DirectUploads | None = None,
        signed: SignedReads | None = None,
    ) -> None:
        self._media, self._objects, self._ids = media, objects, ids
        self._clock, self.config, self._throttle = clock, config, throttle
        self._direct, self._signed = direct, signed

    async def request_upload(
        self, owner_id: int, content_type: str, width: int, height: int, alt: str = ""
    ) -> UploadTicket:
        if content_type not in CONTENT_TYPES:
            raise InvalidInput(f"content_type must be one of {', '.join(CONTENT_TYPES)}")
        if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
            raise InvalidInput(f"width and height must be 1-{MAX_SIDE} pixels")
        await self._throttle.account("media", owner_id)
        media = await self._new_media(owner_id, content_type, width, height, alt)
        media_id = media.id
        ttl = self.config.upload_ttl
        expires_at = self._clock() + ttl
        if self._direct is not None:
            name = object_name(media.url)
            upload_url = await self._direct.upload_url(name, content_type, ttl)
        else:
            expires = int(expires_at.timestamp())
            signature = self._signature(media_id, owner_id, expires)
            upload_url = f"/v1/media/{media_id}/content?expires={expires}&signature={signature}"
        return UploadTicket(media, upload_url, expires_at, {"Content-Type": content_type})

    async def upload(self, owner_id: int, content: bytes, alt: str = "") -> Media:
        """POST /api/v2/media (the Mastodon-compatible API): the image comes in the
        request. Checked and stored re-encoded, without metadata, as `store_upload`
        stores the bytes of a presigned PUT, in whichever object store is configured."""
        if len(content) > self.config.max_bytes:
            raise InvalidInput(f"images are limited to {self.config.max_bytes} bytes")
        if not content:
            raise InvalidInput("the upload is empty")
        await self._throttle.account("media", owner_id)
        image = await asyncio.to_thread(verified, content, None)
        content_type = MIME_TYPES[image.extension]
        media = await self._new_media(owner_id, content_type, image.width, image.height, alt)
        await self._media.mark_uploaded(media.id, image.width, image.height, self._clock())
        try:
            await self._objects.put(object_name(media.url), image.content, content_type)
        except BaseException:
            await self._media.forget_upload(media.id)
            raise
        return media

    async def owned(self, owner_id: int, media_id: int) -> Media:
        """GET /api/v1/media/{id}: the owner's uploaded medium (clients poll it)."""
        found = await self._media.media_owned_by(owner_id, [media_id])
        if not found:
            raise NotFound("no such media")
        return found[0]

    async def describe(self, owner_id: int, media_id: int, alt: str) -> Media:
        """PUT /api/v1/media/{id}: the alt text of a medium not yet published."""
        if len(alt) > MAX_ALT:
            raise InvalidInput(f"description must be at most {MAX_ALT} characters")
        described = await self._media.describe_media(owner_id, media_id, alt.strip())
        if described is None:
            raise NotFound("no such media")
        return described

    async def _new_media(
        self, owner_id: int, content_type: str, width: int, height: int, alt: str
    ) -> Media:
        media_id = self._ids.next_id()
        token = secrets.token_urlsafe(URL_TOKEN_BYTES)
        url = f"{self.config.base_url}/{media_id}-{token}.{CONTENT_TYPES[content_type]}"
        media = Media(media_id, url, width, height, alt.strip())
        await self._media.create_media(media, owner_id, self._clock())
        return media

    async def served(self, file_name: str) -> StoredImage | SignedLink | None:
        """GET /media/{file}: the stored bytes and their type, or, for a private
        bucket, a signed link to them. Only names of images: a capability name is all
        the check there is (module docstring), so nothing else is handed out."""
        media_type = MIME_TYPES.get(file_name.rsplit(".", 1)[-1])
        if media_type is None:
            return None
        if self._signed is not None:
            ttl = self.config.signed_get_ttl
            try:
                url = await self._signed.read_url(file_name, ttl)
            except ValueError:  # not an object name
                return None
            # Followed again from the cache for at most half its life, so a kept
            # redirect never leads to an expired link.
            return SignedLink(url, int(ttl.total_seconds()) // 2)
        content = await self._objects.get(file_name)
        return StoredImage(content, media_type) if content is not None else None

    async def store_upload(
        self, uploader_id: int, media_id: int, expires: int, signature: str, content: bytes
    ) -> None:
        """The object-storage side of a presigned PUT (embedded default only), sent by
        `uploader_id`. The bytes are checked for what they are (write/images.py) and
        stored re-encoded, without metadata. A URL works once and never after its
        medium is attached: bytes that may already be in a post are never replaced.
        With a bucket, uploads go there: this URL is never handed out."""
        if self._direct is not None:
            raise NotFound("uploads go straight to the object store: use the ticket's URL")
        if len(content) > self.config.max_bytes:
            raise InvalidInput(f"images are limited to {self.config.max_bytes} bytes")
        expected = self._signature(media_id, uploader_id, expires).encode()
        # Bytes: compare_digest refuses str with non-ASCII characters (a 500, not a 403).
        if not hmac.compare_digest(expected, signature.encode()):
            raise Forbidden("the upload signature is not valid for this media and account")
        if expires < self._clock().timestamp():
            raise Forbidden("the upload URL has expired; request a new one")
        if not content:
            raise InvalidInput("the upload is empty")
        owned = await self._media.media_by_id(media_id)
        if owned is None:
            raise NotFound("no such media")
        file_name = object_name(owned.url)
        image = await asyncio.to_thread(verified, content, file_name.rsplit(".", 1)[-1])
        # Recorded first: of two concurrent PUTs only the one recorded stores its bytes,
        # and bytes that may already be in a post are never written again.
        if not await self._media.mark_uploaded(media_id, image.width, image.height, self._clock()):
            raise Conflict("this upload URL was already used; request a new one")
        try:
            await self._objects.put(file_name, image.content, MIME_TYPES[image.extension])
        except BaseException:
            await self._media.forget_upload(media_id)  # not stored: it may be sent again
            raise

    def _signature(self, media_id: int, uploader_id: int, expires: int) -> str:
        # A key of its own, derived: a stream ticket's signature never passes for this.
        key = hashlib.sha256(b"media-upload:" + self.config.secret_key.encode()).digest()
        message = f"{media_id}:{uploader_id}:{expires}".encode()
        return hmac.new(key, message, hashlib.sha256).hexdigest()
