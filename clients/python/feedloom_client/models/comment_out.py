from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CommentOut")


@_attrs_define
class CommentOut:
    """
    Attributes:
        author_id (str):
        created_at (datetime.datetime):
        id (str):
        post_id (str):
        text (str):
    """

    author_id: str
    created_at: datetime.datetime
    id: str
    post_id: str
    text: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        author_id = self.author_id

        created_at = self.created_at.isoformat()

        id = self.id

        post_id = self.post_id

        text = self.text

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "author_id": author_id,
                "created_at": created_at,
                "id": id,
                "post_id": post_id,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        author_id = d.pop("author_id")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        id = d.pop("id")

        post_id = d.pop("post_id")

        text = d.pop("text")

        comment_out = cls(
            author_id=author_id,
            created_at=created_at,
            id=id,
            post_id=post_id,
            text=text,
        )

        comment_out.additional_properties = d
        return comment_out

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
