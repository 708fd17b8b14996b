from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.media_size_out import MediaSizeOut


T = TypeVar("T", bound="MediaOut")


@_attrs_define
class MediaOut:
    """
    Attributes:
        h (int):
        url (str): the original (verified, metadata stripped)
        w (int):
        alt (str | Unset):  Default: ''.
        sizes (list[MediaSizeOut] | Unset): smaller copies, once a worker made them
    """

    h: int
    url: str
    w: int
    alt: str | Unset = ""
    sizes: list[MediaSizeOut] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        h = self.h

        url = self.url

        w = self.w

        alt = self.alt

        sizes: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.sizes, Unset):
            sizes = []
            for sizes_item_data in self.sizes:
                sizes_item = sizes_item_data.to_dict()
                sizes.append(sizes_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "h": h,
                "url": url,
                "w": w,
            }
        )
        if alt is not UNSET:
            field_dict["alt"] = alt
        if sizes is not UNSET:
            field_dict["sizes"] = sizes

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.media_size_out import MediaSizeOut  # noqa: PLC0415

        d = dict(src_dict)
        h = d.pop("h")

        url = d.pop("url")

        w = d.pop("w")

        alt = d.pop("alt", UNSET)

        _sizes = d.pop("sizes", UNSET)
        sizes: list[MediaSizeOut] | Unset = UNSET
        if _sizes is not UNSET:
            sizes = []
            for sizes_item_data in _sizes:
                sizes_item = MediaSizeOut.from_dict(sizes_item_data)

                sizes.append(sizes_item)

        media_out = cls(
            h=h,
            url=url,
            w=w,
            alt=alt,
            sizes=sizes,
        )

        media_out.additional_properties = d
        return media_out

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
