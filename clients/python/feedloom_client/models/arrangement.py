from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.arranged import Arranged


T = TypeVar("T", bound="Arrangement")


@_attrs_define
class Arrangement:
    """
    Attributes:
        feeds (list[Arranged]): every saved feed of yours once, in the order wanted
    """

    feeds: list[Arranged]

    def to_dict(self) -> dict[str, Any]:
        feeds = []
        for feeds_item_data in self.feeds:
            feeds_item = feeds_item_data.to_dict()
            feeds.append(feeds_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "feeds": feeds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.arranged import Arranged  # noqa: PLC0415

        d = dict(src_dict)
        feeds = []
        _feeds = d.pop("feeds")
        for feeds_item_data in _feeds:
            feeds_item = Arranged.from_dict(feeds_item_data)

            feeds.append(feeds_item)

        arrangement = cls(
            feeds=feeds,
        )

        return arrangement
