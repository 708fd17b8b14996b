"""Serialized shared views for the post and user caches (the same for every reader;
per-reader flags such as liked_by_me are added on read)."""

from __future__ import annotations

import orjson

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
        ]
    )


def load_post(post_id: int, data: bytes) -> Post:
    author_id, text, visibility, media, deleted = orjson.loads(data)
    return Post(
        id=post_id,
        author_id=author_id,
        text=text,
        visibility=Visibility(visibility),
        created_at=created_at_of(post_id),
        media=tuple(Media(*item) for item in media),
        deleted=deleted,
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
            profile.bio,
        ]
    )


def load_profile(user_id: int, data: bytes) -> UserProfile:
    # Views cached before bios existed have six fields: read as an empty bio.
    username, display_name, avatar, followers, following, pulled, *rest = orjson.loads(data)
    bio = rest[0] if rest else ""
    return UserProfile(user_id, username, display_name, avatar, followers, following, pulled, bio)
