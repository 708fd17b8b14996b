"""Durable-store ports, one small role each: the truth, in SQLite or PostgreSQL.

A use case names only the roles it touches (publishing needs `PostStore` and
`MediaStore`, fan-out needs `FollowerLister`), so its signature says what it reads and
writes and a unit test needs a ten-line fake. One SQL adapter class may play several
roles; nothing inherits.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from datetime import datetime
from typing import Literal, Protocol

from feedloom.domain.facets import Facet
from feedloom.domain.model import Comment, Counts, Media, Post, PostVersion
from feedloom.domain.people import FollowKey, RankKey, RelationFlags, RepostKey, Suggested
from feedloom.domain.search import PostKey, SearchOrder, TagKey
from feedloom.ports.records import (
    Followee,
    NewUser,
    OwnRelations,
    StageProgress,
    StoredResponse,
)
from feedloom.ports.tags import TagRecord
from feedloom.ranking.affinity import AffinityState, InteractionKind

# -- posts -----------------------------------------------------------------------


class PostStore(Protocol):
    async def create_post(
        self,
        post: Post,
        idempotency_key: str | None,
        request_hash: str,
        now: datetime,
        kind: Literal["post", "comment"] = "post",
    ) -> StoredResponse:
        """Write post, outbox event and idempotency record (of `kind`) in ONE
        transaction. If the key already exists, write nothing and return what it
        stored. A reply's parent is checked in that transaction: NotFound when it is
        gone (nothing written), InvalidInput when the thread would be too deep; the
        stored reply gets its thread path and the author replied to from it."""
        ...

    async def stored_response(
        self, user_id: int, idempotency_key: str
    ) -> StoredResponse | None: ...
    async def posts(self, post_ids: Sequence[int]) -> dict[int, Post]: ...
    async def live_posts(self, post_ids: Sequence[int]) -> dict[int, int | None]:
        """Those of these posts that exist and are not deleted, each with the author it
        replies to (None: not a reply). What fan-out asks of every batch, without
        loading the posts."""
        ...

    async def tombstone(self, post_id: int, now: datetime, rejected: bool = False) -> bool:
        """Mark deleted and queue a PostDeleted event, in one transaction."""
        ...


class RepostStore(Protocol):
    """Reposts: post rows of their own that name an original (domain/reposts.py)."""

    async def repost(self, repost: Post, now: datetime) -> int:
        """Store the repost, its outbox event and the original's new count in ONE
        transaction, unless the reposter has a live repost of it: returns the live
        repost's ID (another than `repost.id`: nothing was written). NotFound when the
        original is gone."""
        ...

    async def unrepost(self, user_id: int, original_id: int, now: datetime) -> int | None:
        """Tombstone the user's live repost of the original, with its PostDeleted event
        and the original's count, in one transaction; its ID, None if there was none."""
        ...

    async def reposted(self, user_id: int, limit: int) -> list[int]:
        """The originals of the user's live reposts, most recently reposted first."""
        ...

    async def reposted_among(self, user_id: int, original_ids: Sequence[int]) -> set[int]:
        """Those of the originals the user has a live repost of."""
        ...


class ThreadStore(Protocol):
    """Replies and threads (domain/threads.py). Deleted replies and those by `hidden`
    authors are left out in the store, so a page stays full."""

    async def thread_path(self, post_id: int) -> str | None:
        """The post's path in its thread (None: no such post)."""
        ...

    async def descendants(
        self, path: str, after: str | None, limit: int, hidden: Collection[int] = ()
    ) -> list[tuple[int, str]]:
        """(ID, path) of the replies under `path`, depth first, after the path `after`."""
        ...

    async def reply_ids(
        self, post_id: int, before: int | None, limit: int, hidden: Collection[int] = ()
    ) -> list[int]:
        """The post's direct replies, newest first, older than `before`."""
        ...


class PostArchive(Protocol):
    """Post IDs by author: everything ever posted, keyset-paged on (author_id, id)."""

    async def author_post_ids(
        self, author_ids: Sequence[int], before: int | None, limit_per_author: int
    ) -> dict[int, list[int]]: ...
    async def post_ids_by_authors(
        self, author_ids: Sequence[int], before: int | None, after: int | None, limit: int
    ) -> list[int]: ...


class IdempotencyKeys(Protocol):
    async def purge_idempotency_keys(self, older_than: datetime) -> int: ...


# -- the follow graph --------------------------------------------------------------


class RelationStore(Protocol):
    """Relation writes; each returns whether anything changed."""

    async def follow(
        self, follower_id: int, followee_id: int, now: datetime, reposts: bool = True
    ) -> bool: ...
    async def follow_reposts(self, follower_id: int, followee_id: int, reposts: bool) -> bool:
        """Whether an existing follow brings the followee's reposts; true if it changed."""
        ...

    async def unfollow(self, follower_id: int, followee_id: int) -> bool: ...
    async def block(self, blocker_id: int, blocked_id: int, now: datetime) -> bool:
        """Record the block and remove follows in both directions, atomically."""
        ...

    async def unblock(self, blocker_id: int, blocked_id: int) -> bool: ...
    async def mute(
        self, muter_id: int, muted_id: int, now: datetime, notifications: bool = True
    ) -> bool:
        """Mute; `notifications`: the mute silences the account's notifications too (a
        mute again with another value changes it, and is a change)."""
        ...

    async def unmute(self, muter_id: int, muted_id: int) -> bool: ...


class GraphReader(Protocol):
    """One reader's relations, as the read-time filters need them."""

    async def followees(self, user_id: int) -> list[Followee]: ...
    async def blocked_either_way(self, user_id: int) -> set[int]: ...
    async def muted(self, user_id: int) -> set[int]: ...
    async def own_relations(self, user_id: int) -> OwnRelations:
        """The three above in one round trip to the store (a reader's record on a miss)."""
        ...

    async def is_following(self, follower_id: int, followee_id: int) -> bool: ...
    async def is_blocked_either_way(self, a: int, b: int) -> bool: ...


class PostEdits(Protocol):
    """Edits of posts and the versions they replaced (adapters/sql/edits.py)."""

    async def edit_post(
        self,
        post_id: int,
        author_id: int,
        text: str,
        facets: tuple[Facet, ...],
        new_media: tuple[Media, ...],
        idempotency_key: str | None,
        request_hash: str,
        now: datetime,
    ) -> StoredResponse:
        """Keep the post's current version, write the new one over it, in one
        transaction (NotFound if it is not the author's live post any more); with a
        key, what the key stored if another request claimed it first."""
        ...

    async def versions(self, post_id: int) -> list[PostVersion]:
        """The versions edits replaced, oldest first (the current one is the post)."""
        ...


class PostSearch(Protocol):
    """Full-text search over live posts (adapters/sql/search.py)."""

    async def find_posts(
        self,
        words: Sequence[str],
        readable_authors: Collection[int],
        after: PostKey | None,
        limit: int,
        order: SearchOrder,
    ) -> list[PostKey]:
        """Live posts holding every word (case and Latin accents ignored), public or by
        one of `readable_authors`, in `order`, strictly after `after`."""
        ...

    async def find_tags(self, prefix: str, after: TagKey | None, limit: int) -> list[TagRecord]:
        """Tags whose name starts with `prefix` (a normalised tag), most used first,
        then oldest, strictly after `after`."""
        ...


class PeopleDirectory(Protocol):
    """Finding people: by username (case ignored), by prefix, by who follows whom."""

    async def user_id_by_username(self, username: str) -> int | None: ...
    async def search(
        self, words: Sequence[str], exclude: Collection[int], after: RankKey | None, limit: int
    ) -> list[RankKey]:
        """Users with, for each word, a word of their username or display name that
        starts with it (case and Latin accents ignored), more followers first, then by
        id; strictly after `after`, none of `exclude`."""
        ...

    async def followers_page(
        self, user_id: int, before: FollowKey | None, limit: int
    ) -> list[FollowKey]:
        """Who follows the user, newest follow first, strictly after `before`."""
        ...

    async def following_page(
        self, user_id: int, before: FollowKey | None, limit: int
    ) -> list[FollowKey]:
        """Whom the user follows, newest follow first, strictly after `before`."""
        ...

    async def followers_among(self, user_id: int, candidates: Sequence[int]) -> set[int]:
        """Which of `candidates` follow the user: one query per page."""
        ...

    async def likers_page(
        self, post_id: int, before: FollowKey | None, limit: int
    ) -> list[FollowKey]:
        """Who liked the post, newest like first, strictly after `before`."""
        ...

    async def reposters_page(self, post_id: int, before: int | None, limit: int) -> list[RepostKey]:
        """Who reposts the post (live reposts), newest repost first, with repost IDs
        below `before`."""
        ...

    async def blocking_page(
        self, user_id: int, before: FollowKey | None, limit: int
    ) -> list[FollowKey]:
        """Whom the user blocks, newest block first, strictly after `before`."""
        ...

    async def muting_page(
        self, user_id: int, before: FollowKey | None, limit: int
    ) -> list[FollowKey]:
        """Whom the user mutes, newest mute first, strictly after `before`."""
        ...

    async def relation(self, viewer_id: int, other_id: int) -> RelationFlags:
        """Every relation between the two, both ways, read from the durable store."""
        ...


class SuggestionSource(Protocol):
    """Whom to suggest following, and the suggestions a user dismissed."""

    async def suggestions(
        self, user_id: int, active_since: datetime, limit: int
    ) -> list[Suggested]:
        """Friends of friends (most followed by the user's followees) first, then popular
        accounts active since `active_since`; none the user is, follows, blocks, is
        blocked by, mutes or dismissed, none suspended or deleted."""
        ...

    async def dismiss(self, user_id: int, dismissed_id: int, now: datetime) -> bool:
        """Never suggest `dismissed_id` to the user again; false if already dismissed."""
        ...


class FollowerLister(Protocol):
    async def follower_batch(self, followee_id: int, after: int, limit: int) -> list[int]:
        """Follower IDs above `after`, ascending: keyset pages for fan-out."""
        ...

    async def follower_lists(self, followee_ids: Sequence[int]) -> dict[int, list[int]]:
        """Each followee's followers (in no order; followees without any omitted): one
        query for a whole fan-out batch."""
        ...

    async def followers_also_following(
        self, pairs: Sequence[tuple[int, int]]
    ) -> dict[tuple[int, int], set[int]]:
        """For each (author, other): the author's followers who also follow `other`
        (pairs with none omitted). One query for a whole fan-out batch's replies."""
        ...


# -- engagement, ranking features, events, bulk loads ------------------------------


class Engagement(Protocol):
    async def like(
        self, post_id: int, user_id: int, now: datetime, notify: int | None = None
    ) -> bool:
        """A new like also notifies `notify` (the post's author), in its transaction."""
        ...

    async def unlike(self, post_id: int, user_id: int, notify: int | None = None) -> bool: ...
    async def liked_among(self, user_id: int, post_ids: Sequence[int]) -> set[int]: ...
    async def liked_since(
        self, user_ids: Sequence[int], since_post_id: int, limit: int
    ) -> dict[int, list[int]]:
        """For each user, the newest `limit` post IDs >= `since_post_id` they like, newest
        first (every user a key): ONE query."""
        ...

    async def comments_by(
        self, post_ids: Sequence[int], authors: Collection[int]
    ) -> dict[int, int]:
        """How many of the comments (live direct replies) `true_counts` counts each post
        has by these authors (posts with none left out)."""
        ...

    async def commented_post_ids(self, author_id: int, after: int, limit: int) -> list[int]:
        """The posts the author replied to with IDs above `after`, ascending, each once:
        keyset pages of the counts a change to the account moves."""
        ...

    async def true_counts(self, post_ids: Sequence[int]) -> dict[int, Counts]:
        """Likes, and comments anyone may see (none by a suspended or deleted account)."""
        ...

    async def flagged_counts(self, post_ids: Sequence[int]) -> dict[int, Counts]:
        """Likes and comments by accounts flagged as suspicious now, per post that has
        any: what the ranked feed takes off the displayed counts."""
        ...


class AffinityStore(Protocol):
    """Reader -> author affinity state (ranking/affinity.py), one row per pair: a batch
    feature kept fresh online. Interactions with one's own posts are never stored."""

    async def states(self, reader_id: int, author_ids: Sequence[int]) -> dict[int, AffinityState]:
        """ONE batched read; authors the reader never interacted with are absent."""
        ...

    async def add(
        self,
        reader_id: int,
        author_id: int,
        kind: InteractionKind,
        at: datetime,
        half_life_days: float,
    ) -> AffinityState:
        """Fold one like or comment into the pair's state; concurrent adds all count."""
        ...

    async def rebuild(self, half_life_days: float, progress: StageProgress | None = None) -> int:
        """Recompute every pair from the stored likes and comments and replace all
        states; returns how many pairs were written."""
        ...


class BulkImporter(Protocol):
    async def load(
        self,
        new_users: Sequence[NewUser],
        edges: Sequence[tuple[int, int]],
        now: datetime,
        is_pulled: Callable[[int], bool],
        progress: Callable[[int], None] = ...,
    ) -> None:
        """Insert users and follow edges, skipping existing ones, in one transaction;
        then recompute follow counts and pushed/pulled status."""
        ...

    async def load_history(
        self,
        posts: Sequence[Post],
        likes: Sequence[tuple[int, int]],
        comments: Sequence[Comment],
        now: datetime,
    ) -> None:
        """Insert past posts, likes (post, user) and comments in one transaction,
        skipping existing ones. No outbox events: history is not fanned out, timelines
        pick it up when they are (re)built from author timelines."""
        ...
