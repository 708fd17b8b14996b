from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="SessionOut")


@_attrs_define
class SessionOut:
    """
    Attributes:
        created_at (datetime.datetime):
        current (bool): the session of this request
        expires_at (datetime.datetime): if unused until then; each use renews it
        id (str): for DELETE /v1/sessions/{id}; not a token
        last_used_at (datetime.datetime): renewed at most hourly
        app (None | str | Unset): the app it was granted to through OAuth (the Mastodon-compatible API,
            docs/MASTODON_API.md); null for a sign-in of POST /v1/sessions
    """

    created_at: datetime.datetime
    current: bool
    expires_at: datetime.datetime
    id: str
    last_used_at: datetime.datetime
    app: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        current = self.current

        expires_at = self.expires_at.isoformat()

        id = self.id

        last_used_at = self.last_used_at.isoformat()

        app: None | str | Unset
        if isinstance(self.app, Unset):
            app = UNSET
        else:
            app = self.app

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "current": current,
                "expires_at": expires_at,
                "id": id,
                "last_used_at": last_used_at,
            }
        )
        if app is not UNSET:
            field_dict["app"] = app

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        current = d.pop("current")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        id = d.pop("id")

        last_used_at = datetime.datetime.fromisoformat(d.pop("last_used_at"))

        def _parse_app(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        app = _parse_app(d.pop("app", UNSET))

        session_out = cls(
            created_at=created_at,
            current=current,
            expires_at=expires_at,
            id=id,
            last_used_at=last_used_at,
            app=app,
        )

        session_out.additional_properties = d
        return session_out

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
