from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.new_media_content_type import NewMediaContentType, check_new_media_content_type
from ..types import UNSET, Unset

T = TypeVar("T", bound="NewMedia")


@_attrs_define
class NewMedia:
    """
    Attributes:
        content_type (NewMediaContentType):
        height (int):
        width (int): as the client believes; the upload's real size wins
        alt (str | Unset): text shown instead of the image Default: ''.
    """

    content_type: NewMediaContentType
    height: int
    width: int
    alt: str | Unset = ""

    def to_dict(self) -> dict[str, Any]:
        content_type: str = self.content_type

        height = self.height

        width = self.width

        alt = self.alt

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "content_type": content_type,
                "height": height,
                "width": width,
            }
        )
        if alt is not UNSET:
            field_dict["alt"] = alt

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        content_type = check_new_media_content_type(d.pop("content_type"))

        height = d.pop("height")

        width = d.pop("width")

        alt = d.pop("alt", UNSET)

        new_media = cls(
            content_type=content_type,
            height=height,
            width=width,
            alt=alt,
        )

        return new_media
