from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ProfileEdit")


@_attrs_define
class ProfileEdit:
    """Only the fields sent change; `avatar_media_id: null` removes the avatar.

    Attributes:
        avatar_media_id (None | str | Unset): an image you uploaded with POST /v1/media (404 if not)
        bio (None | str | Unset):
        display_name (None | str | Unset):
    """

    avatar_media_id: None | str | Unset = UNSET
    bio: None | str | Unset = UNSET
    display_name: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        avatar_media_id: None | str | Unset
        if isinstance(self.avatar_media_id, Unset):
            avatar_media_id = UNSET
        else:
            avatar_media_id = self.avatar_media_id

        bio: None | str | Unset
        if isinstance(self.bio, Unset):
            bio = UNSET
        else:
            bio = self.bio

        display_name: None | str | Unset
        if isinstance(self.display_name, Unset):
            display_name = UNSET
        else:
            display_name = self.display_name

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if avatar_media_id is not UNSET:
            field_dict["avatar_media_id"] = avatar_media_id
        if bio is not UNSET:
            field_dict["bio"] = bio
        if display_name is not UNSET:
            field_dict["display_name"] = display_name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_avatar_media_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        avatar_media_id = _parse_avatar_media_id(d.pop("avatar_media_id", UNSET))

        def _parse_bio(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        bio = _parse_bio(d.pop("bio", UNSET))

        def _parse_display_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        display_name = _parse_display_name(d.pop("display_name", UNSET))

        profile_edit = cls(
            avatar_media_id=avatar_media_id,
            bio=bio,
            display_name=display_name,
        )

        return profile_edit
