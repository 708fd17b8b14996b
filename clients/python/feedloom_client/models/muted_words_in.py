from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="MutedWordsIn")


@_attrs_define
class MutedWordsIn:
    """
    Attributes:
        words (list[str]): the whole list (replaces the last one); whole words or phrases, any case
    """

    words: list[str]

    def to_dict(self) -> dict[str, Any]:
        words = self.words

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "words": words,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        words = cast(list[str], d.pop("words"))

        muted_words_in = cls(
            words=words,
        )

        return muted_words_in
