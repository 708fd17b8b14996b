from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MentionFacet")


@_attrs_define
class MentionFacet:
    """offsets in Unicode code points (not UTF-16 units, not bytes) into `text`, `end` exclusive: `text[start:end]` in
    Python, `Array.from(text).slice(start, end)` in JavaScript

        Attributes:
            end (int):
            id (str): the account mentioned, resolved when the text was written
            start (int):
            type_ (Literal['mention']):
            username (str):
    """

    end: int
    id: str
    start: int
    type_: Literal["mention"]
    username: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        end = self.end

        id = self.id

        start = self.start

        type_ = self.type_

        username = self.username

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "end": end,
                "id": id,
                "start": start,
                "type": type_,
                "username": username,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        end = d.pop("end")

        id = d.pop("id")

        start = d.pop("start")

        type_ = cast(Literal["mention"], d.pop("type"))
        if type_ != "mention":
            raise ValueError(f"type must match const 'mention', got '{type_}'")

        username = d.pop("username")

        mention_facet = cls(
            end=end,
            id=id,
            start=start,
            type_=type_,
            username=username,
        )

        mention_facet.additional_properties = d
        return mention_facet

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
