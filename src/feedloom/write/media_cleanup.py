"""Orphaned media: upload URLs handed out that no post ever attached (an abandoned
draft, a client that crashed between upload and post). `feedloom media cleanup`
deletes their objects (originals, sizes, and uploads still waiting in a bucket), then
their rows.

Only media older than a grace period (a day by default) go, so an upload whose post
is still being written is never swept; a post that attaches a swept media later is
refused as for any unknown media. Media of deleted posts stay: the tombstoned post
row still names them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from feedloom.domain.model import object_name
from feedloom.ports import Clock, MediaSweep, ObjectStore

SCAN_BATCH = 1_000


@dataclass(frozen=True, slots=True)
class SweptMedia:
    rows: int
    files: int  # object names deleted: originals and sizes


class CleanUpMedia:
    def __init__(self, sweep: MediaSweep, objects: ObjectStore, clock: Clock) -> None:
        self._sweep, self._objects, self._clock = sweep, objects, clock

    async def __call__(self, grace: timedelta, dry_run: bool = False) -> SweptMedia:
        cutoff = self._clock() - grace
        after: int | None = 0
        rows = files = 0
        while after is not None:
            orphans, after = await self._sweep.unattached_media(cutoff, after, SCAN_BATCH)
            if dry_run or not orphans:
                rows += len(orphans)
                continue
            # Row first: a file without its row is unreachable; a row without its file
            # would be handed to a post as an image that does not load.
            rows += await self._sweep.delete_media([media.id for media in orphans])
            urls = [url for m in orphans for url in (m.url, *(size.url for size in m.sizes))]
            names = [object_name(url) for url in urls]
            await self._objects.delete(names)
            files += len(names)
        return SweptMedia(rows, files)
