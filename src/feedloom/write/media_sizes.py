"""The background job that makes media sizes (DESIGN.md section 3), run by the worker.

It takes uploaded media without sizes, makes WebP copies 160, 480 and 1080 px wide
(only those smaller than the original; none for an animation), stores them next to
the original, records them on the medium and its post, and drops that post's cached
view so the next read carries the sizes. Until then items show the original, which is
verified and metadata-free: a post never shows a broken image. Idempotent: a medium
sized twice (two workers) gets the same files and the same record.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from feedloom.domain.model import Media, MediaSize
from feedloom.lookups.cached_views import Views
from feedloom.ports import Clock, MediaSizeStore
from feedloom.write.images import resized

WIDTHS = (160, 480, 1080)
BATCH = 10
IDLE_S = 1.0


class MakeSizes:
    def __init__(
        self,
        store: MediaSizeStore,
        views: Views,
        clock: Clock,
        directory: Path,
        base_url: str,
        widths: tuple[int, ...] = WIDTHS,
    ) -> None:
        self._store, self._views, self._clock = store, views, clock
        self._directory, self._base_url, self._widths = directory, base_url, widths

    async def once(self) -> int:
        """Size one batch; how many media were done."""
        pending = await self._store.unsized(BATCH)
        for item in pending:
            sizes = await asyncio.to_thread(self._make, item)
            post_id = await self._store.record_sizes(item.id, sizes, self._clock())
            if post_id is not None:
                await self._views.forget_posts([post_id])
        return len(pending)

    async def step(self) -> int:
        """One worker-loop step: a batch, or a pause when there is none."""
        if done := await self.once():
            return done
        await asyncio.sleep(IDLE_S)
        return 1  # the pause was the work: no extra idle sleep

    def _make(self, item: Media) -> list[MediaSize]:
        name = item.url.rsplit("/", 1)[-1]
        original = self._directory / name
        if not original.is_file():
            return []  # stored elsewhere or gone: the original URL stays in use
        stem = name.rsplit(".", 1)[0]
        sizes = []
        for copy in resized(original.read_bytes(), self._widths):
            file_name = f"{stem}_{copy.width}.webp"
            (self._directory / file_name).write_bytes(copy.content)
            sizes.append(MediaSize(f"{self._base_url}/{file_name}", copy.width, copy.height))
        return sizes
