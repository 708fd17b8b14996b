from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.feed_order import FeedOrder, check_feed_order
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.feed_item_out import FeedItemOut
    from ..models.feed_page_out_filtered_type_0 import FeedPageOutFilteredType0


T = TypeVar("T", bound="FeedPageOut")


@_attrs_define
class FeedPageOut:
    """Page, plus what ?explain=true adds.

    Attributes:
        items (list[FeedItemOut]):
        next_cursor (None | str):
        order (FeedOrder):
        fallback (None | str | Unset): why a ranked feed was served in time order: `error` or `timeout` (the ranker),
            `session_lost` (a ranked cursor's session is gone: the page goes on below the oldest post the session served,
            and next_cursor is a time-order cursor)
        filtered (FeedPageOutFilteredType0 | None | Unset): only with ?explain=true: candidates dropped at read time, by
            reason
    """

    items: list[FeedItemOut]
    next_cursor: None | str
    order: FeedOrder
    fallback: None | str | Unset = UNSET
    filtered: FeedPageOutFilteredType0 | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.feed_page_out_filtered_type_0 import FeedPageOutFilteredType0  # noqa: PLC0415

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        order: str = self.order

        fallback: None | str | Unset
        if isinstance(self.fallback, Unset):
            fallback = UNSET
        else:
            fallback = self.fallback

        filtered: dict[str, Any] | None | Unset
        if isinstance(self.filtered, Unset):
            filtered = UNSET
        elif isinstance(self.filtered, FeedPageOutFilteredType0):
            filtered = self.filtered.to_dict()
        else:
            filtered = self.filtered

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "items": items,
                "next_cursor": next_cursor,
                "order": order,
            }
        )
        if fallback is not UNSET:
            field_dict["fallback"] = fallback
        if filtered is not UNSET:
            field_dict["filtered"] = filtered

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.feed_item_out import FeedItemOut  # noqa: PLC0415
        from ..models.feed_page_out_filtered_type_0 import FeedPageOutFilteredType0  # noqa: PLC0415

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = FeedItemOut.from_dict(items_item_data)

            items.append(items_item)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        order = check_feed_order(d.pop("order"))

        def _parse_fallback(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        fallback = _parse_fallback(d.pop("fallback", UNSET))

        def _parse_filtered(data: object) -> FeedPageOutFilteredType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                filtered_type_0 = FeedPageOutFilteredType0.from_dict(data)

                return filtered_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FeedPageOutFilteredType0 | None | Unset, data)

        filtered = _parse_filtered(d.pop("filtered", UNSET))

        feed_page_out = cls(
            items=items,
            next_cursor=next_cursor,
            order=order,
            fallback=fallback,
            filtered=filtered,
        )

        feed_page_out.additional_properties = d
        return feed_page_out

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
