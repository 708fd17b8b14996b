from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.notification_type import NotificationType, check_notification_type

if TYPE_CHECKING:
    from ..models.item import Item
    from ..models.notification_account import NotificationAccount


T = TypeVar("T", bound="NotificationOut")


@_attrs_define
class NotificationOut:
    """
    Attributes:
        accounts (list[NotificationAccount]): who did it, the most recent first (at most 8)
        accounts_count (int): how many accounts did it, all told
        created_at (datetime.datetime): when the group's newest activity happened
        group_key (str): the group's stable identity
        id (str): the group's newest activity: what `up_to` and cursors compare
        post (Item | None): the post it is about, as you may see it (null: a follow, or a moderation outcome of a post
            that is gone)
        type_ (NotificationType):
    """

    accounts: list[NotificationAccount]
    accounts_count: int
    created_at: datetime.datetime
    group_key: str
    id: str
    post: Item | None
    type_: NotificationType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.item import Item  # noqa: PLC0415

        accounts = []
        for accounts_item_data in self.accounts:
            accounts_item = accounts_item_data.to_dict()
            accounts.append(accounts_item)

        accounts_count = self.accounts_count

        created_at = self.created_at.isoformat()

        group_key = self.group_key

        id = self.id

        post: dict[str, Any] | None
        if isinstance(self.post, Item):
            post = self.post.to_dict()
        else:
            post = self.post

        type_: str = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "accounts": accounts,
                "accounts_count": accounts_count,
                "created_at": created_at,
                "group_key": group_key,
                "id": id,
                "post": post,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.item import Item  # noqa: PLC0415
        from ..models.notification_account import NotificationAccount  # noqa: PLC0415

        d = dict(src_dict)
        accounts = []
        _accounts = d.pop("accounts")
        for accounts_item_data in _accounts:
            accounts_item = NotificationAccount.from_dict(accounts_item_data)

            accounts.append(accounts_item)

        accounts_count = d.pop("accounts_count")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        group_key = d.pop("group_key")

        id = d.pop("id")

        def _parse_post(data: object) -> Item | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                post_type_0 = Item.from_dict(data)

                return post_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Item | None, data)

        post = _parse_post(d.pop("post"))

        type_ = check_notification_type(d.pop("type"))

        notification_out = cls(
            accounts=accounts,
            accounts_count=accounts_count,
            created_at=created_at,
            group_key=group_key,
            id=id,
            post=post,
            type_=type_,
        )

        notification_out.additional_properties = d
        return notification_out

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
