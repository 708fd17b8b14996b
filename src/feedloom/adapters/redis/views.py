"""How post and profile views are stored in Redis (the same for every reader; per-reader
flags such as liked_by_me are added on read): compact JSON arrays, decoded straight
into the domain objects.

Each array begins with its shape's tag: a view of a shape this code does not know
(written by an older or newer version during a rolling deploy) is a miss, reloaded
from the durable store and written again, never a crash or a wrong field."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import orjson

from feedloom.adapters.redis.caches import Codec
from feedloom.domain.facets import facets_from_json, facets_json
from feedloom.domain.ids import created_at_of
from feedloom.domain.model import Media, MediaSize, Post, UserProfile, Visibility

POST_SHAPE = "p7"  # a new field or order: a new tag (p6: facets, p7: `edited_at`)
PROFILE_SHAPE = "u3"
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MICROSECOND = timedelta(microseconds=1)


def dump_post(post: Post) -> bytes:
    return orjson.dumps(
        [
            POST_SHAPE,
            post.author_id,
            post.text,
            post.visibility.value,
            [_dump_media(m) for m in post.media],
            post.deleted,
            post.author_suspended,
            post.held,
            post.in_reply_to,
            post.reply_to_author,
            post.repost_of,
            post.quote_of,
            post.reposts,
            post.quotes,
            facets_json(post.facets),
            _micros(post.edited_at),
        ]
    )


def load_post(post_id: int, data: bytes) -> Post | None:
    fields = orjson.loads(data)
    if fields[0] != POST_SHAPE:
        return None
    _, author_id, text, visibility, media, deleted, suspended, held, *linked = fields
    in_reply_to, reply_to_author, repost_of, quote_of, reposts, quotes, *rest = linked
    facets, edited_at = rest
    return Post(
        id=post_id,
        author_id=author_id,
        text=text,
        visibility=Visibility(visibility),
        created_at=created_at_of(post_id),
        media=tuple(_load_media(item) for item in media),
        deleted=deleted,
        author_suspended=suspended,
        held=held,
        in_reply_to=in_reply_to,
        reply_to_author=reply_to_author,
        repost_of=repost_of,
        quote_of=quote_of,
        reposts=reposts,
        quotes=quotes,
        facets=facets_from_json(facets),
        edited_at=_time(edited_at),
    )


def _micros(at: datetime | None) -> int | None:
    return None if at is None else (at - EPOCH) // MICROSECOND


def _time(micros: int | None) -> datetime | None:
    return None if micros is None else EPOCH + micros * MICROSECOND


def _dump_media(media: Media) -> list[object]:
    sizes = [[s.url, s.width, s.height] for s in media.sizes]
    return [media.id, media.url, media.width, media.height, media.alt, sizes, media.pending]


def _load_media(item: list[Any]) -> Media:
    media_id, url, width, height, alt, sizes, pending = item
    return Media(media_id, url, width, height, alt, tuple(MediaSize(*s) for s in sizes), pending)


def dump_profile(profile: UserProfile) -> bytes:
    return orjson.dumps(
        [
            PROFILE_SHAPE,
            profile.username,
            profile.display_name,
            profile.avatar,
            profile.followers,
            profile.following,
            profile.pulled,
            profile.suspended,
            profile.bio,
            profile.flagged,
            profile.deleted,
        ]
    )


def load_profile(user_id: int, data: bytes) -> UserProfile | None:
    fields = orjson.loads(data)
    if fields[0] != PROFILE_SHAPE:
        return None
    _, username, display_name, avatar, followers, following, pulled, *flags = fields
    suspended, bio, flagged, deleted = flags
    return UserProfile(
        user_id,
        username,
        display_name,
        avatar,
        followers,
        following,
        pulled,
        suspended,
        bio,
        flagged,
        deleted,
    )


POSTS: Codec[Post] = Codec(dump_post, load_post)
PROFILES: Codec[UserProfile] = Codec(dump_profile, load_profile)
