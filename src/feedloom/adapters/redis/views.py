"""How post and profile views are stored in Redis (the same for every reader; per-reader
flags such as liked_by_me are added on read): compact JSON arrays, decoded straight
into the domain objects."""

from __future__ import annotations

import orjson

from feedloom.adapters.redis.caches import Codec
from feedloom.domain.ids import created_at_of
from feedloom.domain.model import Media, Post, UserProfile, Visibility


def dump_post(post: Post) -> bytes:
    return orjson.dumps(
        [
            post.author_id,
            post.text,
            post.visibility.value,
            [[m.id, m.url, m.width, m.height] for m in post.media],
            post.deleted,
            post.author_suspended,
        ]
    )


def load_post(post_id: int, data: bytes) -> Post:
    # `*rest`: views cached before the suspension flag existed have one field less.
    author_id, text, visibility, media, deleted, *rest = orjson.loads(data)
    return Post(
        id=post_id,
        author_id=author_id,
        text=text,
        visibility=Visibility(visibility),
        created_at=created_at_of(post_id),
        media=tuple(Media(*item) for item in media),
        deleted=deleted,
        author_suspended=bool(rest and rest[0]),
    )


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
        ]
    )


def load_profile(user_id: int, data: bytes) -> UserProfile:
    username, display_name, avatar, followers, following, pulled, *rest = orjson.loads(data)
    return UserProfile(
        user_id,
        username,
        display_name,
        avatar,
        followers,
        following,
        pulled,
        bool(rest and rest[0]),
    )


POSTS: Codec[Post] = Codec(dump_post, load_post)
PROFILES: Codec[UserProfile] = Codec(dump_profile, load_profile)
