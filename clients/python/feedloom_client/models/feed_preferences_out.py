from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.feed_order import FeedOrder, check_feed_order

if TYPE_CHECKING:
    from ..models.feed_preferences_out_notifications import FeedPreferencesOutNotifications


T = TypeVar("T", bound="FeedPreferencesOut")


@_attrs_define
class FeedPreferencesOut:
    """
    Attributes:
        effective_feed_order (FeedOrder):
        feed_order (FeedOrder | None): the account's choice; null if none
        notifications (FeedPreferencesOutNotifications): every notification type, and whether it is on
    """

    effective_feed_order: FeedOrder
    feed_order: FeedOrder | None
    notifications: FeedPreferencesOutNotifications
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        effective_feed_order: str = self.effective_feed_order

        feed_order: None | str
        if isinstance(self.feed_order, str):
            feed_order = self.feed_order
        else:
            feed_order = self.feed_order

        notifications = self.notifications.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "effective_feed_order": effective_feed_order,
                "feed_order": feed_order,
                "notifications": notifications,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.feed_preferences_out_notifications import FeedPreferencesOutNotifications  # noqa: PLC0415

        d = dict(src_dict)
        effective_feed_order = check_feed_order(d.pop("effective_feed_order"))

        def _parse_feed_order(data: object) -> FeedOrder | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                feed_order_type_0 = check_feed_order(data)

                return feed_order_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FeedOrder | None, data)

        feed_order = _parse_feed_order(d.pop("feed_order"))

        notifications = FeedPreferencesOutNotifications.from_dict(d.pop("notifications"))

        feed_preferences_out = cls(
            effective_feed_order=effective_feed_order,
            feed_order=feed_order,
            notifications=notifications,
        )

        feed_preferences_out.additional_properties = d
        return feed_preferences_out

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
