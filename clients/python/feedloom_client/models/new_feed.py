from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.feed_order import FeedOrder, check_feed_order
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.filters_in import FiltersIn


T = TypeVar("T", bound="NewFeed")


@_attrs_define
class NewFeed:
    """
    Attributes:
        name (str):
        sources (list[str]): `home`, `list:{id}`, `author:{id}`, `tag:{name}`, `generator:{uri}` (a generator source
            stands alone)
        filters (FiltersIn | Unset):
        order (FeedOrder | None | Unset): null: your home feed's order; a generator feed keeps its own
    """

    name: str
    sources: list[str]
    filters: FiltersIn | Unset = UNSET
    order: FeedOrder | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        sources = self.sources

        filters: dict[str, Any] | Unset = UNSET
        if not isinstance(self.filters, Unset):
            filters = self.filters.to_dict()

        order: None | str | Unset
        if isinstance(self.order, Unset):
            order = UNSET
        elif isinstance(self.order, str):
            order = self.order
        else:
            order = self.order

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "sources": sources,
            }
        )
        if filters is not UNSET:
            field_dict["filters"] = filters
        if order is not UNSET:
            field_dict["order"] = order

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.filters_in import FiltersIn  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        sources = cast(list[str], d.pop("sources"))

        _filters = d.pop("filters", UNSET)
        filters: FiltersIn | Unset
        if isinstance(_filters, Unset):
            filters = UNSET
        else:
            filters = FiltersIn.from_dict(_filters)

        def _parse_order(data: object) -> FeedOrder | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                order_type_0 = check_feed_order(data)

                return order_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FeedOrder | None | Unset, data)

        order = _parse_order(d.pop("order", UNSET))

        new_feed = cls(
            name=name,
            sources=sources,
            filters=filters,
            order=order,
        )

        return new_feed
