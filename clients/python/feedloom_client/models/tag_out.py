from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TagOut")


@_attrs_define
class TagOut:
    """
    Attributes:
        followed_by_me (bool):
        name (str): the tag's normal form (NFKC, case-folded), without `#`
        posts_count (int): live public posts with the tag
    """

    followed_by_me: bool
    name: str
    posts_count: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        followed_by_me = self.followed_by_me

        name = self.name

        posts_count = self.posts_count

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "followed_by_me": followed_by_me,
                "name": name,
                "posts_count": posts_count,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        followed_by_me = d.pop("followed_by_me")

        name = d.pop("name")

        posts_count = d.pop("posts_count")

        tag_out = cls(
            followed_by_me=followed_by_me,
            name=name,
            posts_count=posts_count,
        )

        tag_out.additional_properties = d
        return tag_out

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
