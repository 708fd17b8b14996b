"""PATCH /v1/me: edit one's display name, bio and avatar.

The avatar is an image the user uploaded (POST /v1/media, like post media); any other
ID is refused. The cached profile view is dropped after the commit, so every feed item
shows the new name and avatar on its next read.
"""

from __future__ import annotations

from dataclasses import replace

from feedloom.domain.errors import InvalidInput, NotFound
from feedloom.domain.ids import parse_id
from feedloom.domain.model import Media
from feedloom.lookups.cached_views import Views
from feedloom.ports import OwnedMedia, ProfileChanges, ProfileEditor
from feedloom.write.media_jobs import AVATAR_WIDTH

NAME_MAX, BIO_MAX = 64, 300


class EditProfile:
    def __init__(self, editor: ProfileEditor, media: OwnedMedia, views: Views) -> None:
        self._editor, self._media, self._views = editor, media, views

    async def __call__(
        self,
        user_id: int,
        display_name: str | None = None,
        bio: str | None = None,
        *,
        set_avatar: bool = False,
        avatar_media_id: str | None = None,
    ) -> None:
        avatar = await self._avatar(user_id, avatar_media_id) if set_avatar else None
        changes = ProfileChanges(
            display_name=_name(display_name),
            bio=_bio(bio),
            set_avatar=set_avatar,
            avatar=avatar.url if avatar else None,
            avatar_media_id=avatar.id if avatar else None,
        )
        await self._editor.update_profile(user_id, changes)
        await self._views.forget_profiles([user_id])

    async def _avatar(self, user_id: int, media_id: str | None) -> Media | None:
        if media_id is None:
            return None  # remove the avatar
        try:
            wanted = parse_id(media_id)
        except ValueError as error:
            raise InvalidInput(f"avatar_media_id: {error}") from error
        owned = await self._media.media_owned_by(user_id, [wanted])
        if not owned:
            raise NotFound("avatar_media_id must name an image you uploaded")
        # Its 96 px copy becomes the avatar once the worker made it (media_jobs.py).
        small = [s for s in owned[0].sizes if s.width == AVATAR_WIDTH]
        return replace(owned[0], url=small[0].url) if small else owned[0]


def _name(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    if not 1 <= len(value) <= NAME_MAX:
        raise InvalidInput(f"display_name must be 1-{NAME_MAX} characters")
    return value


def _bio(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    if len(value) > BIO_MAX:
        raise InvalidInput(f"bio must be at most {BIO_MAX} characters")
    return value
