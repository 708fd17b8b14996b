from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.feed_order import FeedOrder, check_feed_order

if TYPE_CHECKING:
    from ..models.filters_out import FiltersOut


T = TypeVar("T", bound="FeedOut")


@_attrs_define
class FeedOut:
    """
    Attributes:
        filters (FiltersOut):
        id (str):
        name (str):
        order (FeedOrder | None):
        pinned (bool):
        sources (list[str]):
    """

    filters: FiltersOut
    id: str
    name: str
    order: FeedOrder | None
    pinned: bool
    sources: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        filters = self.filters.to_dict()

        id = self.id

        name = self.name

        order: None | str
        if isinstance(self.order, str):
            order = self.order
        else:
            order = self.order

        pinned = self.pinned

        sources = self.sources

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "filters": filters,
                "id": id,
                "name": name,
                "order": order,
                "pinned": pinned,
                "sources": sources,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.filters_out import FiltersOut  # noqa: PLC0415

        d = dict(src_dict)
        filters = FiltersOut.from_dict(d.pop("filters"))

        id = d.pop("id")

        name = d.pop("name")

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

        pinned = d.pop("pinned")

        sources = cast(list[str], d.pop("sources"))

        feed_out = cls(
            filters=filters,
            id=id,
            name=name,
            order=order,
            pinned=pinned,
            sources=sources,
        )

        feed_out.additional_properties = d
        return feed_out

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
