from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.visibility import Visibility, check_visibility

if TYPE_CHECKING:
    from ..models.author import Author
    from ..models.in_reply_to import InReplyTo
    from ..models.liked_by_reason import LikedByReason
    from ..models.link_facet import LinkFacet
    from ..models.media_out import MediaOut
    from ..models.mention_facet import MentionFacet
    from ..models.mention_out import MentionOut
    from ..models.quoted_post import QuotedPost
    from ..models.reason_out import ReasonOut
    from ..models.reposter import Reposter
    from ..models.tag_facet import TagFacet
    from ..models.trending_reason import TrendingReason
    from ..models.unavailable import Unavailable


T = TypeVar("T", bound="Item")


@_attrs_define
class Item:
    """
    Attributes:
        author (Author):
        comments (int): direct replies (a comment is a reply)
        created_at (datetime.datetime):
        edited_at (datetime.datetime | None): when the author last edited the post (null: never); its versions: GET
            /v1/posts/{post_id}/history
        facets (list[LinkFacet | MentionFacet | TagFacet]): mentions, tags and links of `text`, by start; offsets in
            Unicode code points (not UTF-16 units, not bytes) into `text`, `end` exclusive: `text[start:end]` in Python,
            `Array.from(text).slice(start, end)` in JavaScript
        in_reply_to (InReplyTo | None): the post this one replies to
        liked_by_me (bool):
        likes (int):
        media (list[MediaOut]):
        mentions (list[MentionOut]): the accounts the text mentions, once each
        post_id (str):
        quote (None | QuotedPost | Unavailable): the post this one quotes; `{"unavailable": true}` when it is deleted or
            hidden from you
        quotes (int): live posts quoting the post
        reason (LikedByReason | None | ReasonOut | TrendingReason): why a home feed shows a post from an account you do
            not follow: `{"tag": "…"}`, a tag you follow; in the ranked feed, a recommendation: `{"liked_by": [profiles]}`
            (people you follow liked it) or `{"trending": true}`; null otherwise
        replies (int): direct replies: the same number as `comments`
        repost_id (None | str): on a repost's entry: the repost's own ID
        reposted_by (None | Reposter): on a repost's entry: who reposted the post (`post_id` is the original's)
        reposted_by_me (bool):
        reposts (int): live reposts of the post
        text (str):
        views (int): distinct viewers, estimated within a few percent
        visibility (Visibility):
    """

    author: Author
    comments: int
    created_at: datetime.datetime
    edited_at: datetime.datetime | None
    facets: list[LinkFacet | MentionFacet | TagFacet]
    in_reply_to: InReplyTo | None
    liked_by_me: bool
    likes: int
    media: list[MediaOut]
    mentions: list[MentionOut]
    post_id: str
    quote: None | QuotedPost | Unavailable
    quotes: int
    reason: LikedByReason | None | ReasonOut | TrendingReason
    replies: int
    repost_id: None | str
    reposted_by: None | Reposter
    reposted_by_me: bool
    reposts: int
    text: str
    views: int
    visibility: Visibility
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.in_reply_to import InReplyTo  # noqa: PLC0415
        from ..models.liked_by_reason import LikedByReason  # noqa: PLC0415
        from ..models.mention_facet import MentionFacet  # noqa: PLC0415
        from ..models.quoted_post import QuotedPost  # noqa: PLC0415
        from ..models.reason_out import ReasonOut  # noqa: PLC0415
        from ..models.reposter import Reposter  # noqa: PLC0415
        from ..models.tag_facet import TagFacet  # noqa: PLC0415
        from ..models.trending_reason import TrendingReason  # noqa: PLC0415
        from ..models.unavailable import Unavailable  # noqa: PLC0415

        author = self.author.to_dict()

        comments = self.comments

        created_at = self.created_at.isoformat()

        edited_at: None | str
        if isinstance(self.edited_at, datetime.datetime):
            edited_at = self.edited_at.isoformat()
        else:
            edited_at = self.edited_at

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

        in_reply_to: dict[str, Any] | None
        if isinstance(self.in_reply_to, InReplyTo):
            in_reply_to = self.in_reply_to.to_dict()
        else:
            in_reply_to = self.in_reply_to

        liked_by_me = self.liked_by_me

        likes = self.likes

        media = []
        for media_item_data in self.media:
            media_item = media_item_data.to_dict()
            media.append(media_item)

        mentions = []
        for mentions_item_data in self.mentions:
            mentions_item = mentions_item_data.to_dict()
            mentions.append(mentions_item)

        post_id = self.post_id

        quote: dict[str, Any] | None
        if isinstance(self.quote, QuotedPost):
            quote = self.quote.to_dict()
        elif isinstance(self.quote, Unavailable):
            quote = self.quote.to_dict()
        else:
            quote = self.quote

        quotes = self.quotes

        reason: dict[str, Any] | None
        if isinstance(self.reason, ReasonOut):
            reason = self.reason.to_dict()
        elif isinstance(self.reason, LikedByReason):
            reason = self.reason.to_dict()
        elif isinstance(self.reason, TrendingReason):
            reason = self.reason.to_dict()
        else:
            reason = self.reason

        replies = self.replies

        repost_id: None | str
        repost_id = self.repost_id

        reposted_by: dict[str, Any] | None
        if isinstance(self.reposted_by, Reposter):
            reposted_by = self.reposted_by.to_dict()
        else:
            reposted_by = self.reposted_by

        reposted_by_me = self.reposted_by_me

        reposts = self.reposts

        text = self.text

        views = self.views

        visibility: str = self.visibility

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "author": author,
                "comments": comments,
                "created_at": created_at,
                "edited_at": edited_at,
                "facets": facets,
                "in_reply_to": in_reply_to,
                "liked_by_me": liked_by_me,
                "likes": likes,
                "media": media,
                "mentions": mentions,
                "post_id": post_id,
                "quote": quote,
                "quotes": quotes,
                "reason": reason,
                "replies": replies,
                "repost_id": repost_id,
                "reposted_by": reposted_by,
                "reposted_by_me": reposted_by_me,
                "reposts": reposts,
                "text": text,
                "views": views,
                "visibility": visibility,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.author import Author  # noqa: PLC0415
        from ..models.in_reply_to import InReplyTo  # noqa: PLC0415
        from ..models.liked_by_reason import LikedByReason  # noqa: PLC0415
        from ..models.link_facet import LinkFacet  # noqa: PLC0415
        from ..models.media_out import MediaOut  # noqa: PLC0415
        from ..models.mention_facet import MentionFacet  # noqa: PLC0415
        from ..models.mention_out import MentionOut  # noqa: PLC0415
        from ..models.quoted_post import QuotedPost  # noqa: PLC0415
        from ..models.reason_out import ReasonOut  # noqa: PLC0415
        from ..models.reposter import Reposter  # noqa: PLC0415
        from ..models.tag_facet import TagFacet  # noqa: PLC0415
        from ..models.trending_reason import TrendingReason  # noqa: PLC0415
        from ..models.unavailable import Unavailable  # noqa: PLC0415

        d = dict(src_dict)
        author = Author.from_dict(d.pop("author"))

        comments = d.pop("comments")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_edited_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                edited_at_type_0 = datetime.datetime.fromisoformat(data)

                return edited_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        edited_at = _parse_edited_at(d.pop("edited_at"))

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

        def _parse_in_reply_to(data: object) -> InReplyTo | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                in_reply_to_type_0 = InReplyTo.from_dict(data)

                return in_reply_to_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(InReplyTo | None, data)

        in_reply_to = _parse_in_reply_to(d.pop("in_reply_to"))

        liked_by_me = d.pop("liked_by_me")

        likes = d.pop("likes")

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

        def _parse_quote(data: object) -> None | QuotedPost | Unavailable:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                quote_type_0 = QuotedPost.from_dict(data)

                return quote_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                quote_type_1 = Unavailable.from_dict(data)

                return quote_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | QuotedPost | Unavailable, data)

        quote = _parse_quote(d.pop("quote"))

        quotes = d.pop("quotes")

        def _parse_reason(data: object) -> LikedByReason | None | ReasonOut | TrendingReason:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                reason_type_0 = ReasonOut.from_dict(data)

                return reason_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                reason_type_1 = LikedByReason.from_dict(data)

                return reason_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                reason_type_2 = TrendingReason.from_dict(data)

                return reason_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(LikedByReason | None | ReasonOut | TrendingReason, data)

        reason = _parse_reason(d.pop("reason"))

        replies = d.pop("replies")

        def _parse_repost_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        repost_id = _parse_repost_id(d.pop("repost_id"))

        def _parse_reposted_by(data: object) -> None | Reposter:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                reposted_by_type_0 = Reposter.from_dict(data)

                return reposted_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Reposter, data)

        reposted_by = _parse_reposted_by(d.pop("reposted_by"))

        reposted_by_me = d.pop("reposted_by_me")

        reposts = d.pop("reposts")

        text = d.pop("text")

        views = d.pop("views")

        visibility = check_visibility(d.pop("visibility"))

        item = cls(
            author=author,
            comments=comments,
            created_at=created_at,
            edited_at=edited_at,
            facets=facets,
            in_reply_to=in_reply_to,
            liked_by_me=liked_by_me,
            likes=likes,
            media=media,
            mentions=mentions,
            post_id=post_id,
            quote=quote,
            quotes=quotes,
            reason=reason,
            replies=replies,
            repost_id=repost_id,
            reposted_by=reposted_by,
            reposted_by_me=reposted_by_me,
            reposts=reposts,
            text=text,
            views=views,
            visibility=visibility,
        )

        item.additional_properties = d
        return item

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
