from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="LinkFacet")


@_attrs_define
class LinkFacet:
    """offsets in Unicode code points (not UTF-16 units, not bytes) into `text`, `end` exclusive: `text[start:end]` in
    Python, `Array.from(text).slice(start, end)` in JavaScript

        Attributes:
            end (int):
            start (int):
            type_ (Literal['link']):
            url (str): an http or https URL, as written
    """

    end: int
    start: int
    type_: Literal["link"]
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        end = self.end

        start = self.start

        type_ = self.type_

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "end": end,
                "start": start,
                "type": type_,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        end = d.pop("end")

        start = d.pop("start")

        type_ = cast(Literal["link"], d.pop("type"))
        if type_ != "link":
            raise ValueError(f"type must match const 'link', got '{type_}'")

        url = d.pop("url")

        link_facet = cls(
            end=end,
            start=start,
            type_=type_,
            url=url,
        )

        link_facet.additional_properties = d
        return link_facet

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
