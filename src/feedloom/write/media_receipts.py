"""Which media a post or an avatar may use, when clients upload straight to a bucket.

The API hands out a presigned PUT and never hears whether it was used. So when a
post (or an avatar) names media whose bytes are not recorded yet, it asks the bucket
whether an upload waits under each one's name (a HEAD, no bytes), and records the ones
that do as received: pending, attached, but shown to nobody until the worker checked
them (write/media_jobs.py). An upload over the size limit is refused here, before it
is attached. PublishPost and EditProfile ask `media_owned_by` as they always do.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from feedloom.domain.errors import InvalidInput
from feedloom.domain.model import Media, object_name
from feedloom.ports import Clock, DirectUploads, OwnedMedia, UploadReceipts


class ReceivedMedia:
    def __init__(
        self,
        media: OwnedMedia,
        receipts: UploadReceipts,
        uploads: DirectUploads,
        clock: Clock,
        max_bytes: int,
    ) -> None:
        self._media, self._receipts, self._uploads = media, receipts, uploads
        self._clock, self._max_bytes = clock, max_bytes

    async def media_owned_by(self, owner_id: int, media_ids: Sequence[int]) -> list[Media]:
        owned = await self._media.media_owned_by(owner_id, media_ids)
        if len(owned) == len(set(media_ids)):
            return owned  # all recorded already: no request to the bucket
        waiting = await self._receipts.awaiting_upload(owner_id, media_ids)
        sizes = await asyncio.gather(
            *(self._uploads.upload_size(object_name(m.url)) for m in waiting)
        )
        for item, size in zip(waiting, sizes, strict=True):
            if size is None:
                continue  # not uploaded (yet): refused as before
            if size > self._max_bytes:
                raise InvalidInput(f"images are limited to {self._max_bytes} bytes")
            await self._receipts.mark_received(item.id, self._clock())
        return await self._media.media_owned_by(owner_id, media_ids)
