"""The worker's check of an upload a client sent straight to the bucket: what the
file store's PUT does on the spot (write/media.py), done where the bytes are.

The upload is read (refused unread past the size limit), decoded with Pillow and
checked for what it is (write/images.py: the format its ticket was for, at most
40 MP, EXIF orientation applied), re-encoded without metadata, and written as the
medium's object: only verified pixels are ever served. Then its real size is recorded
and it is shown. An upload that fails is discarded: deleted, taken off its post and
out of the avatar it is, and the reader never saw it. Idempotent: a check cut short
is done again from the upload, which goes only once the result is recorded.
"""

from __future__ import annotations

import asyncio
import logging

from feedloom.domain.errors import InvalidInput
from feedloom.domain.model import Media, object_name
from feedloom.lookups.cached_views import Views
from feedloom.ports import DirectUploads, MediaSizeStore, ObjectStore
from feedloom.write.images import verified
from feedloom.write.media import MIME_TYPES

log = logging.getLogger(__name__)


class CheckUploads:
    def __init__(
        self,
        store: MediaSizeStore,
        uploads: DirectUploads | None,
        objects: ObjectStore,
        views: Views,
        max_bytes: int,
    ) -> None:
        self._store, self._uploads, self._objects = store, uploads, objects
        self._views, self._max_bytes = views, max_bytes

    async def __call__(self, item: Media) -> bytes | None:
        """The verified bytes now stored as the medium, or None if it was discarded."""
        name = object_name(item.url)
        try:
            content = await self._upload(name)
            image = await asyncio.to_thread(verified, content, name.rsplit(".", 1)[-1])
        except (InvalidInput, ValueError) as error:
            log.warning("upload of media %s refused and discarded: %s", item.id, error)
            await self._discard(item, name)
            return None
        await self._objects.put(name, image.content, MIME_TYPES[image.extension])
        post_id = await self._store.record_checked(item.id, image.width, image.height)
        if post_id is not None:
            await self._views.forget_posts([post_id])
        if self._uploads is not None:
            await self._uploads.drop_upload(name)
        return image.content

    async def _upload(self, name: str) -> bytes:
        if self._uploads is None:  # FEEDLOOM_MEDIA__STORE went back to files
            raise InvalidInput("it was sent to an object store this process does not use")
        content = await self._uploads.read_upload(name, self._max_bytes)
        if content is None:
            raise InvalidInput("the upload is gone from the object store")
        return content

    async def _discard(self, item: Media, name: str) -> None:
        # Bytes first: if the row's deletion fails, the next try finds the upload gone
        # and discards again; the other way round, a failure would leave bytes no row names.
        await self._objects.delete([name])  # the upload under the name too
        post_id, user_id = await self._store.discard_media(item.id)
        if post_id is not None:
            await self._views.forget_posts([post_id])
        if user_id is not None:
            await self._views.forget_profiles([user_id])
