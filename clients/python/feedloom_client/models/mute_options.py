from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MuteOptions")


@_attrs_define
class MuteOptions:
    """
    Attributes:
        notifications (bool | Unset): the mute silences their notifications too (false: the feed only) Default: True.
    """

    notifications: bool | Unset = True

    def to_dict(self) -> dict[str, Any]:
        notifications = self.notifications

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if notifications is not UNSET:
            field_dict["notifications"] = notifications

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        notifications = d.pop("notifications", UNSET)

        mute_options = cls(
            notifications=notifications,
        )

        return mute_options
