from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.author import Author


T = TypeVar("T", bound="LikedByReason")


@_attrs_define
class LikedByReason:
    """
    Attributes:
        liked_by (list[Author]): ranked home feed: people you follow who liked this post lately (up to 3)
    """

    liked_by: list[Author]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        liked_by = []
        for liked_by_item_data in self.liked_by:
            liked_by_item = liked_by_item_data.to_dict()
            liked_by.append(liked_by_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "liked_by": liked_by,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.author import Author  # noqa: PLC0415

        d = dict(src_dict)
        liked_by = []
        _liked_by = d.pop("liked_by")
        for liked_by_item_data in _liked_by:
            liked_by_item = Author.from_dict(liked_by_item_data)

            liked_by.append(liked_by_item)

        liked_by_reason = cls(
            liked_by=liked_by,
        )

        liked_by_reason.additional_properties = d
        return liked_by_reason

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
