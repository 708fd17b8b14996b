"""Finding people: the prefix a search matches and the keyset cursors of people lists.

A search page is ordered by (followers descending, id), its cursor the last row's pair;
a followers or following page by (follow time descending, id descending), its cursor
the last follow's pair. Both are opaque URL-safe base64, like the feed's cursors: never
offsets, so a follow arriving meanwhile shifts nothing.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from datetime import datetime

from feedloom.domain.errors import BadCursor, InvalidInput

MAX_QUERY = 64


@dataclass(frozen=True, slots=True)
class Prefix:
    """Lowercase strings starting with `low` are exactly those in [low, high)."""

    low: str
    high: str


def search_prefix(query: str) -> Prefix:
    low = query.strip().lower()
    if not 1 <= len(low) <= MAX_QUERY:
        raise InvalidInput(f"q must be 1-{MAX_QUERY} characters")
    # Code point order is the order of UTF-8 bytes, the binary order the index keeps.
    last = ord(low[-1])
    high = low[:-1] + chr(last + 1) if last < 0x10FFFF else low + "\U0010ffff"
    return Prefix(low, high)


@dataclass(frozen=True, slots=True)
class RankKey:
    """A search result's place: more followers first, then lower id."""

    followers: int
    user_id: int


@dataclass(frozen=True, slots=True)
class FollowKey:
    """A follow's place in a list: newest first."""

    at: datetime
    user_id: int


@dataclass(frozen=True, slots=True)
class RelationFlags:
    """Every relation between a viewer and another account, both ways."""

    following: bool = False
    followed_by: bool = False
    blocking: bool = False
    blocked_by: bool = False
    muting: bool = False


@dataclass(frozen=True, slots=True)
class Suggested:
    """An account to suggest; `followed_by` counts the viewer's followees who follow it
    (0: suggested as popular)."""

    user_id: int
    followed_by: int


def encode_rank(key: RankKey) -> str:
    return _encode({"f": key.followers, "u": str(key.user_id)})


def decode_rank(cursor: str | None) -> RankKey | None:
    if cursor is None:
        return None
    payload = _decode(cursor)
    try:
        return RankKey(int(payload["f"]), int(payload["u"]))
    except (KeyError, TypeError, ValueError) as error:
        raise BadCursor("this cursor is not a search cursor") from error


def encode_follow(key: FollowKey) -> str:
    return _encode({"t": key.at.isoformat(), "u": str(key.user_id)})


def decode_follow(cursor: str | None) -> FollowKey | None:
    if cursor is None:
        return None
    payload = _decode(cursor)
    try:
        at = datetime.fromisoformat(payload["t"])
        return FollowKey(at, int(payload["u"]))
    except (KeyError, TypeError, ValueError) as error:
        raise BadCursor("this cursor is not a followers or following cursor") from error


def _encode(payload: dict[str, object]) -> str:
    raw = json.dumps(payload, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode(cursor: str) -> dict[str, str]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        payload = json.loads(raw)
    except (binascii.Error, ValueError, UnicodeDecodeError) as error:
        raise BadCursor("malformed cursor") from error
    if not isinstance(payload, dict):
        raise BadCursor("malformed cursor")
    return payload
