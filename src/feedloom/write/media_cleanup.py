"""Orphaned media: upload URLs handed out that no post ever attached (an abandoned
draft, a client that crashed between upload and post). `feedloom media cleanup`
deletes their rows and, in the embedded object store, their files.

Only media older than a grace period (a day by default) go, so an upload whose post
is still being written is never swept; a post that attaches a swept media later is
refused as for any unknown media. Media of deleted posts stay: the tombstoned post
row still names them. With a CDN and an object store of its own (`media_base_url`),
the store's files are that store's to expire; the rows go here all the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from feedloom.ports import Clock, MediaSweep

SCAN_BATCH = 1_000


@dataclass(frozen=True, slots=True)
class SweptMedia:
    rows: int
    files: int


class CleanUpMedia:
    def __init__(self, sweep: MediaSweep, directory: Path, clock: Clock) -> None:
        self._sweep, self._directory, self._clock = sweep, directory, clock

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
            for media in orphans:
                path = self._directory / Path(media.url.rsplit("/", 1)[-1]).name
                if path.is_file():
                    path.unlink()
                    files += 1
        return SweptMedia(rows, files)
