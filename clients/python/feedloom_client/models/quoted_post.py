from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.visibility import Visibility, check_visibility

if TYPE_CHECKING:
    from ..models.author import Author
    from ..models.link_facet import LinkFacet
    from ..models.media_out import MediaOut
    from ..models.mention_facet import MentionFacet
    from ..models.mention_out import MentionOut
    from ..models.tag_facet import TagFacet


T = TypeVar("T", bound="QuotedPost")


@_attrs_define
class QuotedPost:
    """
    Attributes:
        author (Author):
        created_at (datetime.datetime):
        facets (list[LinkFacet | MentionFacet | TagFacet]): mentions, tags and links of `text`, by start; offsets in
            Unicode code points (not UTF-16 units, not bytes) into `text`, `end` exclusive: `text[start:end]` in Python,
            `Array.from(text).slice(start, end)` in JavaScript
        media (list[MediaOut]):
        mentions (list[MentionOut]): the accounts the text mentions, once each
        post_id (str):
        text (str):
        visibility (Visibility):
    """

    author: Author
    created_at: datetime.datetime
    facets: list[LinkFacet | MentionFacet | TagFacet]
    media: list[MediaOut]
    mentions: list[MentionOut]
    post_id: str
    text: str
    visibility: Visibility
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.mention_facet import MentionFacet  # noqa: PLC0415
        from ..models.tag_facet import TagFacet  # noqa: PLC0415

        author = self.author.to_dict()

        created_at = self.created_at.isoformat()

        facets = []
        for facets_item_data in self.facets:
            facets_item: dict[str, Any]
            if isinstance(facets_item_data, MentionFacet):
                facets_item = facets_item_data.to_dict()
            elif isinstance(facets_item_data, TagFacet):
                facets_item = facets_item_data.to_dict()
            else:
                facets_item = facets_item_data.to_dict()

            facets.append(facets_item)

        media = []
        for media_item_data in self.media:
            media_item = media_item_data.to_dict()
            media.append(media_item)

        mentions = []
        for mentions_item_data in self.mentions:
            mentions_item = mentions_item_data.to_dict()
            mentions.append(mentions_item)

        post_id = self.post_id

        text = self.text

        visibility: str = self.visibility

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "author": author,
                "created_at": created_at,
                "facets": facets,
                "media": media,
                "mentions": mentions,
                "post_id": post_id,
                "text": text,
                "visibility": visibility,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.author import Author  # noqa: PLC0415
        from ..models.link_facet import LinkFacet  # noqa: PLC0415
        from ..models.media_out import MediaOut  # noqa: PLC0415
        from ..models.mention_facet import MentionFacet  # noqa: PLC0415
        from ..models.mention_out import MentionOut  # noqa: PLC0415
        from ..models.tag_facet import TagFacet  # noqa: PLC0415

        d = dict(src_dict)
        author = Author.from_dict(d.pop("author"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        facets = []
        _facets = d.pop("facets")
        for facets_item_data in _facets:

            def _parse_facets_item(data: object) -> LinkFacet | MentionFacet | TagFacet:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    facets_item_type_0 = MentionFacet.from_dict(data)

                    return facets_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    facets_item_type_1 = TagFacet.from_dict(data)

                    return facets_item_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                facets_item_type_2 = LinkFacet.from_dict(data)

                return facets_item_type_2

            facets_item = _parse_facets_item(facets_item_data)

            facets.append(facets_item)

        media = []
        _media = d.pop("media")
        for media_item_data in _media:
            media_item = MediaOut.from_dict(media_item_data)

            media.append(media_item)

        mentions = []
        _mentions = d.pop("mentions")
        for mentions_item_data in _mentions:
            mentions_item = MentionOut.from_dict(mentions_item_data)

            mentions.append(mentions_item)

        post_id = d.pop("post_id")

        text = d.pop("text")

        visibility = check_visibility(d.pop("visibility"))

        quoted_post = cls(
            author=author,
            created_at=created_at,
            facets=facets,
            media=media,
            mentions=mentions,
            post_id=post_id,
            text=text,
            visibility=visibility,
        )

        quoted_post.additional_properties = d
        return quoted_post

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
