"""Opaque feed cursors: never offsets, since new posts would shift them.

Chronological pages use a keyset cursor, "older than post X", which may also carry
the originals the scroll showed through reposts (packed 64-bit IDs, at most
`reposts.CARRIED`: domain/reposts.py), so the next page does not show them again.
Ranked pages use a feed
session (the ranked ID list kept for a few minutes) plus a position in it, whose
reader it is, and the oldest post it served: if the session is lost (its store down
or emptied), the feed goes on in time order below that post. Both are
URL-safe base64 of a small JSON object, so clients treat them as opaque strings.
"""

from __future__ import annotations

import base64
import binascii
import json
import struct
from dataclasses import dataclass

from feedloom.domain.errors import BadCursor
from feedloom.domain.ids import parse_id
from feedloom.domain.reposts import CARRIED

MAX_CURSOR_LENGTH = 512


@dataclass(frozen=True, slots=True)
class KeysetCursor:
    before: int
    shown: tuple[int, ...] = ()  # originals shown through reposts, still ahead


@dataclass(frozen=True, slots=True)
class SessionCursor:
    session: str
    offset: int
    oldest: int | None = None  # the oldest post served so far; None in older cursors
    reader: int | None = None  # whose session: another reader's cursor is refused


Cursor = KeysetCursor | SessionCursor


def encode_cursor(cursor: Cursor) -> str:
    if isinstance(cursor, KeysetCursor):
        # What json.dumps writes for {"b": "<id>"}, without its encoder (every page pays it).
        raw = b'{"b":"%d"}' % cursor.before
        if cursor.shown:
            packed = base64.urlsafe_b64encode(struct.pack(f">{len(cursor.shown)}q", *cursor.shown))
            raw = raw[:-1] + b',"r":"%s"}' % packed.rstrip(b"=")
    else:
        payload: dict[str, object] = {"s": cursor.session, "o": cursor.offset}
        if cursor.oldest is not None and cursor.reader is not None:
            payload |= {"m": str(cursor.oldest), "u": str(cursor.reader)}
        raw = json.dumps(payload, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(text: str) -> Cursor:
    if not text or len(text) > MAX_CURSOR_LENGTH:
        raise BadCursor("cursor is empty or too long")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        payload = json.loads(raw)
    except (binascii.Error, ValueError, UnicodeDecodeError) as error:
        raise BadCursor("cursor is not one this service issued") from error
    if isinstance(payload, dict):
        if set(payload) == {"b"} and _is_id(payload["b"]):
            return KeysetCursor(before=int(payload["b"]))
        if set(payload) == {"b", "r"} and _is_id(payload["b"]):
            return KeysetCursor(int(payload["b"]), _shown(payload["r"]))
        if set(payload) == {"s", "o"} and _is_session(payload["s"], payload["o"]):
            return SessionCursor(session=payload["s"], offset=payload["o"])
        if (
            set(payload) == {"s", "o", "m", "u"}
            and _is_session(payload["s"], payload["o"])
            and _is_id(payload["m"])
            and _is_id(payload["u"])
        ):
            return SessionCursor(payload["s"], payload["o"], int(payload["m"]), int(payload["u"]))
    raise BadCursor("cursor is not one this service issued")


def _is_id(value: object) -> bool:
    """An ID a store can hold (1 to 2^63-1): a forged cursor past that is malformed,
    not a query a 64-bit column refuses with an error."""
    if not isinstance(value, str):
        return False
    try:
        parse_id(value)
    except ValueError:
        return False
    return True


def _shown(value: object) -> tuple[int, ...]:
    """The packed originals of a keyset cursor: 1 to CARRIED positive 64-bit IDs."""
    if not isinstance(value, str) or not value.isascii():
        raise BadCursor("cursor is not one this service issued")
    try:
        packed = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError) as error:
        raise BadCursor("cursor is not one this service issued") from error
    count, rest = divmod(len(packed), 8)
    ids = struct.unpack(f">{count}q", packed) if not rest and 0 < count <= CARRIED else ()
    if not ids or min(ids) <= 0:
        raise BadCursor("cursor is not one this service issued")
    return tuple(ids)


def _is_session(session: object, offset: object) -> bool:
    return (
        isinstance(session, str)
        and 0 < len(session) <= 64
        and session.isascii()
        and session.replace("-", "").replace("_", "").isalnum()
        and isinstance(offset, int)
        and not isinstance(offset, bool)
        and 0 <= offset <= 100_000
    )


SESSION_CURSOR_HERE = "this cursor belongs to a ranked feed session; use order=ranked"


def keyset_before(text: str | None, refusal: str = SESSION_CURSOR_HERE) -> int | None:
    """The `before` of a keyset cursor (None without a cursor); a ranked session's
    cursor is refused with `refusal` here, where only a keyset one makes sense."""
    if text is None:
        return None
    decoded = decode_cursor(text)
    if not isinstance(decoded, KeysetCursor):
        raise BadCursor(refusal)
    return decoded.before
