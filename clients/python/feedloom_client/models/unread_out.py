from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="UnreadOut")


@_attrs_define
class UnreadOut:
    """
    Attributes:
        unread_count (int):
        up_to (str): the read marker: the newest notification ID read
    """

    unread_count: int
    up_to: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        unread_count = self.unread_count

        up_to = self.up_to

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "unread_count": unread_count,
                "up_to": up_to,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        unread_count = d.pop("unread_count")

        up_to = d.pop("up_to")

        unread_out = cls(
            unread_count=unread_count,
            up_to=up_to,
        )

        unread_out.additional_properties = d
        return unread_out

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
