"""Feature log: what the ranked feed served, with the features it was ranked on.

One JSON object per served item and line (reader, post, author, position, score, its
components, source, session, served_at), so a learned ranker can later be trained on
exactly what serving saw (no training/serving skew). Optional: `feed.feature_log_path`.

Requests only append to an in-memory buffer. Full buffers are written by a background
task on a worker thread, one batch at a time and in order, so the event loop never
waits on the disk; `close` writes what is left.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import orjson

log = logging.getLogger(__name__)

FLUSH_ROWS = 256


class FeatureLog:
    def __init__(self, path: Path, flush_rows: int = FLUSH_ROWS) -> None:
        self.path = path
        self._flush_rows = flush_rows
        self._buffer: list[bytes] = []
        self._lock = asyncio.Lock()  # keeps batches in order on the file
        self._tasks: set[asyncio.Task[None]] = set()

    def record(self, rows: Iterable[Mapping[str, Any]]) -> None:
        """Buffer rows; past `flush_rows`, start writing them in the background."""
        self._buffer.extend(orjson.dumps(row) + b"\n" for row in rows)
        if len(self._buffer) >= self._flush_rows:
            task = asyncio.get_running_loop().create_task(self.flush())
            # The loop keeps only weak references to tasks: hold this one until it ends.
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def flush(self) -> None:
        async with self._lock:
            lines, self._buffer = self._buffer, []
            if not lines:
                return
            try:
                await asyncio.to_thread(_append, self.path, b"".join(lines))
            except OSError:
                # Losing training rows must never break the feed; say so once per batch.
                log.exception("feature log: %d rows not written to %s", len(lines), self.path)

    async def close(self) -> None:
        await asyncio.gather(*self._tasks)
        await self.flush()


def _append(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("ab") as file:
        file.write(data)
