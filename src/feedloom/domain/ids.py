"""Snowflake-style 64-bit IDs: time-ordered, so an ID alone tells an object's age.

Layout, high to low: 41 bits of milliseconds since EPOCH, 10 bits of worker, 12 bits
of sequence. IDs travel as decimal strings in JSON: a 64-bit integer does not survive
a JavaScript number.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime

from feedloom.domain.patterns import decimal_up_to, matches, whole

EPOCH_MS = 1_704_067_200_000  # 2024-01-01T00:00:00Z
WORKER_BITS = 10
SEQUENCE_BITS = 12
MAX_WORKER = (1 << WORKER_BITS) - 1
MAX_SEQUENCE = (1 << SEQUENCE_BITS) - 1
TIMESTAMP_SHIFT = WORKER_BITS + SEQUENCE_BITS
MAX_ID = (1 << 63) - 1


class IdGenerator:
    """Hands out IDs that increase strictly within this process.

    If the wall clock steps back (NTP), we keep using the last timestamp seen and
    spend its sequence space instead: IDs stay monotonic and unique, merely dated a
    few milliseconds late. When a millisecond's 4,096 IDs are used up we borrow the
    next millisecond rather than sleeping.
    """

    def __init__(self, worker_id: int = 0, clock_ms: Callable[[], int] | None = None) -> None:
        if not 0 <= worker_id <= MAX_WORKER:
            raise ValueError(f"worker_id must be in 0..{MAX_WORKER}, got {worker_id}")
        self._worker_id = worker_id
        self._clock_ms = clock_ms or (lambda: time.time_ns() // 1_000_000)
        self._last_ms = 0
        self._sequence = 0
        self._lock = threading.Lock()

    def rebind(self, worker_id: int) -> None:
        """Mint as another worker from now on (a lease lost and replaced)."""
        if not 0 <= worker_id <= MAX_WORKER:
            raise ValueError(f"worker_id must be in 0..{MAX_WORKER}, got {worker_id}")
        with self._lock:
            self._worker_id = worker_id

    @property
    def worker_id(self) -> int:
        return self._worker_id

    def next_id(self) -> int:
        with self._lock:
            now_ms = max(self._clock_ms() - EPOCH_MS, self._last_ms)
            if now_ms == self._last_ms:
                self._sequence = (self._sequence + 1) & MAX_SEQUENCE
                if self._sequence == 0:
                    now_ms += 1
            else:
                self._sequence = 0
            self._last_ms = now_ms
            return (now_ms << TIMESTAMP_SHIFT) | (self._worker_id << SEQUENCE_BITS) | self._sequence


def created_at_of(snowflake: int) -> datetime:
    """The creation time encoded in an ID (millisecond precision, UTC)."""
    return datetime.fromtimestamp(((snowflake >> TIMESTAMP_SHIFT) + EPOCH_MS) / 1000, tz=UTC)


def lowest_id_at(moment: datetime) -> int:
    """The smallest ID that could have been minted at `moment`: a keyset bound for
    "posts newer than ten minutes ago" without storing a separate timestamp."""
    ms = int(moment.timestamp() * 1000) - EPOCH_MS
    return max(ms, 0) << TIMESTAMP_SHIFT


# An ID as a client sends it: 1 to 2^63-1 in decimal, no leading zero (what the OpenAPI
# document says of every ID a request carries).
ID = decimal_up_to(MAX_ID)
ID_PATTERN = whole(ID)


def parse_id(text: str) -> int:
    """A decimal ID string from a client; ValueError if it is not one (ID_PATTERN)."""
    if not matches(ID_PATTERN, text):
        raise ValueError(f"not an id: {text[:40]!r}")
    return int(text)
