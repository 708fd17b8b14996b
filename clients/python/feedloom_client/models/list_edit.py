from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.reply_policy import ReplyPolicy, check_reply_policy
from ..types import UNSET, Unset

T = TypeVar("T", bound="ListEdit")


@_attrs_define
class ListEdit:
    """Only the fields sent change.

    Attributes:
        exclusive (bool | None | Unset):
        replies (None | ReplyPolicy | Unset):
        title (None | str | Unset):
    """

    exclusive: bool | None | Unset = UNSET
    replies: None | ReplyPolicy | Unset = UNSET
    title: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        exclusive: bool | None | Unset
        if isinstance(self.exclusive, Unset):
            exclusive = UNSET
        else:
            exclusive = self.exclusive

        replies: None | str | Unset
        if isinstance(self.replies, Unset):
            replies = UNSET
        elif isinstance(self.replies, str):
            replies = self.replies
        else:
            replies = self.replies

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if exclusive is not UNSET:
            field_dict["exclusive"] = exclusive
        if replies is not UNSET:
            field_dict["replies"] = replies
        if title is not UNSET:
            field_dict["title"] = title

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_exclusive(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        exclusive = _parse_exclusive(d.pop("exclusive", UNSET))

        def _parse_replies(data: object) -> None | ReplyPolicy | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                replies_type_0 = check_reply_policy(data)

                return replies_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReplyPolicy | Unset, data)

        replies = _parse_replies(d.pop("replies", UNSET))

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        list_edit = cls(
            exclusive=exclusive,
            replies=replies,
            title=title,
        )

        return list_edit
