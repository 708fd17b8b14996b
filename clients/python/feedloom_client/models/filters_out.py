from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="FiltersOut")


@_attrs_define
class FiltersOut:
    """
    Attributes:
        media_only (bool):
        muted_words (list[str]):
        no_replies (bool):
        no_reposts (bool):
    """

    media_only: bool
    muted_words: list[str]
    no_replies: bool
    no_reposts: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        media_only = self.media_only

        muted_words = self.muted_words

        no_replies = self.no_replies

        no_reposts = self.no_reposts

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "media_only": media_only,
                "muted_words": muted_words,
                "no_replies": no_replies,
                "no_reposts": no_reposts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        media_only = d.pop("media_only")

        muted_words = cast(list[str], d.pop("muted_words"))

        no_replies = d.pop("no_replies")

        no_reposts = d.pop("no_reposts")

        filters_out = cls(
            media_only=media_only,
            muted_words=muted_words,
            no_replies=no_replies,
            no_reposts=no_reposts,
        )

        filters_out.additional_properties = d
        return filters_out

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
