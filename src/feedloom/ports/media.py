"""Media ports: the media rows in the durable store, and the image bytes in an object
store (a directory on the embedded default, an S3-compatible bucket in production).

Two ways in for the bytes. On the file store the client PUTs them to the API, which
checks them on the spot (write/media.py). On a bucket the client PUTs them straight to
the bucket with a presigned URL (`DirectUploads`), the API never sees them, a post may
attach the medium once they are there (`UploadReceipts`), and the worker checks them
before anyone is shown them (write/media_jobs.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Protocol

from feedloom.domain.model import Media, MediaSize


class OwnedMedia(Protocol):
    """What a post or an avatar may use."""

    async def media_owned_by(self, owner_id: int, media_ids: Sequence[int]) -> list[Media]:
        """The owner's media among these IDs whose bytes were uploaded, in that order."""
        ...


class MediaStore(OwnedMedia, Protocol):
    async def create_media(self, media: Media, owner_id: int, now: datetime) -> None: ...
    async def media_by_id(self, media_id: int) -> Media | None: ...
    async def mark_uploaded(self, media_id: int, width: int, height: int, now: datetime) -> bool:
        """Record the verified size; False if it was uploaded before (URLs work once)."""
        ...

    async def forget_upload(self, media_id: int) -> None:
        """Undo `mark_uploaded` when the bytes could not be stored after all."""
        ...

    async def describe_media(self, owner_id: int, media_id: int, alt: str) -> Media | None:
        """Set the alt text of the owner's medium not yet in a post or an avatar (its
        text is published with it); None if there is no such medium."""
        ...


class UploadReceipts(Protocol):
    """Uploads sent straight to the object store, as a post or an avatar asks for them."""

    async def awaiting_upload(self, owner_id: int, media_ids: Sequence[int]) -> list[Media]:
        """The owner's media among these IDs whose bytes have not been recorded."""
        ...

    async def mark_received(self, media_id: int, now: datetime) -> bool:
        """Record that the bytes arrived, unchecked (`Media.pending`); False if they
        were recorded before."""
        ...


class ObjectStore(Protocol):
    """Image bytes by name (uploads and their sizes). A name is one path segment."""

    async def put(self, name: str, content: bytes, content_type: str) -> None: ...
    async def get(self, name: str) -> bytes | None: ...
    async def delete(self, names: Sequence[str]) -> None:
        """Gone, whatever stage they were in: a direct upload under a name goes too."""
        ...


class DirectUploads(Protocol):
    """Uploads a client sends straight to the object store with a presigned PUT. They
    wait beside the objects under the object's name, unchecked and never served,
    until the worker takes them."""

    async def upload_url(self, name: str, content_type: str, expires_in: timedelta) -> str:
        """A URL that takes a PUT of `name`'s bytes, with this Content-Type, until it
        expires."""
        ...

    async def upload_size(self, name: str) -> int | None:
        """How many bytes wait under `name`; None when nothing does."""
        ...

    async def read_upload(self, name: str, max_bytes: int) -> bytes | None:
        """The bytes waiting under `name`, None when nothing does; ValueError when they
        are more than `max_bytes` (and are not read)."""
        ...

    async def drop_upload(self, name: str) -> None: ...


class SignedReads(Protocol):
    """Objects of a private bucket, read by a URL signed for a while."""

    async def read_url(self, name: str, expires_in: timedelta) -> str: ...


class MediaSizeStore(Protocol):
    """The background job's side of media: what still needs checks and sizes, and
    their record."""

    async def unsized(self, limit: int) -> list[Media]:
        """Uploaded media without sizes yet, oldest first (pending ones among them)."""
        ...

    async def record_checked(self, media_id: int, width: int, height: int) -> int | None:
        """A pending medium's bytes passed the check: record their real size and show it,
        on the medium and on the post it is attached to; returns that post's ID."""
        ...

    async def record_sizes(
        self, media_id: int, sizes: Sequence[MediaSize], avatar_url: str | None, now: datetime
    ) -> tuple[int | None, int | None]:
        """Store the sizes on the medium and on the post it is attached to, and make
        `avatar_url` the avatar of the user whose avatar it is, in one transaction;
        returns (that post's ID, that user's ID), None where there is none."""
        ...

    async def discard_media(self, media_id: int) -> tuple[int | None, int | None]:
        """A pending medium whose bytes failed the check: take it off the post it is
        attached to and out of the avatar it is, and delete it, in one transaction;
        returns (that post's ID, that user's ID), None where there is none."""
        ...

    async def orphans(self, created_before: datetime, limit: int) -> list[Media]:
        """Media attached to no post and no avatar, created before the cutoff."""
        ...

    async def delete_media(self, media_ids: Sequence[int]) -> None: ...


class MediaSweep(Protocol):
    """Media rows no post uses: an upload URL was handed out, no post attached it."""

    async def unattached_media(
        self, created_before: datetime, after_id: int, limit: int
    ) -> tuple[list[Media], int | None]:
        """Of the next `limit` media rows (by ID, above `after_id`) created before the
        cutoff, those no post of their owner attaches (deleted posts count: their rows
        are kept); and the last ID scanned, None when nothing was left to scan."""
        ...

    async def delete_media(self, media_ids: Sequence[int]) -> int: ...
