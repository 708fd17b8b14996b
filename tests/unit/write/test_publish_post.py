"""Publishing: the post and its outbox event go through the port in one call; a retry
with the same Idempotency-Key is answered from the first one; limits are enforced."""

from __future__ import annotations

import pytest

from feedloom.adapters.memory.sketches import MemoryTrendingStore
from feedloom.domain.errors import IdempotencyMismatch, InvalidInput, NotFound, RateLimited
from feedloom.domain.model import Media, Post, PostPublished, Visibility
from feedloom.lookups.access import Access
from feedloom.lookups.reader_state import ReaderStates
from feedloom.write.facets import ParseFacets
from feedloom.write.publish_post import PostLimits, PublishPost
from feedloom.write.tag_use import TagUse
from tests.unit.fakes import (
    NOW,
    FakeAuthorTimelineStore,
    FakeCounterStore,
    FakeGraphReader,
    FakeMediaStore,
    FakeMentionResolver,
    FakePostStore,
    FakePreferenceStore,
    FakeProfileStore,
    FakeRateLimiter,
    FakeRecordCache,
    FakeRelationStore,
    FakeReplyCounts,
    FakeReposts,
    FakeTags,
    FakeViewCache,
    clock,
    id_generator,
    new_post,
    throttle,
    user,
    views_over,
)

AUTHOR, OTHER = 1, 2
PUBLIC = Visibility.PUBLIC


def publisher(
    posts: FakePostStore,
    media: FakeMediaStore | None = None,
    per_minute: int = 10,
    replies: FakeReplyCounts | None = None,
    post_cache: FakeViewCache[Post] | None = None,
) -> PublishPost:
    limits = PostLimits(max_chars=20, media_per_post=2)
    media = media if media is not None else FakeMediaStore()
    authors = FakeAuthorTimelineStore()
    profiles = FakeProfileStore(user(AUTHOR), user(OTHER))
    views, counters = views_over(posts, profiles, post_cache), FakeCounterStore()
    graph = FakeGraphReader(FakeRelationStore(profiles), profiles)
    access = Access(
        views,
        ReaderStates(FakeRecordCache(), graph, FakePreferenceStore(), FakeReposts(), FakeTags()),
    )
    return PublishPost(
        posts,
        media,
        authors,
        views,
        counters,
        access,
        replies or FakeReplyCounts(),
        ParseFacets(FakeMentionResolver({"other": (OTHER, "Other")})),
        TagUse(FakeTags(), MemoryTrendingStore((3_600,)), clock),
        throttle(FakeRateLimiter(), posts=per_minute),
        id_generator(),
        clock,
        limits,
    )


async def test_a_published_post_is_stored_with_its_outbox_event() -> None:
    posts = FakePostStore()
    published = await publisher(posts)(AUTHOR, "  hello  ", [], PUBLIC, None)
    assert not published.replayed
    assert posts.by_id[published.post_id].text == "hello"
    assert posts.by_id[published.post_id].author_id == AUTHOR
    assert posts.outbox == [PostPublished(published.post_id, AUTHOR)]


async def test_a_post_carries_its_facets_with_known_mentions_resolved() -> None:
    posts = FakePostStore()
    published = await publisher(posts)(AUTHOR, " @OTHER @kim #Tag", [], PUBLIC, None)
    stored = posts.by_id[published.post_id]
    assert stored.text == "@OTHER @kim #Tag"
    assert [(f.kind, f.start, f.end, f.value, f.user_id) for f in stored.facets] == [
        ("mention", 0, 6, "Other", OTHER),
        ("tag", 12, 16, "tag", None),
    ]
    assert stored.mentions == [(OTHER, "Other")]


async def test_a_retry_with_the_same_key_returns_the_first_post_and_stores_nothing_new() -> None:
    posts = FakePostStore()
    publish = publisher(posts)
    first = await publish(AUTHOR, "hello", [], PUBLIC, "key-1")
    again = await publish(AUTHOR, "hello", [], PUBLIC, "key-1")
    assert (again.post_id, again.replayed) == (first.post_id, True)
    assert again.created_at == first.created_at
    assert len(posts.by_id) == len(posts.outbox) == 1


async def test_the_same_key_with_a_different_body_is_refused() -> None:
    posts = FakePostStore()
    publish = publisher(posts)
    await publish(AUTHOR, "hello", [], PUBLIC, "key-1")
    with pytest.raises(IdempotencyMismatch):
        await publish(AUTHOR, "hello, again", [], PUBLIC, "key-1")
    assert len(posts.by_id) == 1


async def test_a_retry_after_the_first_post_was_deleted_finds_it_gone() -> None:
    posts, post_cache = FakePostStore(), FakeViewCache[Post]()
    publish = publisher(posts, post_cache=post_cache)
    first = await publish(AUTHOR, "hello", [], PUBLIC, "key-1")
    await posts.tombstone(first.post_id, NOW)
    post_cache.data.clear()  # as DeletePost forgets the view
    with pytest.raises(NotFound, match="is gone"):
        await publish(AUTHOR, "hello", [], PUBLIC, "key-1")
    assert len(posts.by_id) == 1


async def test_keys_belong_to_their_author() -> None:
    posts = FakePostStore()
    publish = publisher(posts)
    mine = await publish(AUTHOR, "hello", [], PUBLIC, "key-1")
    theirs = await publish(OTHER, "hello", [], PUBLIC, "key-1")
    assert theirs.post_id != mine.post_id and not theirs.replayed


async def test_past_the_rate_limit_a_post_is_refused_with_the_time_to_wait() -> None:
    posts = FakePostStore()
    publish = publisher(posts, per_minute=2)
    await publish(AUTHOR, "one", [], PUBLIC, None)
    await publish(AUTHOR, "two", [], PUBLIC, None)
    with pytest.raises(RateLimited) as refused:
        await publish(AUTHOR, "three", [], PUBLIC, None)
    assert refused.value.retry_after_s == 60
    assert len(posts.by_id) == 2


async def test_a_replay_is_not_charged_to_the_rate_limit() -> None:
    publish = publisher(FakePostStore(), per_minute=1)
    first = await publish(AUTHOR, "hello", [], PUBLIC, "key-1")
    assert (await publish(AUTHOR, "hello", [], PUBLIC, "key-1")).post_id == first.post_id


async def test_a_post_may_carry_only_media_its_author_uploaded() -> None:
    posts, media = FakePostStore(), FakeMediaStore()
    mine, theirs = Media(71, "/m/71", 640, 480), Media(72, "/m/72", 640, 480)
    await media.create_media(mine, AUTHOR, NOW)
    await media.create_media(theirs, OTHER, NOW)
    for item in (mine, theirs):
        await media.mark_uploaded(item.id, item.width, item.height, NOW)
    publish = publisher(posts, media)
    published = await publish(AUTHOR, "", ["71"], PUBLIC, None)
    assert posts.by_id[published.post_id].media == (mine,)
    with pytest.raises(NotFound, match="media you uploaded"):
        await publish(AUTHOR, "look", ["71", "72"], PUBLIC, None)
    assert len(posts.by_id) == 1


@pytest.mark.parametrize(
    ("text", "media_ids"),
    [
        ("   ", []),
        ("x" * 21, []),
        ("x" + " " * 20, []),  # too long as sent, however short once stripped
        ("three media", ["1", "2", "3"]),
        ("bad id", ["abc"]),
        ("leading zero", ["071"]),
    ],
)
async def test_an_empty_overlong_or_malformed_post_is_refused(
    text: str, media_ids: list[str]
) -> None:
    posts = FakePostStore()
    with pytest.raises(InvalidInput):
        await publisher(posts)(AUTHOR, text, media_ids, PUBLIC, None)
    assert posts.by_id == {} and posts.outbox == []


# -- replies -----------------------------------------------------------------------


async def test_a_reply_names_its_parent_and_its_author_and_counts_on_the_parent() -> None:
    parent = new_post(id_generator(), OTHER)
    posts, replies = FakePostStore(parent), FakeReplyCounts()
    published = await publisher(posts, replies=replies)(
        AUTHOR, "yes", [], PUBLIC, None, in_reply_to=str(parent.id)
    )
    reply = posts.by_id[published.post_id]
    assert (reply.in_reply_to, reply.reply_to_author) == (parent.id, OTHER)
    assert replies.counted == [(reply.id, parent.id)]


async def test_a_reply_to_a_post_its_author_may_not_see_writes_nothing() -> None:
    hidden = new_post(id_generator(), OTHER, Visibility.FOLLOWERS)
    posts = FakePostStore(hidden)
    publish = publisher(posts)
    for parent in (str(hidden.id), "123456789"):
        with pytest.raises(NotFound):
            await publish(AUTHOR, "hm", [], PUBLIC, None, in_reply_to=parent)
    with pytest.raises(InvalidInput):
        await publish(AUTHOR, "hm", [], PUBLIC, None, in_reply_to=str(2**63))
    assert list(posts.by_id) == [hidden.id] and posts.outbox == []


async def test_a_comment_is_a_reply_with_its_posts_visibility_and_replays_under_its_key() -> None:
    parent = new_post(id_generator(), AUTHOR, Visibility.FOLLOWERS)
    posts = FakePostStore(parent)
    publish = publisher(posts)
    first = await publish.comment(AUTHOR, parent.id, " nice ", "key-c")
    again = await publish.comment(AUTHOR, parent.id, "nice", "key-c")
    assert first == again and first.post_id == parent.id and first.text == "nice"
    assert posts.by_id[first.id].visibility is Visibility.FOLLOWERS
    with pytest.raises(IdempotencyMismatch):
        await publish(AUTHOR, "nice", [], PUBLIC, "key-c")
