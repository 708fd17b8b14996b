from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.reply_author import ReplyAuthor


T = TypeVar("T", bound="InReplyTo")


@_attrs_define
class InReplyTo:
    """
    Attributes:
        author (ReplyAuthor):
        post_id (str):
    """

    author: ReplyAuthor
    post_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        author = self.author.to_dict()

        post_id = self.post_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "author": author,
                "post_id": post_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.reply_author import ReplyAuthor  # noqa: PLC0415

        d = dict(src_dict)
        author = ReplyAuthor.from_dict(d.pop("author"))

        post_id = d.pop("post_id")

        in_reply_to = cls(
            author=author,
            post_id=post_id,
        )

        in_reply_to.additional_properties = d
        return in_reply_to

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
