"""Bodies of lists, saved feeds, muted words and generators (docs/FEEDS.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from feedloom.api.schemas import PAGE_EXAMPLE, SHOWN, FeedItemOut, JsonDict, Strict, example
from feedloom.domain.custom_feeds import FeedGenerator, FeedList, SavedFeed
from feedloom.domain.feed_definitions import (
    MAX_FILTER_WORDS,
    MAX_SOURCES,
    MAX_WORD_CHARS,
    ReplyPolicy,
)
from feedloom.domain.ids import ID, ID_PATTERN
from feedloom.domain.model import FeedOrder
from feedloom.domain.patterns import GENERATOR_URI_PATTERN

_LIST: JsonDict = {
    "id": "7291544012345678",
    "title": "Friends",
    "replies": "list",
    "exclusive": False,
    "members": 3,
}
# Not blank once stripped, and at most MAX_WORD_CHARS as sent (domain/feed_definitions.py).
MUTED_WORD: JsonDict = {"type": "string", "minLength": 1, "maxLength": MAX_WORD_CHARS, **SHOWN}
TITLE = Field(min_length=1, max_length=64, json_schema_extra=SHOWN)


class NewList(Strict):
    title: str = TITLE
    replies: ReplyPolicy = Field(
        ReplyPolicy.LIST,
        description="replies shown: to anyone you follow, to list members, or none",
    )
    exclusive: StrictBool = Field(False, description="members' posts leave your home feed")


class ListEdit(Strict):
    """Only the fields sent change."""

    title: str | None = Field(None, min_length=1, max_length=64, json_schema_extra=SHOWN)
    replies: ReplyPolicy | None = None
    exclusive: StrictBool | None = None


class ListOut(BaseModel):
    model_config = example(_LIST)

    id: str
    title: str
    replies: ReplyPolicy
    exclusive: bool
    members: int

    @classmethod
    def of(cls, feed_list: FeedList) -> ListOut:
        return cls(
            id=str(feed_list.id),
            title=feed_list.title,
            replies=feed_list.replies,
            exclusive=feed_list.exclusive,
            members=feed_list.members,
        )


class ListsOut(BaseModel):
    model_config = example({"items": [_LIST]})

    items: list[ListOut]


class MembersOut(BaseModel):
    model_config = example({"user_ids": ["7291543817012345"]})

    user_ids: list[str] = Field(description="newest member first")


class FiltersIn(Strict):
    media_only: StrictBool = Field(False, description="only posts with images")
    no_replies: StrictBool = False
    no_reposts: StrictBool = False
    languages: list[str] = Field(
        default_factory=list,
        max_length=0,
        description="reserved: posts carry no language yet, so only [] is accepted",
    )
    muted_words: list[str] = Field(
        default_factory=list,
        max_length=MAX_FILTER_WORDS,
        json_schema_extra={"items": MUTED_WORD},
        description="words or phrases hidden in this feed (whole words, any case)",
    )


class FiltersOut(BaseModel):
    media_only: bool
    no_replies: bool
    no_reposts: bool
    muted_words: list[str]


_SOURCE = {
    "pattern": f"^(home|list:(?:{ID})|author:(?:{ID})|tag:#?[^\\s:]+|generator:https?://.+)$"
}


class NewFeed(Strict):
    # A generator source stands alone and keeps the generator's order.
    model_config = ConfigDict(
        json_schema_extra={
            "anyOf": [
                {"properties": {"sources": {"items": {"not": {"pattern": "^generator:"}}}}},
                {"properties": {"sources": {"maxItems": 1}, "order": {"not": {"const": "ranked"}}}},
            ]
        }
    )

    name: str = TITLE
    sources: list[str] = Field(
        min_length=1,
        max_length=MAX_SOURCES,
        description="`home`, `list:{id}`, `author:{id}`, `tag:{name}`, `generator:{uri}` "
        "(a generator source stands alone)",
        json_schema_extra={
            "uniqueItems": True,
            "items": {"type": "string", "maxLength": 2048, **_SOURCE},
        },
    )
    filters: FiltersIn = Field(default_factory=FiltersIn)
    order: FeedOrder | None = Field(
        None, description="null: your home feed's order; a generator feed keeps its own"
    )


_FEED: JsonDict = {
    "id": "7291544012345679",
    "name": "Photos from friends",
    "sources": ["list:7291544012345678"],
    "filters": {"media_only": True, "no_replies": True, "no_reposts": False, "muted_words": []},
    "order": "chronological",
    "pinned": True,
}


class FeedOut(BaseModel):
    model_config = example(_FEED)

    id: str
    name: str
    sources: list[str]
    filters: FiltersOut
    order: FeedOrder | None
    pinned: bool

    @classmethod
    def of(cls, feed: SavedFeed) -> FeedOut:
        filters = feed.definition.filters
        return cls(
            id=str(feed.id),
            name=feed.name,
            sources=[str(source) for source in feed.definition.sources],
            filters=FiltersOut(
                media_only=filters.media_only,
                no_replies=filters.no_replies,
                no_reposts=filters.no_reposts,
                muted_words=list(filters.muted_words),
            ),
            order=feed.definition.order,
            pinned=feed.pinned,
        )


class FeedsOut(BaseModel):
    model_config = example({"items": [_FEED]})

    items: list[FeedOut] = Field(description="in your order")


class Arranged(Strict):
    id: str = Field(max_length=20, pattern=ID_PATTERN)
    pinned: StrictBool = False


class Arrangement(Strict):
    feeds: list[Arranged] = Field(
        max_length=10_000, description="every saved feed of yours once, in the order wanted"
    )


class MutedWordsIn(Strict):
    words: list[str] = Field(
        max_length=10_000,
        description="the whole list (replaces the last one); whole words or phrases, any case",
        json_schema_extra={"items": MUTED_WORD},
    )


class MutedWordsOut(BaseModel):
    model_config = example({"words": ["spoiler", "election night"]})

    words: list[str]


class NewGenerator(Strict):
    uri: str = Field(
        min_length=8,
        max_length=2048,
        description="http(s) endpoint answering skeleton requests (docs/FEEDS.md)",
        pattern=GENERATOR_URI_PATTERN,  # the server checks what the document states
    )
    name: str = TITLE
    description: str = Field("", max_length=500)
    feedback: StrictBool = Field(False, description="send interaction feedback to the generator")


class GeneratorOut(BaseModel):
    model_config = example(
        {
            "id": "7291544012345680",
            "uri": "https://feeds.example.org/photos",
            "name": "Photos",
            "description": "posts with images from people your followees like",
            "feedback": False,
            "owner_id": "7291543817012345",
            "created_at": "2026-12-07T12:00:00Z",
            "secret": "1tM3pS0f3Qm4y6p9kq2Vq7c3xY0bN5wR8sT1uH4dJ6E",
        }
    )

    id: str
    uri: str
    name: str
    description: str
    feedback: bool
    owner_id: str
    created_at: datetime
    secret: str | None = Field(
        None, description="signs skeleton requests; shown to the account that registered it"
    )

    @classmethod
    def of(cls, generator: FeedGenerator, viewer_id: int) -> GeneratorOut:
        return cls(
            id=str(generator.id),
            uri=generator.uri,
            name=generator.name,
            description=generator.description,
            feedback=generator.feedback,
            owner_id=str(generator.owner_id),
            created_at=generator.created_at,
            secret=generator.secret if generator.owner_id == viewer_id else None,
        )


class Feedback(Strict):
    post_id: str = Field(max_length=20, pattern=ID_PATTERN)
    kind: Literal["seen", "like", "less_like_this"]


class FeedbackOut(BaseModel):
    model_config = example({"sent": True})

    sent: bool = Field(description="false when the generator did not ask for feedback")


class SavedFeedPageOut(BaseModel):
    """A page of a list, saved or generator feed (as GET /v1/feed's)."""

    model_config = example(PAGE_EXAMPLE)

    items: list[FeedItemOut]
    next_cursor: str | None
    order: FeedOrder | None = Field(description="null: a generator's own order")
