from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RelationOut")


@_attrs_define
class RelationOut:
    """The viewer's relations with this account, as stored now. A block by the account
    is not among them: such a profile answers 404, like a missing one.

        Attributes:
            blocking (bool): you block this account (its posts stay hidden)
            followed_by (bool): this account follows you
            following (bool): you follow this account
            muting (bool): you mute this account (its posts leave your feed)
    """

    blocking: bool
    followed_by: bool
    following: bool
    muting: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        blocking = self.blocking

        followed_by = self.followed_by

        following = self.following

        muting = self.muting

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "blocking": blocking,
                "followed_by": followed_by,
                "following": following,
                "muting": muting,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        blocking = d.pop("blocking")

        followed_by = d.pop("followed_by")

        following = d.pop("following")

        muting = d.pop("muting")

        relation_out = cls(
            blocking=blocking,
            followed_by=followed_by,
            following=following,
            muting=muting,
        )

        relation_out.additional_properties = d
        return relation_out

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
