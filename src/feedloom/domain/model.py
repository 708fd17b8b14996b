"""Domain values: what a post, a user and the feed's events are."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from feedloom.domain.facets import Facet
from feedloom.domain.notifications import Notified


class Visibility(StrEnum):
    PUBLIC = "public"
    FOLLOWERS = "followers"


class Role(StrEnum):
    """What an account may do beyond its own posts; no role is an ordinary account."""

    MODERATOR = "moderator"


class FeedOrder(StrEnum):
    CHRONOLOGICAL = "chronological"
    RANKED = "ranked"


@dataclass(frozen=True, slots=True)
class MediaSize:
    """A smaller copy of an image, made in the background."""

    url: str
    width: int
    height: int


@dataclass(frozen=True, slots=True)
class Media:
    id: int
    url: str  # the (verified, metadata-free) original: served until sizes exist
    width: int
    height: int
    alt: str = ""
    sizes: tuple[MediaSize, ...] = ()
    # Sent straight to the object store (a presigned PUT) and not checked yet: never
    # shown until the worker verified the bytes (write/media_jobs.py).
    pending: bool = False


def object_name(url: str) -> str:
    """What a medium or one of its sizes is stored under: its URL's last segment
    (`{id}-{token}.{ext}`, `{id}-{token}_{width}.webp`)."""
    return url.rsplit("/", 1)[-1]


@dataclass(frozen=True, slots=True)
class Post:
    """The shared view of a post, the same for every reader (and so cacheable)."""

    id: int
    author_id: int
    text: str
    visibility: Visibility
    created_at: datetime
    media: tuple[Media, ...] = ()
    deleted: bool = False
    # The author's account is suspended or deleted: the post is hidden from everyone.
    author_suspended: bool = False
    # Held by the content check before fan-out: visible to its author only.
    held: bool = False
    # A reply: the post replied to and its author (kept on the row, so the reply rule
    # needs no second lookup at fan-out or read time: domain/threads.py).
    in_reply_to: int | None = None
    reply_to_author: int | None = None
    # A repost names its original (it has no text of its own); a quote embeds one.
    repost_of: int | None = None
    quote_of: int | None = None
    # Live reposts and quotes of this post (kept with the row: domain/reposts.py).
    reposts: int = 0
    quotes: int = 0
    # Mentions, tags and links of the text, parsed and resolved when it was written
    # (domain/facets.py); mentions and tags are also recorded in their own tables.
    facets: tuple[Facet, ...] = ()
    edited_at: datetime | None = None  # the last edit (None: never edited)
    # A repost's original as loaded for a page (never cached with the repost's view).
    original: Post | None = None

    @property
    def shown(self) -> Post:
        """What a reader is shown for this entry: a repost's original, else itself."""
        return self.original if self.original is not None else self

    @property
    def replies_to_other(self) -> bool:
        """A reply to someone else's post (a reply to one's own is a thread)."""
        return self.reply_to_author is not None and self.reply_to_author != self.author_id

    @property
    def mentions(self) -> list[tuple[int, str]]:
        """The accounts the text mentions, (ID, username), once each in text order."""
        seen: dict[int, str] = {}
        for facet in self.facets:
            if facet.user_id is not None:
                seen.setdefault(facet.user_id, facet.value)
        return list(seen.items())

    @property
    def tags(self) -> list[str]:
        return list(dict.fromkeys(f.value for f in self.facets if f.kind == "tag"))

    @property
    def shown_media(self) -> tuple[Media, ...]:
        """What readers get: media still waiting for their check are left out."""
        return tuple(media for media in self.media if not media.pending)


@dataclass(frozen=True, slots=True)
class PostVersion:
    """What a post said from `written_at` until its next edit (write/edit_post.py)."""

    text: str
    media: tuple[Media, ...]
    written_at: datetime


@dataclass(frozen=True, slots=True)
class UserProfile:
    id: int
    username: str
    display_name: str
    avatar: str | None
    followers: int = 0
    following: int = 0
    pulled: bool = False
    suspended: bool = False  # suspended or deleted: hidden from everyone
    bio: str = ""
    flagged: bool = False  # suspicious: its likes and comments do not count toward ranking
    deleted: bool = False  # erased (then also `suspended`): a tombstone, gone for good


@dataclass(frozen=True, slots=True)
class Comment:
    """A direct reply as the comments endpoints show it (a comment IS a reply post)."""

    id: int
    post_id: int
    author_id: int
    text: str
    created_at: datetime

    @classmethod
    def of(cls, reply: Post) -> Comment:
        return cls(reply.id, reply.in_reply_to or 0, reply.author_id, reply.text, reply.created_at)


@dataclass(frozen=True, slots=True)
class Counts:
    likes: int = 0
    comments: int = 0


@dataclass(frozen=True, slots=True)
class PostPublished:
    """Outbox event: a post exists and must reach its author's followers.

    `seq` is the outbox row (0: none), deleted once the fan-out is done; `pulled` is
    the relay's decision (None: not decided, the worker looks the author up)."""

    post_id: int
    author_id: int
    seq: int = 0
    pulled: bool | None = None


@dataclass(frozen=True, slots=True)
class PostDeleted:
    """Outbox event: purge a tombstoned post from caches and the author timeline."""

    post_id: int
    author_id: int
    seq: int = 0


@dataclass(frozen=True, slots=True)
class AuthorPushed:
    """Outbox event: a pulled author is pushed again; their recent posts must be
    back-filled into the timelines of their followers (no post: `post_id` is 0)."""

    author_id: int
    post_id: int = 0
    seq: int = 0


@dataclass(frozen=True, slots=True)
class PostEdited:
    """Outbox event, for webhooks alone (`post.edited`): an edit touches no timeline."""

    post_id: int
    author_id: int
    seq: int = 0


@dataclass(frozen=True, slots=True)
class AccountErased:
    """Outbox event, for webhooks alone (`user.deleted`): the account `author_id` was
    erased. Its app link (`app_id`, `external_id`) went with it, so the event keeps it."""

    author_id: int
    app_id: int
    external_id: str
    post_id: int = 0
    seq: int = 0


@dataclass(frozen=True, slots=True)
class FeedItem:
    """One hydrated entry of a feed page, personal to its reader."""

    post: Post
    author: UserProfile
    counts: Counts
    liked_by_me: bool
    source: str = "pushed"
    score: float | None = None
    extra: dict[str, float] = field(default_factory=dict)
    views: int = 0  # distinct viewers, estimated (HyperLogLog)
    replied_to: UserProfile | None = None  # the author of the post replied to
    # A repost's entry shows the original (`post`) and who reposted it, under its own ID.
    reposted_by: UserProfile | None = None
    repost_id: int | None = None
    reposted_by_me: bool = False
    # A quote's embedded post, as this reader may see it (None: unavailable to them).
    quote: Post | None = None
    quote_author: UserProfile | None = None
    # Ranked feed only: why a post from outside the people the reader follows is here
    # ("liked_by", with some of the followees who liked it, or "trending"); None inside.
    reason: str | None = None
    liked_by: tuple[UserProfile, ...] = ()

    @property
    def entry_id(self) -> int:
        """The timeline entry this item stands for: the repost's ID, or the post's."""
        return self.repost_id if self.repost_id is not None else self.post.id


Event = PostPublished | PostDeleted | AuthorPushed | Notified | PostEdited | AccountErased

TAG_SOURCE = "tag:"  # a feed item's source when a followed tag brought it: "tag:<name>"


def tag_reason(source: str) -> str | None:
    """The followed tag a feed item's source names, if any."""
    return source[len(TAG_SOURCE) :] if source.startswith(TAG_SOURCE) else None
