from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.reply_policy import ReplyPolicy, check_reply_policy

T = TypeVar("T", bound="ListOut")


@_attrs_define
class ListOut:
    """
    Attributes:
        exclusive (bool):
        id (str):
        members (int):
        replies (ReplyPolicy): Which replies a list feed shows (as Mastodon's lists): replies to anyone the
            reader follows, to members of the list only, or none.
        title (str):
    """

    exclusive: bool
    id: str
    members: int
    replies: ReplyPolicy
    title: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        exclusive = self.exclusive

        id = self.id

        members = self.members

        replies: str = self.replies

        title = self.title

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "exclusive": exclusive,
                "id": id,
                "members": members,
                "replies": replies,
                "title": title,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        exclusive = d.pop("exclusive")

        id = d.pop("id")

        members = d.pop("members")

        replies = check_reply_policy(d.pop("replies"))

        title = d.pop("title")

        list_out = cls(
            exclusive=exclusive,
            id=id,
            members=members,
            replies=replies,
            title=title,
        )

        list_out.additional_properties = d
        return list_out

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
