from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Limits")


@_attrs_define
class Limits:
    """
    Attributes:
        bio_max_chars (int):
        comment_max_chars (int):
        media_max_bytes (int):
        media_per_post (int):
        media_types (list[str]):
        post_max_chars (int):
    """

    bio_max_chars: int
    comment_max_chars: int
    media_max_bytes: int
    media_per_post: int
    media_types: list[str]
    post_max_chars: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bio_max_chars = self.bio_max_chars

        comment_max_chars = self.comment_max_chars

        media_max_bytes = self.media_max_bytes

        media_per_post = self.media_per_post

        media_types = self.media_types

        post_max_chars = self.post_max_chars

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bio_max_chars": bio_max_chars,
                "comment_max_chars": comment_max_chars,
                "media_max_bytes": media_max_bytes,
                "media_per_post": media_per_post,
                "media_types": media_types,
                "post_max_chars": post_max_chars,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        bio_max_chars = d.pop("bio_max_chars")

        comment_max_chars = d.pop("comment_max_chars")

        media_max_bytes = d.pop("media_max_bytes")

        media_per_post = d.pop("media_per_post")

        media_types = cast(list[str], d.pop("media_types"))

        post_max_chars = d.pop("post_max_chars")

        limits = cls(
            bio_max_chars=bio_max_chars,
            comment_max_chars=comment_max_chars,
            media_max_bytes=media_max_bytes,
            media_per_post=media_per_post,
            media_types=media_types,
            post_max_chars=post_max_chars,
        )

        limits.additional_properties = d
        return limits

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
