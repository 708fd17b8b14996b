from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.reply_policy import ReplyPolicy, check_reply_policy
from ..types import UNSET, Unset

T = TypeVar("T", bound="NewList")


@_attrs_define
class NewList:
    """
    Attributes:
        title (str):
        exclusive (bool | Unset): members' posts leave your home feed Default: False.
        replies (ReplyPolicy | Unset): Which replies a list feed shows (as Mastodon's lists): replies to anyone the
            reader follows, to members of the list only, or none.
    """

    title: str
    exclusive: bool | Unset = False
    replies: ReplyPolicy | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        title = self.title

        exclusive = self.exclusive

        replies: str | Unset = UNSET
        if not isinstance(self.replies, Unset):
            replies = self.replies

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "title": title,
            }
        )
        if exclusive is not UNSET:
            field_dict["exclusive"] = exclusive
        if replies is not UNSET:
            field_dict["replies"] = replies

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        title = d.pop("title")

        exclusive = d.pop("exclusive", UNSET)

        _replies = d.pop("replies", UNSET)
        replies: ReplyPolicy | Unset
        if isinstance(_replies, Unset):
            replies = UNSET
        else:
            replies = check_reply_policy(_replies)

        new_list = cls(
            title=title,
            exclusive=exclusive,
            replies=replies,
        )

        return new_list
