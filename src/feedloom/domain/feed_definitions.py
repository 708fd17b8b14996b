"""Saved feed definitions: sources, filters and an order (docs/FEEDS.md).

A definition is a plain value: which candidates a feed reads (`home`, `list:{id}`,
`tag:{name}`, `author:{id}`, `generator:{uri}`), which of them it keeps, and in which
order. The home feed is the definition `HOME`; every feed runs the same pipeline
(read/feeds.py), so a filter here is one more predicate in the one read-time filter
(domain/visibility.py `feed_filter`), not a second path.

A generator's items come in the generator's order with its own cursor, so a generator
source stands alone in a definition and is read in its order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

from feedloom.domain.errors import InvalidInput, NotFound
from feedloom.domain.facets import normalize_tag
from feedloom.domain.ids import ID
from feedloom.domain.model import FeedOrder, Post

MAX_SOURCES = 10
MAX_FILTER_WORDS = 50
MAX_WORD_CHARS = 100


class SourceKind(StrEnum):
    HOME = "home"
    LIST = "list"
    TAG = "tag"
    AUTHOR = "author"
    GENERATOR = "generator"


class ReplyPolicy(StrEnum):
    """Which replies a list feed shows (as Mastodon's lists): replies to anyone the
    reader follows, to members of the list only, or none."""

    FOLLOWED = "followed"
    LIST = "list"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class Source:
    kind: SourceKind
    value: str = ""  # the list or author ID, the tag, the generator's URI

    def __str__(self) -> str:
        return self.kind.value if self.kind is SourceKind.HOME else f"{self.kind}:{self.value}"

    @property
    def number(self) -> int:
        return int(self.value)


NUMBER = re.compile(ID)  # an ID in range: a bigger number could not be queried


def parse_source(text: str) -> Source:
    kind, colon, value = text.partition(":")
    if text == "home":
        return Source(SourceKind.HOME)
    if not colon or kind not in {k.value for k in SourceKind} or kind == "home":
        raise InvalidInput(
            f"source {text[:40]!r}: expected home, list:{{id}}, tag:{{name}}, author:{{id}} "
            "or generator:{uri}"
        )
    source = Source(SourceKind(kind), value)
    if source.kind in (SourceKind.LIST, SourceKind.AUTHOR) and not NUMBER.fullmatch(value):
        raise InvalidInput(f"source {text[:40]!r}: {kind} wants a numeric ID")
    if source.kind is SourceKind.TAG:
        name = normalize_tag(value.removeprefix("#"))
        if name is None:
            raise NotFound(f"source {text[:40]!r}: can be no tag")  # as in a path
        source = Source(SourceKind.TAG, name)
    if source.kind is SourceKind.GENERATOR and not value.startswith(("http://", "https://")):
        raise InvalidInput(f"source {text[:40]!r}: a generator is named by its http(s) URI")
    return source


def normalize_words(words: list[str]) -> tuple[str, ...]:
    """Muted words as matched: stripped, case-folded, each once, in the order given."""
    if any(len(word) > MAX_WORD_CHARS for word in words):  # as sent: the schema's bound
        raise InvalidInput(f"a muted word is at most {MAX_WORD_CHARS} characters")
    cleaned = [" ".join(word.split()).casefold() for word in words]
    if any(not word for word in cleaned):
        raise InvalidInput("a muted word may not be empty")
    if any(len(word) > MAX_WORD_CHARS for word in cleaned):
        raise InvalidInput(f"a muted word is at most {MAX_WORD_CHARS} characters")
    return tuple(dict.fromkeys(cleaned))


def word_pattern(words: tuple[str, ...]) -> re.Pattern[str] | None:
    """One expression matching any of the words as a whole word or phrase (a `#tag`
    matches the tag too), case-insensitively; None for no words."""
    if not words:
        return None
    alternatives = "|".join(re.escape(word.lstrip("#")) for word in sorted(words, key=len)[::-1])
    return re.compile(rf"(?<!\w)#?(?:{alternatives})(?!\w)", re.IGNORECASE)


def mentions_muted(pattern: re.Pattern[str] | None, post: Post) -> bool:
    """The post (or, for a repost, its original; a quote's own text) has a muted word."""
    return pattern is not None and pattern.search(post.shown.text) is not None


@dataclass(frozen=True, slots=True)
class FeedFilters:
    media_only: bool = False
    no_replies: bool = False
    no_reposts: bool = False
    muted_words: tuple[str, ...] = ()
    # A list feed's reply policy and its members (a reply to a member passes `LIST`).
    replies: ReplyPolicy | None = None
    members: frozenset[int] = frozenset()
    pattern: re.Pattern[str] | None = field(default=None, compare=False)

    @classmethod
    def of(
        cls, media_only: bool, no_replies: bool, no_reposts: bool, words: list[str]
    ) -> FeedFilters:
        if len(words) > MAX_FILTER_WORDS:
            raise InvalidInput(f"at most {MAX_FILTER_WORDS} muted words per feed")
        muted = normalize_words(words)
        return cls(media_only, no_replies, no_reposts, muted, pattern=word_pattern(muted))

    def rejects(self, post: Post) -> str | None:
        """Why this definition leaves the post out (a `FilterReason` value), if it does."""
        if self.no_reposts and post.repost_of is not None:
            return "repost"
        if self.media_only and not post.shown.shown_media:
            return "no_media"
        if post.in_reply_to is not None and self._reply_left_out(post):
            return "reply"
        if mentions_muted(self.pattern, post):
            return "muted_word"
        return None

    def _reply_left_out(self, post: Post) -> bool:
        if self.no_replies or self.replies is ReplyPolicy.NONE:
            return True
        if self.replies is ReplyPolicy.LIST and post.replies_to_other:
            return post.reply_to_author not in self.members
        return False


@dataclass(frozen=True, slots=True)
class FeedDefinition:
    sources: tuple[Source, ...]
    filters: FeedFilters = FeedFilters()
    order: FeedOrder | None = None  # None: the reader's home feed order

    def __post_init__(self) -> None:
        if not self.sources:
            raise InvalidInput("a feed needs at least one source")
        if len(self.sources) > MAX_SOURCES:
            raise InvalidInput(f"a feed has at most {MAX_SOURCES} sources")
        if len(set(self.sources)) != len(self.sources):
            raise InvalidInput("a source is named twice")
        generators = [s for s in self.sources if s.kind is SourceKind.GENERATOR]
        if generators and len(self.sources) > 1:
            raise InvalidInput("a generator source stands alone (it has its own order)")
        if generators and self.order is FeedOrder.RANKED:
            raise InvalidInput("a generator feed is read in the generator's order")

    @property
    def generator(self) -> Source | None:
        first = self.sources[0]
        return first if first.kind is SourceKind.GENERATOR else None

    def of_kind(self, kind: SourceKind) -> list[Source]:
        return [source for source in self.sources if source.kind is kind]


HOME = FeedDefinition((Source(SourceKind.HOME),))


def definition_json(definition: FeedDefinition) -> dict[str, object]:
    """What a definition is stored as, and shown as (sources as strings)."""
    filters = definition.filters
    return {
        "sources": [str(source) for source in definition.sources],
        "filters": {
            "media_only": filters.media_only,
            "no_replies": filters.no_replies,
            "no_reposts": filters.no_reposts,
            "muted_words": list(filters.muted_words),
        },
        "order": definition.order.value if definition.order is not None else None,
    }


def definition_of(data: dict[str, object]) -> FeedDefinition:
    """A stored definition back (the inverse of `definition_json`)."""
    filters = data["filters"]
    sources = data["sources"]
    assert isinstance(filters, dict) and isinstance(sources, list)
    order = data.get("order")
    return FeedDefinition(
        tuple(parse_source(str(source)) for source in sources),
        FeedFilters.of(
            bool(filters.get("media_only")),
            bool(filters.get("no_replies")),
            bool(filters.get("no_reposts")),
            list(filters.get("muted_words") or []),
        ),
        FeedOrder(order) if isinstance(order, str) else None,
    )
