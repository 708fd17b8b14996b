from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="NewPostsOut")


@_attrs_define
class NewPostsOut:
    """
    Attributes:
        count (int): posts above `since` on your top page (at most 50)
        newest_id (None | str): the newest of them; null when count is 0
    """

    count: int
    newest_id: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        newest_id: None | str
        newest_id = self.newest_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "count": count,
                "newest_id": newest_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        count = d.pop("count")

        def _parse_newest_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        newest_id = _parse_newest_id(d.pop("newest_id"))

        new_posts_out = cls(
            count=count,
            newest_id=newest_id,
        )

        new_posts_out.additional_properties = d
        return new_posts_out

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
