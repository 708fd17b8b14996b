"""The key that signs upload URLs and stream tickets: FEEDLOOM_SECRET_KEY when set, else
(embedded default only) one generated on first start and kept in data_dir/secret_key,
readable by its owner only. Anything else refuses to start without a key: only the
embedded default keeps everything in one data dir, so only there can a generated key
be the one every process signs and checks with.

No deployment runs with a key anyone could know: there is no placeholder to forget
(settings.py refuses short keys and placeholder words).
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from feedloom.settings import SECRET_KEY_FILE, SECRET_KEY_MIN_CHARS, Settings, SettingsError

PRIVATE = 0o600
MISSING = (
    "FEEDLOOM_SECRET_KEY is required with PostgreSQL or Redis: set it to "
    f"{SECRET_KEY_MIN_CHARS}+ random characters (openssl rand -hex 32), the same in every process"
)


def secret_key(settings: Settings) -> str:
    """Raises SettingsError, in one line, for a key file that is unsafe or unusable."""
    if settings.secret_key is not None:
        return settings.secret_key.get_secret_value()
    if not settings.is_embedded_default:
        raise SettingsError(MISSING)
    return kept_secret_key(settings.data_dir / SECRET_KEY_FILE)


def kept_secret_key(path: Path) -> str:
    if not path.exists():
        _create(path)
    return _read(path)


def _create(path: Path) -> None:
    """Written under a draft name, then linked into place: of two processes starting at
    once, one key wins and both read it; nobody ever reads a half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE)
    try:
        with os.fdopen(descriptor, "w") as out:
            out.write(secrets.token_urlsafe(48) + "\n")
            out.flush()
            os.fsync(out.fileno())
        # Another process made it first: its key is the key.
        with contextlib.suppress(FileExistsError):
            os.link(draft, path)
    finally:
        draft.unlink()


def _read(path: Path) -> str:
    if path.stat().st_mode & 0o077:
        raise SettingsError(f"{path} is readable by other users: chmod 600 {path}")
    key = path.read_text().strip()
    if len(key) < SECRET_KEY_MIN_CHARS:
        raise SettingsError(
            f"{path} holds no usable key ({SECRET_KEY_MIN_CHARS}+ characters): "
            "delete it and a new one is made on the next start"
        )
    return key
