from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.feed_order import FeedOrder, check_feed_order
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.feed_preferences_notifications_type_0 import FeedPreferencesNotificationsType0


T = TypeVar("T", bound="FeedPreferences")


@_attrs_define
class FeedPreferences:
    """Only the fields sent change.

    Attributes:
        feed_order (FeedOrder | None | Unset): null: use the service default; omitted: unchanged
        notifications (FeedPreferencesNotificationsType0 | None | Unset): per-type switches (false: that type is not
            shown nor counted); types left out are unchanged
    """

    feed_order: FeedOrder | None | Unset = UNSET
    notifications: FeedPreferencesNotificationsType0 | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.feed_preferences_notifications_type_0 import FeedPreferencesNotificationsType0  # noqa: PLC0415

        feed_order: None | str | Unset
        if isinstance(self.feed_order, Unset):
            feed_order = UNSET
        elif isinstance(self.feed_order, str):
            feed_order = self.feed_order
        else:
            feed_order = self.feed_order

        notifications: dict[str, Any] | None | Unset
        if isinstance(self.notifications, Unset):
            notifications = UNSET
        elif isinstance(self.notifications, FeedPreferencesNotificationsType0):
            notifications = self.notifications.to_dict()
        else:
            notifications = self.notifications

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if feed_order is not UNSET:
            field_dict["feed_order"] = feed_order
        if notifications is not UNSET:
            field_dict["notifications"] = notifications

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.feed_preferences_notifications_type_0 import FeedPreferencesNotificationsType0  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_feed_order(data: object) -> FeedOrder | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                feed_order_type_0 = check_feed_order(data)

                return feed_order_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FeedOrder | None | Unset, data)

        feed_order = _parse_feed_order(d.pop("feed_order", UNSET))

        def _parse_notifications(data: object) -> FeedPreferencesNotificationsType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                notifications_type_0 = FeedPreferencesNotificationsType0.from_dict(data)

                return notifications_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FeedPreferencesNotificationsType0 | None | Unset, data)

        notifications = _parse_notifications(d.pop("notifications", UNSET))

        feed_preferences = cls(
            feed_order=feed_order,
            notifications=notifications,
        )

        return feed_preferences
