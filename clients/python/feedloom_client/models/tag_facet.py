from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TagFacet")


@_attrs_define
class TagFacet:
    """offsets in Unicode code points (not UTF-16 units, not bytes) into `text`, `end` exclusive: `text[start:end]` in
    Python, `Array.from(text).slice(start, end)` in JavaScript

        Attributes:
            end (int):
            start (int):
            tag (str): the tag's name: NFKC-normalised and casefolded
            type_ (Literal['tag']):
    """

    end: int
    start: int
    tag: str
    type_: Literal["tag"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        end = self.end

        start = self.start

        tag = self.tag

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "end": end,
                "start": start,
                "tag": tag,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        end = d.pop("end")

        start = d.pop("start")

        tag = d.pop("tag")

        type_ = cast(Literal["tag"], d.pop("type"))
        if type_ != "tag":
            raise ValueError(f"type must match const 'tag', got '{type_}'")

        tag_facet = cls(
            end=end,
            start=start,
            tag=tag,
            type_=type_,
        )

        tag_facet.additional_properties = d
        return tag_facet

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
