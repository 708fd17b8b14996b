from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.author import Author
    from ..models.media_out import MediaOut


T = TypeVar("T", bound="VersionOut")


@_attrs_define
class VersionOut:
    """
    Attributes:
        author (Author):
        current (bool): the version readers see now (the last)
        media (list[MediaOut]):
        text (str):
        version (int): 1 for the first text, then one more per edit
        written_at (datetime.datetime): when this version was published or edited in
    """

    author: Author
    current: bool
    media: list[MediaOut]
    text: str
    version: int
    written_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        author = self.author.to_dict()

        current = self.current

        media = []
        for media_item_data in self.media:
            media_item = media_item_data.to_dict()
            media.append(media_item)

        text = self.text

        version = self.version

        written_at = self.written_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "author": author,
                "current": current,
                "media": media,
                "text": text,
                "version": version,
                "written_at": written_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.author import Author  # noqa: PLC0415
        from ..models.media_out import MediaOut  # noqa: PLC0415

        d = dict(src_dict)
        author = Author.from_dict(d.pop("author"))

        current = d.pop("current")

        media = []
        _media = d.pop("media")
        for media_item_data in _media:
            media_item = MediaOut.from_dict(media_item_data)

            media.append(media_item)

        text = d.pop("text")

        version = d.pop("version")

        written_at = datetime.datetime.fromisoformat(d.pop("written_at"))

        version_out = cls(
            author=author,
            current=current,
            media=media,
            text=text,
            version=version,
            written_at=written_at,
        )

        version_out.additional_properties = d
        return version_out

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
