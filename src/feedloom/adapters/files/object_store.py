"""LocalObjectStore: image bytes as files in one directory (the embedded default's
object storage, served by GET /media/{name}).

Several machines share an S3-compatible bucket behind the same port instead
(adapters/s3). Writes are atomic (a temporary file, then a rename), so a reader sees
the whole object or none.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Sequence
from pathlib import Path

from feedloom.adapters.object_names import checked_name


class LocalObjectStore:
    def __init__(self, directory: Path) -> None:
        self._directory = directory

    def _path(self, name: str) -> Path:
        return self._directory / checked_name(name)

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
