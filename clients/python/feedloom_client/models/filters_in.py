from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FiltersIn")


@_attrs_define
class FiltersIn:
    """
    Attributes:
        languages (list[str] | Unset): reserved: posts carry no language yet, so only [] is accepted
        media_only (bool | Unset): only posts with images Default: False.
        muted_words (list[str] | Unset): words or phrases hidden in this feed (whole words, any case)
        no_replies (bool | Unset):  Default: False.
        no_reposts (bool | Unset):  Default: False.
    """

    languages: list[str] | Unset = UNSET
    media_only: bool | Unset = False
    muted_words: list[str] | Unset = UNSET
    no_replies: bool | Unset = False
    no_reposts: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        languages: list[str] | Unset = UNSET
        if not isinstance(self.languages, Unset):
            languages = self.languages

        media_only = self.media_only

        muted_words: list[str] | Unset = UNSET
        if not isinstance(self.muted_words, Unset):
            muted_words = self.muted_words

        no_replies = self.no_replies

        no_reposts = self.no_reposts

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if languages is not UNSET:
            field_dict["languages"] = languages
        if media_only is not UNSET:
            field_dict["media_only"] = media_only
        if muted_words is not UNSET:
            field_dict["muted_words"] = muted_words
        if no_replies is not UNSET:
            field_dict["no_replies"] = no_replies
        if no_reposts is not UNSET:
            field_dict["no_reposts"] = no_reposts

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        languages = cast(list[str], d.pop("languages", UNSET))

        media_only = d.pop("media_only", UNSET)

        muted_words = cast(list[str], d.pop("muted_words", UNSET))

        no_replies = d.pop("no_replies", UNSET)

        no_reposts = d.pop("no_reposts", UNSET)

        filters_in = cls(
            languages=languages,
            media_only=media_only,
            muted_words=muted_words,
            no_replies=no_replies,
            no_reposts=no_reposts,
        )

        return filters_in
