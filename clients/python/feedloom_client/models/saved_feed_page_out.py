from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.feed_order import FeedOrder, check_feed_order

if TYPE_CHECKING:
    from ..models.feed_item_out import FeedItemOut


T = TypeVar("T", bound="SavedFeedPageOut")


@_attrs_define
class SavedFeedPageOut:
    """A page of a list, saved or generator feed (as GET /v1/feed's).

    Attributes:
        items (list[FeedItemOut]):
        next_cursor (None | str):
        order (FeedOrder | None): null: a generator's own order
    """

    items: list[FeedItemOut]
    next_cursor: None | str
    order: FeedOrder | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        order: None | str
        if isinstance(self.order, str):
            order = self.order
        else:
            order = self.order

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "items": items,
                "next_cursor": next_cursor,
                "order": order,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.feed_item_out import FeedItemOut  # noqa: PLC0415

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

        def _parse_order(data: object) -> FeedOrder | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                order_type_0 = check_feed_order(data)

                return order_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FeedOrder | None, data)

        order = _parse_order(d.pop("order"))

        saved_feed_page_out = cls(
            items=items,
            next_cursor=next_cursor,
            order=order,
        )

        saved_feed_page_out.additional_properties = d
        return saved_feed_page_out

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
