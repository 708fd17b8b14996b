"""How post and profile views are stored in Redis (the same for every reader; per-reader
flags such as liked_by_me are added on read): compact JSON arrays, decoded straight
into the domain objects."""

from __future__ import annotations

from typing import Any

import orjson

from feedloom.adapters.redis.caches import Codec
from feedloom.domain.ids import created_at_of
from feedloom.domain.model import Media, MediaSize, Post, UserProfile, Visibility


def dump_post(post: Post) -> bytes:
    return orjson.dumps(
        [
            post.author_id,
            post.text,
            post.visibility.value,
            [_dump_media(m) for m in post.media],
            post.deleted,
            post.author_suspended,
            post.held,
            post.in_reply_to,
            post.reply_to_author,
        ]
    )


def load_post(post_id: int, data: bytes) -> Post:
    # `*rest`: views cached before the suspension and held flags, and before replies,
    # have fewer fields (no reply was cached before replies existed).
    author_id, text, visibility, media, deleted, *rest = orjson.loads(data)
    in_reply_to, reply_to_author = (rest[2], rest[3]) if len(rest) > 3 else (None, None)
    return Post(
        id=post_id,
        author_id=author_id,
        text=text,
        visibility=Visibility(visibility),
        created_at=created_at_of(post_id),
        media=tuple(_load_media(item) for item in media),
        deleted=deleted,
        author_suspended=bool(rest and rest[0]),
        held=len(rest) > 1 and bool(rest[1]),
        in_reply_to=in_reply_to,
        reply_to_author=reply_to_author,
    )


def _dump_media(media: Media) -> list[object]:
    sizes = [[s.url, s.width, s.height] for s in media.sizes]
    return [media.id, media.url, media.width, media.height, media.alt, sizes]


def _load_media(item: list[Any]) -> Media:
    # Views cached before alt text and sizes hold [id, url, w, h] only.
    media_id, url, width, height, *rest = item
    alt, sizes = (rest[0], rest[1]) if rest else ("", [])
    return Media(media_id, url, width, height, alt, tuple(MediaSize(*s) for s in sizes))


def dump_profile(profile: UserProfile) -> bytes:
    return orjson.dumps(
        [
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


def load_profile(user_id: int, data: bytes) -> UserProfile:
    # `*rest`: views cached before the suspension flag, the bio, the suspicious flag and
    # the deletion flag hold fewer fields.
    username, display_name, avatar, followers, following, pulled, *rest = orjson.loads(data)
    suspended = bool(rest and rest[0])
    bio = rest[1] if len(rest) > 1 else ""
    flagged = len(rest) > 2 and bool(rest[2])
    deleted = len(rest) > 3 and bool(rest[3])
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
