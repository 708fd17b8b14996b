from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="NewAccount")


@_attrs_define
class NewAccount:
    """
    Attributes:
        password (str):
        username (str):
        display_name (str | Unset):  Default: ''.
    """

    password: str
    username: str
    display_name: str | Unset = ""

    def to_dict(self) -> dict[str, Any]:
        password = self.password

        username = self.username

        display_name = self.display_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "password": password,
                "username": username,
            }
        )
        if display_name is not UNSET:
            field_dict["display_name"] = display_name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        password = d.pop("password")

        username = d.pop("username")

        display_name = d.pop("display_name", UNSET)

        new_account = cls(
            password=password,
            username=username,
            display_name=display_name,
        )

        return new_account
