"""Request and response bodies. IDs travel as strings: a 64-bit integer does not
survive a JavaScript number."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal, Self

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    JsonValue,
    StrictBool,
    field_validator,
)

from feedloom.domain.ids import ID_PATTERN
from feedloom.domain.model import (
    FeedItem,
    FeedOrder,
    Media,
    Post,
    UserProfile,
    Visibility,
    tag_reason,
)
from feedloom.domain.notifications import NotificationType
from feedloom.domain.patterns import text

JsonDict = dict[str, JsonValue]

# Examples for the OpenAPI document (api/openapi.py lifts them onto each operation).
_USER, _POST, _AT = "7291543817012345", "7291544012345678", "2026-12-01T12:00:00Z"
_CURSOR = "k7291544012345678"
_COMMENT: JsonDict = {
    "id": "7291544098765432",
    "post_id": _POST,
    "author_id": _USER,
    "text": "nice",
    "created_at": _AT,
}
_ITEM: JsonDict = {
    "post_id": _POST,
    "author": {"id": _USER, "name": "Kim", "username": "kim", "avatar": None},
    "text": "hello",
    "media": [],
    "visibility": "public",
    "created_at": _AT,
    "likes": 3,
    "comments": 1,
    "replies": 1,
    "liked_by_me": False,
    "views": 42,
    "in_reply_to": None,
    "reposts": 0,
    "quotes": 0,
    "reposted_by_me": False,
    "reposted_by": None,
    "repost_id": None,
    "quote": None,
    "facets": [],
    "mentions": [],
    "reason": None,
    "edited_at": None,
}
ITEM_EXAMPLE = _ITEM
_PAGE: JsonDict = {"items": [_ITEM], "next_cursor": _CURSOR, "order": "chronological"}
PAGE_EXAMPLE = _PAGE  # a feed page, for the other feeds' bodies (api/feed_schemas.py)
PROFILE_EXAMPLE: JsonDict = {
    "id": _USER,
    "username": "kim",
    "name": "Kim",
    "avatar": None,
    "followers": 12,
    "following": 40,
    "pulled": False,
    "bio": "Writes about feeds.",
}


def example(value: JsonDict) -> ConfigDict:
    return ConfigDict(json_schema_extra={"examples": [value]})


BIO_MAX_CHARS = 300


def _not_a_boolean(value: object) -> object:
    if isinstance(value, bool):
        raise ValueError("must be a number, not true or false")
    return value


# A JSON Schema integer: 3 or 3.0, never `true` (which pydantic would read as 1).
Integer = Annotated[int, BeforeValidator(_not_a_boolean)]


# What the OpenAPI document says of a request's strings beyond their length (api/openapi.py
# adds "no NUL" to every other one): the server checks the same.
SHOWN: JsonDict = {"pattern": text(min_shown=True)}  # not blank once stripped
AN_ID: JsonDict = {"pattern": ID_PATTERN}


class Strict(BaseModel):
    """A request body: unknown fields and NUL characters refused (422), in every text
    field and list of texts. PostgreSQL text cannot hold NUL; refusing it here keeps
    both backends answering alike instead of one failing in the database."""

    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="after")
    @classmethod
    def _no_nul(cls, value: object) -> object:
        texts = value if isinstance(value, list) else [value]
        if any(isinstance(text, str) and "\x00" in text for text in texts):
            raise ValueError("must not contain NUL characters")
        return value


class NewAccount(Strict):
    username: str = Field(min_length=3, max_length=32, pattern=r"^[A-Za-z0-9_]+$")
    password: str = Field(min_length=8, max_length=256)
    display_name: str = Field("", max_length=64)


class AccountCreated(BaseModel):
    model_config = example({"id": _USER, "username": "kim"})

    id: str
    username: str


class NewSession(Strict):
    username: str = Field(max_length=32)
    password: str = Field(max_length=256)


class SessionCreated(BaseModel):
    model_config = example({"token": "q3V...opaque", "user_id": _USER})

    token: str
    user_id: str


class SessionOut(BaseModel):
    id: str = Field(description="for DELETE /v1/sessions/{id}; not a token")
    created_at: datetime
    last_used_at: datetime = Field(description="renewed at most hourly")
    expires_at: datetime = Field(description="if unused until then; each use renews it")
    current: bool = Field(description="the session of this request")
    app: str | None = Field(
        default=None,
        description="the app it was granted to through OAuth (the Mastodon-compatible "
        "API, docs/MASTODON_API.md); null for a sign-in of POST /v1/sessions",
    )


class SessionList(BaseModel):
    model_config = example(
        {
            "items": [
                {
                    "id": "9f86d081884c7d65",
                    "created_at": "2026-12-01T12:00:00+00:00",
                    "last_used_at": "2026-12-01T12:30:00+00:00",
                    "expires_at": "2026-12-31T12:30:00+00:00",
                    "current": True,
                }
            ]
        }
    )

    items: list[SessionOut]


class PasswordChange(Strict):
    current_password: str = Field(max_length=256)
    new_password: str = Field(min_length=8, max_length=256)


class PasswordConfirmation(Strict):
    password: str = Field(max_length=256, description="the account's current password")


class NewPost(Strict):
    # Text, media or both: a post with neither is refused.
    model_config = ConfigDict(
        json_schema_extra={
            "anyOf": [
                {"required": ["text"], "properties": {"text": SHOWN}},
                {"required": ["media_ids"], "properties": {"media_ids": {"minItems": 1}}},
            ]
        }
    )

    text: str = Field("", max_length=10_000)
    media_ids: list[Annotated[str, Field(json_schema_extra=AN_ID)]] = Field(
        default_factory=list, max_length=10
    )
    visibility: Visibility = Visibility.PUBLIC
    in_reply_to: str | None = Field(
        None,
        max_length=20,
        json_schema_extra=AN_ID,
        description="reply to this post (decimal ID); 404 if you may not see it or it "
        "is deleted, 422 if it is not an ID, 409 if the thread is 128 replies deep",
    )
    quote_of: str | None = Field(
        None,
        max_length=20,
        description="quote this post (decimal ID; a repost's ID quotes its original); 404 "
        "if you may not see it or it is deleted (your own too), 403 if it is not public, "
        "422 if it is not an ID",
        json_schema_extra=AN_ID,
    )


class PostCreated(BaseModel):
    model_config = example({"post_id": _POST, "created_at": _AT})

    post_id: str
    created_at: datetime


class NewComment(Strict):
    text: str = Field(max_length=10_000, json_schema_extra=SHOWN)


class CommentOut(BaseModel):
    model_config = example(_COMMENT)

    id: str
    post_id: str
    author_id: str
    text: str
    created_at: datetime


class CommentPage(BaseModel):
    model_config = example({"items": [_COMMENT], "next_cursor": None})

    items: list[CommentOut]
    next_cursor: str | None


class Author(BaseModel):
    id: str
    name: str
    username: str
    avatar: str | None


class MediaSizeOut(BaseModel):
    url: str
    w: int
    h: int


class MediaOut(BaseModel):
    url: str = Field(description="the original (verified, metadata stripped)")
    w: int
    h: int
    alt: str = ""
    sizes: list[MediaSizeOut] = Field(
        default_factory=list, description="smaller copies, once a worker made them"
    )

    @classmethod
    def of(cls, media: Media) -> Self:
        sizes = [MediaSizeOut(url=s.url, w=s.width, h=s.height) for s in media.sizes]
        return cls(url=media.url, w=media.width, h=media.height, alt=media.alt, sizes=sizes)


class ScoreParts(BaseModel):
    affinity_term: float = Field(description="weights.affinity * affinity")
    engagement_term: float = Field(description="weights.engagement * log10(1+likes+3*comments)")
    decay: float = Field(description="0.5 ** (age_hours / weights.half_life_hours)")
    age_hours: float
    affinity: float = Field(description="reader -> author, in [0, 1]")
    likes: int
    comments: int


class Explain(BaseModel):
    source: str = Field(
        description="pushed, pulled, own, rebuilt or archive; liked_by or trending for a "
        "post from outside the people you follow (ranked only)"
    )
    score: float | None = Field(
        description="(affinity_term + engagement_term) * decay; null when chronological"
    )
    components: ScoreParts | None


class ReplyAuthor(BaseModel):
    id: str
    name: str


class InReplyTo(BaseModel):
    post_id: str
    author: ReplyAuthor


class Reposter(BaseModel):
    id: str
    name: str


class Unavailable(BaseModel):
    unavailable: bool = Field(description="always true: deleted, or hidden from you")


FACET_OFFSETS = (
    "offsets in Unicode code points (not UTF-16 units, not bytes) into `text`, `end` "
    "exclusive: `text[start:end]` in Python, `Array.from(text).slice(start, end)` in "
    "JavaScript"
)


class MentionFacet(BaseModel):
    model_config = ConfigDict(json_schema_extra={"description": FACET_OFFSETS})

    type: Literal["mention"]
    start: int
    end: int
    id: str = Field(description="the account mentioned, resolved when the text was written")
    username: str


class TagFacet(BaseModel):
    model_config = ConfigDict(json_schema_extra={"description": FACET_OFFSETS})

    type: Literal["tag"]
    start: int
    end: int
    tag: str = Field(description="the tag's name: NFKC-normalised and casefolded")


class LinkFacet(BaseModel):
    model_config = ConfigDict(json_schema_extra={"description": FACET_OFFSETS})

    type: Literal["link"]
    start: int
    end: int
    url: str = Field(description="an http or https URL, as written")


FacetOut = Annotated[MentionFacet | TagFacet | LinkFacet, Field(discriminator="type")]


class MentionOut(BaseModel):
    id: str
    username: str


class ReasonOut(BaseModel):
    tag: str = Field(description="the followed tag that brought this post into the feed")


class LikedByReason(BaseModel):
    liked_by: list[Author] = Field(
        description="ranked home feed: people you follow who liked this post lately (up to 3)"
    )


class TrendingReason(BaseModel):
    trending: Literal[True] = Field(
        description="ranked home feed: among today's most liked and discussed public posts"
    )


class QuotedPost(BaseModel):
    post_id: str
    author: Author
    text: str
    media: list[MediaOut]
    visibility: Visibility
    created_at: datetime
    facets: list[FacetOut] = Field(
        description="mentions, tags and links of `text`, by start; " + FACET_OFFSETS
    )
    mentions: list[MentionOut] = Field(description="the accounts the text mentions, once each")

    @staticmethod
    def facets_of(post: Post) -> list[MentionFacet | TagFacet | LinkFacet]:
        out: list[MentionFacet | TagFacet | LinkFacet] = []
        for f in post.facets:
            if f.kind == "mention":
                out.append(
                    MentionFacet(
                        type="mention",
                        start=f.start,
                        end=f.end,
                        id=str(f.user_id),
                        username=f.value,
                    )
                )
            elif f.kind == "tag":
                out.append(TagFacet(type="tag", start=f.start, end=f.end, tag=f.value))
            else:
                out.append(LinkFacet(type="link", start=f.start, end=f.end, url=f.value))
        return out

    @staticmethod
    def mentions_of(post: Post) -> list[MentionOut]:
        return [MentionOut(id=str(i), username=name) for i, name in post.mentions]


class Item(QuotedPost):
    model_config = example(_ITEM)

    likes: int
    comments: int = Field(description="direct replies (a comment is a reply)")
    replies: int = Field(description="direct replies: the same number as `comments`")
    liked_by_me: bool
    views: int = Field(description="distinct viewers, estimated within a few percent")
    in_reply_to: InReplyTo | None = Field(description="the post this one replies to")
    reposts: int = Field(description="live reposts of the post")
    quotes: int = Field(description="live posts quoting the post")
    reposted_by_me: bool
    reposted_by: Reposter | None = Field(
        description="on a repost's entry: who reposted the post (`post_id` is the original's)"
    )
    repost_id: str | None = Field(description="on a repost's entry: the repost's own ID")
    quote: QuotedPost | Unavailable | None = Field(
        description='the post this one quotes; `{"unavailable": true}` when it is deleted '
        "or hidden from you"
    )
    reason: ReasonOut | LikedByReason | TrendingReason | None = Field(
        description="why a home feed shows a post from an account you do not follow: "
        '`{"tag": "…"}`, a tag you follow; in the ranked feed, a recommendation: '
        '`{"liked_by": [profiles]}` (people you follow liked it) or `{"trending": true}`; '
        "null otherwise"
    )
    edited_at: datetime | None = Field(
        description="when the author last edited the post (null: never); its versions: "
        "GET /v1/posts/{post_id}/history"
    )

    @classmethod
    def of(cls, item: FeedItem) -> Self:
        post, author = item.post, item.author
        reposter = item.reposted_by
        return cls(
            post_id=str(post.id),
            author=_author(author),
            text=post.text,
            media=[MediaOut.of(m) for m in post.shown_media],
            visibility=post.visibility,
            created_at=post.created_at,
            likes=item.counts.likes,
            comments=item.counts.comments,
            replies=item.counts.comments,
            liked_by_me=item.liked_by_me,
            views=item.views,
            in_reply_to=_in_reply_to(item),
            reposts=post.reposts,
            quotes=post.quotes,
            reposted_by_me=item.reposted_by_me,
            reposted_by=Reposter(id=str(reposter.id), name=reposter.display_name)
            if reposter is not None
            else None,
            repost_id=str(item.repost_id) if item.repost_id is not None else None,
            quote=_quote(item),
            facets=cls.facets_of(post),
            mentions=cls.mentions_of(post),
            reason=_reason(item),
            edited_at=post.edited_at,
        )


def _reason(item: FeedItem) -> ReasonOut | LikedByReason | TrendingReason | None:
    if (tag := tag_reason(item.source)) is not None:
        return ReasonOut(tag=tag)
    if item.reason == "liked_by":
        return LikedByReason(liked_by=[_author(person) for person in item.liked_by])
    if item.reason == "trending":
        return TrendingReason(trending=True)
    return None


def _author(author: UserProfile) -> Author:
    return Author(
        id=str(author.id), name=author.display_name, username=author.username, avatar=author.avatar
    )


def _quote(item: FeedItem) -> QuotedPost | Unavailable | None:
    if item.post.quote_of is None:
        return None
    quoted, author = item.quote, item.quote_author
    if quoted is None or author is None:
        return Unavailable(unavailable=True)
    return QuotedPost(
        post_id=str(quoted.id),
        author=_author(author),
        text=quoted.text,
        media=[MediaOut.of(m) for m in quoted.media],
        visibility=quoted.visibility,
        created_at=quoted.created_at,
        facets=QuotedPost.facets_of(quoted),
        mentions=QuotedPost.mentions_of(quoted),
    )


def _in_reply_to(item: FeedItem) -> InReplyTo | None:
    post, author = item.post, item.replied_to
    if post.in_reply_to is None:
        return None
    author_id = str(post.reply_to_author or "")
    name = author.display_name if author is not None else ""
    return InReplyTo(post_id=str(post.in_reply_to), author=ReplyAuthor(id=author_id, name=name))


class ContextOut(BaseModel):
    model_config = example({"ancestors": [_ITEM], "descendants": [], "next_cursor": None})

    ancestors: list[Item] = Field(description="root first; on the first page only")
    descendants: list[Item] = Field(description="depth first, each post's replies oldest first")
    next_cursor: str | None


class Page(BaseModel):
    model_config = example(_PAGE)

    items: list[Item]
    next_cursor: str | None
    order: FeedOrder


class FeedItemOut(Item):
    explain: Explain | None = Field(None, description="only with ?explain=true")


class FeedPageOut(BaseModel):
    """Page, plus what ?explain=true adds."""

    model_config = example(_PAGE)

    items: list[FeedItemOut]
    next_cursor: str | None
    order: FeedOrder
    filtered: dict[str, int] | None = Field(
        None, description="only with ?explain=true: candidates dropped at read time, by reason"
    )
    fallback: str | None = Field(
        None,
        description=(
            "why a ranked feed was served in time order: `error` or `timeout` (the ranker),"
            " `session_lost` (a ranked cursor's session is gone: the page goes on below the"
            " oldest post the session served, and next_cursor is a time-order cursor)"
        ),
    )


class FeedPreferences(Strict):
    """Only the fields sent change."""

    feed_order: FeedOrder | None = Field(
        None, description="null: use the service default; omitted: unchanged"
    )
    # StrictBool: "1" or 1 is a schema violation (422), not a switch turned on.
    notifications: dict[NotificationType, StrictBool] | None = Field(
        None,
        description="per-type switches (false: that type is not shown nor counted); "
        "types left out are unchanged",
    )


SWITCHES_EXAMPLE: JsonDict = {kind.value: True for kind in NotificationType}


class FeedPreferencesOut(BaseModel):
    model_config = example(
        {
            "feed_order": None,
            "effective_feed_order": "chronological",
            "notifications": SWITCHES_EXAMPLE,
        }
    )

    feed_order: FeedOrder | None = Field(description="the account's choice; null if none")
    effective_feed_order: FeedOrder = Field(description="what GET /v1/feed serves by default")
    notifications: dict[NotificationType, bool] = Field(
        description="every notification type, and whether it is on"
    )


class Profile(BaseModel):
    model_config = example(PROFILE_EXAMPLE)

    id: str
    username: str
    name: str
    avatar: str | None
    followers: int
    following: int
    pulled: bool = Field(description="posts reach followers at read time (big account)")
    bio: str = ""


class ProfileEdit(Strict):
    """Only the fields sent change; `avatar_media_id: null` removes the avatar."""

    display_name: str | None = Field(None, min_length=1, max_length=64, json_schema_extra=SHOWN)
    bio: str | None = Field(None, max_length=BIO_MAX_CHARS)
    avatar_media_id: str | None = Field(
        None,
        max_length=20,
        description="an image you uploaded with POST /v1/media (404 if not)",
        json_schema_extra=AN_ID,
    )


class Relation(BaseModel):
    model_config = example({"changed": True})

    changed: bool = Field(description="false when the relation was already in this state")


class FollowOptions(Strict):
    reposts: bool | None = Field(
        None, description="false: follow without their reposts; omitted: leave as it is"
    )


class MuteOptions(Strict):
    notifications: bool = Field(
        True, description="the mute silences their notifications too (false: the feed only)"
    )


class Liked(BaseModel):
    model_config = example({"liked": True, "changed": True})

    liked: bool
    changed: bool


class TrendingItem(Item):
    score: float = Field(0.0, description="engagement in the window, the previous one decayed")

    @classmethod
    def scored(cls, item: FeedItem) -> TrendingItem:
        out = cls.of(item)
        out.score = item.score or 0.0
        return out


class TrendingPage(BaseModel):
    model_config = example({"window": "1h", "items": [{**_ITEM, "score": 12.5}]})

    window: str
    items: list[TrendingItem]


class TagOut(BaseModel):
    model_config = example({"name": "café", "posts_count": 12, "followed_by_me": False})

    name: str = Field(description="the tag's normal form (NFKC, case-folded), without `#`")
    posts_count: int = Field(description="live public posts with the tag")
    followed_by_me: bool


class TagList(BaseModel):
    model_config = example({"items": [{"name": "café", "posts_count": 12, "followed_by_me": True}]})

    items: list[TagOut]


class TrendingTagOut(BaseModel):
    name: str
    authors: float = Field(
        description="distinct authors using the tag in the window (each counted once an "
        "hour), the previous window decayed; approximate"
    )
    posts_count: int = Field(description="live public posts with the tag, all time")


class TrendingTagsPage(BaseModel):
    model_config = example(
        {"window": "1h", "items": [{"name": "café", "authors": 7.5, "posts_count": 12}]}
    )

    window: str
    items: list[TrendingTagOut]
