"""One rule for every Idempotency-Key (posts, comments, and any write that takes one):
1-255 printable ASCII characters. The stores keep keys in 255-character columns, so a
longer key is refused here, the same on every backend, instead of by one database."""

from __future__ import annotations

from feedloom.domain.errors import InvalidInput

MAX_IDEMPOTENCY_KEY = 255
# The same rule as a regular expression, for the OpenAPI document (api/deps.py).
IDEMPOTENCY_KEY_PATTERN = r"^[ -~]+$"


def check_idempotency_key(key: str) -> None:
    if not 0 < len(key) <= MAX_IDEMPOTENCY_KEY or not key.isascii() or not key.isprintable():
        raise InvalidInput(
            f"Idempotency-Key must be 1-{MAX_IDEMPOTENCY_KEY} printable ASCII characters"
        )
