"""Serialized shared views for the post and user caches (the same for every reader;
per-reader flags such as liked_by_me are added on read)."""

from __future__ import annotations

from typing import Any

import orjson

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
        media=tuple(_load_media(item) for item in media),
        deleted=deleted,
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
            profile.bio,
        ]
    )


def load_profile(user_id: int, data: bytes) -> UserProfile:
    # Views cached before bios existed have six fields: read as an empty bio.
    username, display_name, avatar, followers, following, pulled, *rest = orjson.loads(data)
    bio = rest[0] if rest else ""
    return UserProfile(user_id, username, display_name, avatar, followers, following, pulled, bio)
