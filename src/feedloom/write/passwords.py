"""Password hashing off the event loop, in a bounded pool of its own.

argon2 is slow and memory-hard on purpose (tens of milliseconds and 64 MiB a hash at
the defaults). One thread per sign-in, as `asyncio.to_thread` gives, lets a flood of
sign-ins take every core and the shared default executor, and every other request
slows down. Here at most `workers` hashes run at once, at most `queue` more wait, and
past that a request is answered 503 with Retry-After at once instead of queueing
without end.

An unknown (or suspended, or deleted) username is verified against a dummy hash made
with the same parameters, so "no such account" costs what "wrong password" costs and
the response time does not tell which usernames exist. So is an account with no usable
password (its hash starts with `!`: erased, or created by an app).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from feedloom.domain.errors import Unavailable

T = TypeVar("T")


class Passwords:
    def __init__(self, hasher: PasswordHasher, workers: int, queue: int) -> None:
        self._hasher = hasher
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="argon2")
        self._slots = asyncio.Semaphore(workers + queue)
        self._dummy = hasher.hash(secrets.token_urlsafe(16))  # once per process, at start

    async def hash(self, password: str) -> str:
        return await self._run(self._hasher.hash, password)

    async def verify(self, password_hash: str | None, password: str) -> bool:
        """Whether `password` matches; None (no such account) is checked against the
        dummy hash, at the same cost, and never matches."""
        if password_hash is not None and password_hash.startswith("!"):
            password_hash = None  # no password at all (an erased account, an app's user)
        try:
            await self._run(self._hasher.verify, password_hash or self._dummy, password)
        except (VerificationError, InvalidHashError):
            return False
        return password_hash is not None

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    async def _run(self, work: Callable[..., T], *args: str) -> T:
        if self._slots.locked():
            raise Unavailable("too many sign-ins at once; retry in a moment", retry_after_s=1)
        async with self._slots:
            return await asyncio.get_running_loop().run_in_executor(self._pool, work, *args)
