"""Finding people: the keyset cursors of people lists (a search's words: domain/search.py).

A search page is ordered by (followers descending, id), its cursor the last row's pair
(`r`, followers, `.`, id); a followers or following page by (follow time descending, id
descending), its cursor the last follow's pair (`f`, microseconds since 1970, `.`, id);
a post's likers page as follows do, its reposters by repost ID (descending), their
cursor the last repost's ID.
Opaque to clients like the feed's cursors, with patterns the OpenAPI document states
(`SEARCH_CURSOR_PATTERN`, `FOLLOW_CURSOR_PATTERN`; any string they admit is accepted):
never offsets, so a follow arriving meanwhile shifts nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from feedloom.domain.errors import BadCursor
from feedloom.domain.ids import ID, parse_id
from feedloom.domain.patterns import decimal_up_to, whole

MAX_FOLLOWERS = 2**31 - 1  # the store's follower count is a 32-bit integer
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MAX_MICROS = (datetime(9999, 12, 31, tzinfo=UTC) - EPOCH) // timedelta(microseconds=1)
SEARCH_CURSOR_PATTERN = whole(f"r(?:0|{decimal_up_to(MAX_FOLLOWERS)})\\.(?:{ID})")
FOLLOW_CURSOR_PATTERN = whole(f"f(?:0|{decimal_up_to(MAX_MICROS)})\\.(?:{ID})")


@dataclass(frozen=True, slots=True)
class RankKey:
    """A search result's place: more followers first, then lower id."""

    followers: int
    user_id: int


@dataclass(frozen=True, slots=True)
class FollowKey:
    """A follow's place in a list: newest first (a block's, a mute's, a like's too)."""

    at: datetime
    user_id: int


@dataclass(frozen=True, slots=True)
class RepostKey:
    """A repost's place in a post's reposters: newest first, by the repost's ID."""

    repost_id: int
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
    return f"r{key.followers}.{key.user_id}"


def decode_rank(cursor: str | None) -> RankKey | None:
    if cursor is None:
        return None
    followers, user_id = _pair(SEARCH_CURSOR_PATTERN, cursor, "a search cursor")
    return RankKey(followers, user_id)


def encode_follow(key: FollowKey) -> str:
    return f"f{(key.at - EPOCH) // timedelta(microseconds=1)}.{key.user_id}"


def decode_follow(cursor: str | None) -> FollowKey | None:
    if cursor is None:
        return None
    micros, user_id = _pair(FOLLOW_CURSOR_PATTERN, cursor, "a followers or following cursor")
    return FollowKey(EPOCH + timedelta(microseconds=micros), user_id)


def _pair(pattern: str, cursor: str, kind: str) -> tuple[int, int]:
    if re.fullmatch(pattern, cursor) is None:
        raise BadCursor(f"this cursor is not {kind}")
    first, second = cursor[1:].split(".")
    return int(first), int(second)


def decode_repost(cursor: str | None) -> int | None:
    if cursor is None:
        return None
    try:
        return parse_id(cursor)
    except ValueError as error:
        raise BadCursor("this cursor is not a reposters cursor") from error
