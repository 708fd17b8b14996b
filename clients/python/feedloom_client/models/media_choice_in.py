from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="MediaChoiceIn")


@_attrs_define
class MediaChoiceIn:
    """
    Attributes:
        id (str): a medium's ID
        alt (None | str | Unset): its new alt text (absent: unchanged)
    """

    id: str
    alt: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        alt: None | str | Unset
        if isinstance(self.alt, Unset):
            alt = UNSET
        else:
            alt = self.alt

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
            }
        )
        if alt is not UNSET:
            field_dict["alt"] = alt

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_alt(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        alt = _parse_alt(d.pop("alt", UNSET))

        media_choice_in = cls(
            id=id,
            alt=alt,
        )

        return media_choice_in
