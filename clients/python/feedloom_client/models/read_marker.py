from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ReadMarker")


@_attrs_define
class ReadMarker:
    """
    Attributes:
        up_to (str): a notification ID: everything up to it is read (never moves backwards)
    """

    up_to: str

    def to_dict(self) -> dict[str, Any]:
        up_to = self.up_to

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "up_to": up_to,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        up_to = d.pop("up_to")

        read_marker = cls(
            up_to=up_to,
        )

        return read_marker
