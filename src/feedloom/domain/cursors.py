"""Opaque feed cursors: never offsets, since new posts would shift them.

Chronological pages use a keyset cursor, "older than post X": `k` and the ID, then the
originals the scroll showed through reposts, each after a `.` (at most
`reposts.CARRIED`: domain/reposts.py), so the next page does not show them again.
Ranked pages use a feed session (the ranked ID list kept for a few minutes) plus a
position in it, whose reader it is, and the oldest post it served: `s`, the session,
`.` and the position, then `.` the oldest post and `.` the reader. If the session is
lost (its store down or emptied), the feed goes on in time order below that post.

Clients treat cursors as opaque strings; the OpenAPI document states their patterns
(`KEYSET_PATTERN`, `FEED_CURSOR_PATTERN`), and every string a pattern admits is a
cursor this service accepts: a keyset cursor is a well-formed query whatever its IDs,
a session cursor at worst belongs to a session that cannot go on (410).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from feedloom.domain.errors import BadCursor
from feedloom.domain.ids import ID
from feedloom.domain.patterns import decimal_up_to, whole
from feedloom.domain.reposts import CARRIED

MAX_OFFSET = 100_000
SESSION = "[A-Za-z0-9_-]{1,64}"
OFFSET = f"0|{decimal_up_to(MAX_OFFSET)}"
KEYSET = f"k(?:{ID})(?:\\.(?:{ID})){{0,{CARRIED}}}"
RANKED = f"s{SESSION}\\.(?:{OFFSET})(?:\\.(?:{ID})\\.(?:{ID}))?"
KEYSET_PATTERN = whole(KEYSET)
FEED_CURSOR_PATTERN = whole(f"{KEYSET}|{RANKED}")


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
        return ".".join([f"k{cursor.before}", *map(str, cursor.shown)])
    parts = [f"s{cursor.session}", str(cursor.offset)]
    if cursor.oldest is not None and cursor.reader is not None:
        parts += [str(cursor.oldest), str(cursor.reader)]
    return ".".join(parts)


def decode_cursor(text: str) -> Cursor:
    if re.fullmatch(FEED_CURSOR_PATTERN, text) is None:
        raise BadCursor("cursor is not one this service issued")
    kind, parts = text[0], text[1:].split(".")
    if kind == "k":
        return KeysetCursor(int(parts[0]), tuple(map(int, parts[1:])))
    session, offset, *rest = parts
    oldest, reader = map(int, rest) if rest else (None, None)
    return SessionCursor(session, int(offset), oldest, reader)


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
