"""The media pipeline's background jobs (DESIGN.md section 3), run by the worker:
check uploads sent straight to a bucket, make sizes, and delete orphans.

It takes uploaded media without sizes. One sent straight to a bucket is pending: it
is checked first (write/media_check.py) and shown once it passed, or discarded. Then
it makes WebP copies 160, 480 and 1080 px wide
(only those smaller than the original; none for an animation) and a 96 px one for
avatars, stores them next to the original, records them on the medium and its post
(or makes the 96 px copy the avatar of the user it belongs to), and drops the cached
view so the next read carries them. Until then items show the original, which is
verified and metadata-free: a post never shows a broken image. Idempotent: a medium
sized twice (two workers) gets the same files and the same record.

Orphans: media attached to no post and no avatar a day after the upload URL was
issued are deleted, files and rows, about hourly.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import timedelta

from feedloom.domain.model import Media, MediaSize, object_name
from feedloom.lookups.cached_views import Views
from feedloom.ports import Clock, MediaSizeStore, ObjectStore
from feedloom.write.images import resized
from feedloom.write.media_check import CheckUploads

AVATAR_WIDTH = 96
WIDTHS = (AVATAR_WIDTH, 160, 480, 1080)
log = logging.getLogger(__name__)
BATCH = 10
IDLE_S = 1.0
ORPHAN_AGE = timedelta(days=1)
CLEAN_EVERY_S = 3600.0


class MediaJobs:
    def __init__(
        self,
        store: MediaSizeStore,
        views: Views,
        clock: Clock,
        objects: ObjectStore,
        check: CheckUploads,
        base_url: str,
        widths: tuple[int, ...] = WIDTHS,
    ) -> None:
        self._store, self._views, self._clock = store, views, clock
        self._objects, self._check = objects, check
        self._base_url, self._widths = base_url, widths
        self._cleaned_at = time.monotonic()  # not at once: a restart loop cleans nothing twice

    async def once(self) -> int:
        """Check and size one batch; how many media were done."""
        pending = await self._store.unsized(BATCH)
        for item in pending:
            if item.pending:
                original = await self._check(item)
                if original is None:
                    continue  # refused and discarded
            else:
                original = await self._objects.get(object_name(item.url))
            sizes = await self._make(item, original)
            small = next((s.url for s in sizes if s.width == AVATAR_WIDTH), None)
            post_id, avatar_of = await self._store.record_sizes(
                item.id, sizes, small, self._clock()
            )
            if post_id is not None:
                await self._views.forget_posts([post_id])
            if avatar_of is not None:
                await self._views.forget_profiles([avatar_of])
        return len(pending)

    async def clean_orphans(self, older_than: timedelta = ORPHAN_AGE) -> int:
        """Delete media nobody attached within a day; how many were deleted."""
        orphans = await self._store.orphans(self._clock() - older_than, 1000)
        for item in orphans:
            urls = (item.url, *(s.url for s in item.sizes))
            await self._objects.delete([object_name(url) for url in urls])
        await self._store.delete_media([item.id for item in orphans])
        return len(orphans)

    async def step(self) -> int:
        """One worker-loop step: a batch, or a pause when there is none."""
        if time.monotonic() - self._cleaned_at >= CLEAN_EVERY_S:
            self._cleaned_at = time.monotonic()
            await self.clean_orphans()
        if done := await self.once():
            return done
        await asyncio.sleep(IDLE_S)
        return 1  # the pause was the work: no extra idle sleep

    async def _make(self, item: Media, original: bytes | None) -> list[MediaSize]:
        if original is None:
            return []  # gone: the original URL stays in use
        name = object_name(item.url)
        try:
            copies = await asyncio.to_thread(resized, original, self._widths)
        except (OSError, ValueError) as error:  # PIL's errors are OSError or ValueError
            # Recorded with no sizes, so a bad file is not retried forever.
            log.warning("no sizes for media %s: %s", item.id, error)
            return []
        stem = name.rsplit(".", 1)[0]
        sizes = []
        for copy in copies:
            file_name = f"{stem}_{copy.width}.webp"
            await self._objects.put(file_name, copy.content, "image/webp")
            sizes.append(MediaSize(f"{self._base_url}/{file_name}", copy.width, copy.height))
        return sizes
