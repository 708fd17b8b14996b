from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.visibility import Visibility, check_visibility
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.media_choice_in import MediaChoiceIn


T = TypeVar("T", bound="PostEdit")


@_attrs_define
class PostEdit:
    """Only the fields sent change. Blank text and no media at once is 422; an edit
    that leaves the post neither (blank text on a post without media, or no media on
    one without text) or changes its visibility is 409.

        Attributes:
            media (list[MediaChoiceIn] | None | Unset): the post's media from now on, in order: ones it has (alt text may
                change) or others you uploaded; `[]` removes them all
            text (None | str | Unset): the new text
            visibility (None | Unset | Visibility): cannot change: anything but the post's own visibility is 409
    """

    media: list[MediaChoiceIn] | None | Unset = UNSET
    text: None | str | Unset = UNSET
    visibility: None | Unset | Visibility = UNSET

    def to_dict(self) -> dict[str, Any]:
        media: list[dict[str, Any]] | None | Unset
        if isinstance(self.media, Unset):
            media = UNSET
        elif isinstance(self.media, list):
            media = []
            for media_type_0_item_data in self.media:
                media_type_0_item = media_type_0_item_data.to_dict()
                media.append(media_type_0_item)

        else:
            media = self.media

        text: None | str | Unset
        if isinstance(self.text, Unset):
            text = UNSET
        else:
            text = self.text

        visibility: None | str | Unset
        if isinstance(self.visibility, Unset):
            visibility = UNSET
        elif isinstance(self.visibility, str):
            visibility = self.visibility
        else:
            visibility = self.visibility

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if media is not UNSET:
            field_dict["media"] = media
        if text is not UNSET:
            field_dict["text"] = text
        if visibility is not UNSET:
            field_dict["visibility"] = visibility

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.media_choice_in import MediaChoiceIn  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_media(data: object) -> list[MediaChoiceIn] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                media_type_0 = []
                _media_type_0 = data
                for media_type_0_item_data in _media_type_0:
                    media_type_0_item = MediaChoiceIn.from_dict(media_type_0_item_data)

                    media_type_0.append(media_type_0_item)

                return media_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[MediaChoiceIn] | None | Unset, data)

        media = _parse_media(d.pop("media", UNSET))

        def _parse_text(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        text = _parse_text(d.pop("text", UNSET))

        def _parse_visibility(data: object) -> None | Unset | Visibility:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                visibility_type_0 = check_visibility(data)

                return visibility_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | Visibility, data)

        visibility = _parse_visibility(d.pop("visibility", UNSET))

        post_edit = cls(
            media=media,
            text=text,
            visibility=visibility,
        )

        return post_edit
