"""What an object store takes for a name: one path segment, never hidden, so a name
can neither leave the directory (files) nor reach another prefix (a bucket)."""

from __future__ import annotations

from pathlib import PurePosixPath


def checked_name(name: str) -> str:
    if not name or name != PurePosixPath(name).name or "\\" in name or name.startswith("."):
        raise ValueError(f"not an object name: {name!r}")
    return name
