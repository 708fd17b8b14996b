"""The feed generator contract (docs/FEEDS.md), as pure functions.

feedloom asks `GET {uri}?viewer=&limit=&cursor=` and expects
`{"items": [{"post_id": "123", "reason": "..."}], "cursor": "..." | null}`: IDs only,
as Bluesky's getFeedSkeleton. The request is signed with the generator's secret so it
can trust `viewer`: `X-Feedloom-Signature: v1=<hex HMAC-SHA256 of
"{timestamp}\\n{viewer}\\n{limit}\\n{cursor}">` beside `X-Feedloom-Timestamp`.
The generator's cursor travels inside feedloom's own: `g` and its base64url.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
from dataclasses import dataclass

import orjson

from feedloom.domain.errors import BadCursor, UpstreamFailed
from feedloom.domain.ids import ID

MAX_REMOTE_CURSOR = 512  # characters of a generator's cursor we carry
GENERATOR_CURSOR_PATTERN = "^g[A-Za-z0-9_-]{1,700}$"
SIGNATURE_HEADER, TIMESTAMP_HEADER = "X-Feedloom-Signature", "X-Feedloom-Timestamp"
FEEDBACK_KINDS = ("seen", "like", "less_like_this")


@dataclass(frozen=True, slots=True)
class Skeleton:
    post_ids: list[int]
    reasons: dict[int, str]
    cursor: str | None


def sign(secret: str, timestamp: int, *fields: str) -> str:
    message = "\n".join([str(timestamp), *fields]).encode()
    return "v1=" + hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def encode_generator_cursor(remote: str) -> str:
    return "g" + base64.urlsafe_b64encode(remote.encode()).decode().rstrip("=")


def decode_generator_cursor(text: str) -> str:
    if re.fullmatch(GENERATOR_CURSOR_PATTERN, text) is None:
        raise BadCursor("cursor is not one this service issued for a generator feed")
    body = text[1:]
    try:
        return base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError):
        raise BadCursor("cursor is not one this service issued for a generator feed") from None


def parse_skeleton(body: bytes, limit: int) -> Skeleton:
    """The generator's answer, checked; at most `limit` items are taken. Anything not
    of the contract's shape is the generator's failure (502), never guessed at."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        raise UpstreamFailed("the generator's answer is not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        raise UpstreamFailed('the generator\'s answer has no "items" list')
    cursor = data.get("cursor")
    if cursor is not None and (
        not isinstance(cursor, str) or not 0 < len(cursor) <= MAX_REMOTE_CURSOR
    ):
        raise UpstreamFailed(f"the generator's cursor is not a string of 1-{MAX_REMOTE_CURSOR}")
    ids: list[int] = []
    reasons: dict[int, str] = {}
    for item in data["items"][:limit]:
        post_id = item.get("post_id") if isinstance(item, dict) else None
        text = (
            str(post_id) if isinstance(post_id, str | int) and not isinstance(post_id, bool) else ""
        )
        if re.fullmatch(ID, text) is None:
            raise UpstreamFailed("a generator item has no valid post_id")
        ids.append(int(text))
        reason = item.get("reason")
        if isinstance(reason, str):
            reasons[int(text)] = reason[:100]
    return Skeleton(list(dict.fromkeys(ids)), reasons, cursor)
