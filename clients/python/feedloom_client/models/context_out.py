from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.item import Item


T = TypeVar("T", bound="ContextOut")


@_attrs_define
class ContextOut:
    """
    Attributes:
        ancestors (list[Item]): root first; on the first page only
        descendants (list[Item]): depth first, each post's replies oldest first
        next_cursor (None | str):
    """

    ancestors: list[Item]
    descendants: list[Item]
    next_cursor: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        ancestors = []
        for ancestors_item_data in self.ancestors:
            ancestors_item = ancestors_item_data.to_dict()
            ancestors.append(ancestors_item)

        descendants = []
        for descendants_item_data in self.descendants:
            descendants_item = descendants_item_data.to_dict()
            descendants.append(descendants_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "ancestors": ancestors,
                "descendants": descendants,
                "next_cursor": next_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.item import Item  # noqa: PLC0415

        d = dict(src_dict)
        ancestors = []
        _ancestors = d.pop("ancestors")
        for ancestors_item_data in _ancestors:
            ancestors_item = Item.from_dict(ancestors_item_data)

            ancestors.append(ancestors_item)

        descendants = []
        _descendants = d.pop("descendants")
        for descendants_item_data in _descendants:
            descendants_item = Item.from_dict(descendants_item_data)

            descendants.append(descendants_item)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        context_out = cls(
            ancestors=ancestors,
            descendants=descendants,
            next_cursor=next_cursor,
        )

        context_out.additional_properties = d
        return context_out

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
