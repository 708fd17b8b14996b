"""LocalObjectStore: image bytes as files in one directory (the embedded default's
object storage, served by GET /media/{name}).

A production deployment plugs an S3-compatible bucket in behind the same port
(put = PutObject, get = GetObject, delete = DeleteObjects) with a CDN in front of it
at `FEEDLOOM_MEDIA_BASE_URL`. Writes are atomic (a temporary file, then a rename), so
a reader sees the whole object or none.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Sequence
from pathlib import Path


class LocalObjectStore:
    def __init__(self, directory: Path) -> None:
        self._directory = directory

    def _path(self, name: str) -> Path:
        if not name or name != Path(name).name or name.startswith("."):
            raise ValueError(f"not an object name: {name!r}")
        return self._directory / name

    async def put(self, name: str, content: bytes, content_type: str) -> None:
        await asyncio.to_thread(self._write, self._path(name), content)

    async def get(self, name: str) -> bytes | None:
        try:
            path = self._path(name)
        except ValueError:
            return None
        return await asyncio.to_thread(_read, path)

    async def delete(self, names: Sequence[str]) -> None:
        for name in names:
            self._path(name).unlink(missing_ok=True)

    def _write(self, path: Path, content: bytes) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f".{path.name}.{secrets.token_hex(8)}.part")
        partial.write_bytes(content)
        os.replace(partial, path)


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except (FileNotFoundError, IsADirectoryError):
        return None
