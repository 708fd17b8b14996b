from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FollowOptions")


@_attrs_define
class FollowOptions:
    """
    Attributes:
        reposts (bool | None | Unset): false: follow without their reposts; omitted: leave as it is
    """

    reposts: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        reposts: bool | None | Unset
        if isinstance(self.reposts, Unset):
            reposts = UNSET
        else:
            reposts = self.reposts

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if reposts is not UNSET:
            field_dict["reposts"] = reposts

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_reposts(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        reposts = _parse_reposts(d.pop("reposts", UNSET))

        follow_options = cls(
            reposts=reposts,
        )

        return follow_options
