"""Idempotency-Keys, one rule for every keyed write (posts, comments); the key's own
shape is checked by domain/idempotency.py.

A key belongs to its user, names ONE request, and is kept at least
`idempotency_ttl_hours` (the worker purges older ones): the same key with the same
request answers the first result again; with another request (other text, another
post, a post's key on a comment) it is refused (422) rather than guessed at. The
request is compared by a hash of what the client sent, kind included.
"""

from __future__ import annotations

import hashlib
import json

from feedloom.domain.errors import IdempotencyMismatch
from feedloom.ports import StoredResponse

UNHASHED = ""  # comment keys stored before request hashes (migration 0009): replayed


def request_hash(*parts: object) -> str:
    """What the client sent, hashed (the kind is compared apart: StoredResponse.kind)."""
    body = json.dumps(list(parts), separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def replayed_id(stored: StoredResponse, kind: str, request_hash: str) -> int:
    """The first result's ID, if the stored request is this one; else refused."""
    same = stored.request_hash in (request_hash, UNHASHED) and stored.kind == kind
    if not same:
        raise IdempotencyMismatch(
            "this Idempotency-Key was already used with a different request; "
            "use a new key for a new request"
        )
    return stored.result_id
