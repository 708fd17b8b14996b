from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="Arranged")


@_attrs_define
class Arranged:
    """
    Attributes:
        id (str):
        pinned (bool | Unset):  Default: False.
    """

    id: str
    pinned: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        pinned = self.pinned

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
            }
        )
        if pinned is not UNSET:
            field_dict["pinned"] = pinned

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        pinned = d.pop("pinned", UNSET)

        arranged = cls(
            id=id,
            pinned=pinned,
        )

        return arranged
