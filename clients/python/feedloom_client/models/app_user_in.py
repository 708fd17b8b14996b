from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="AppUserIn")


@_attrs_define
class AppUserIn:
    """
    Attributes:
        username (str): 3-32 letters, digits or underscores
        avatar_url (None | str | Unset): an http(s) image URL
        display_name (str | Unset): default: the username Default: ''.
    """

    username: str
    avatar_url: None | str | Unset = UNSET
    display_name: str | Unset = ""

    def to_dict(self) -> dict[str, Any]:
        username = self.username

        avatar_url: None | str | Unset
        if isinstance(self.avatar_url, Unset):
            avatar_url = UNSET
        else:
            avatar_url = self.avatar_url

        display_name = self.display_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "username": username,
            }
        )
        if avatar_url is not UNSET:
            field_dict["avatar_url"] = avatar_url
        if display_name is not UNSET:
            field_dict["display_name"] = display_name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        username = d.pop("username")

        def _parse_avatar_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        avatar_url = _parse_avatar_url(d.pop("avatar_url", UNSET))

        display_name = d.pop("display_name", UNSET)

        app_user_in = cls(
            username=username,
            avatar_url=avatar_url,
            display_name=display_name,
        )

        return app_user_in
