"""Fan-out on write: a post's ID into the timelines of its author's followers that exist,
in keyset batches; gone posts are done; PostDeleted purges the author timeline and view;
a deleted or edited post is told to its author's and followers' open streams."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, replace

from feedloom.adapters.memory.notices import MemoryNoticeBus
from feedloom.domain.model import (
    AuthorPushed,
    Event,
    Post,
    PostDeleted,
    PostEdited,
    PostPublished,
)
from feedloom.lookups.author_timelines import AuthorTimelines
from feedloom.lookups.notices import Notices, changed_post
from feedloom.lookups.tag_timelines import TagTimelines
from feedloom.metrics import Metrics
from feedloom.ports import Delivery, Lane, PostRun
from feedloom.write.fan_out import FanOut
from tests.unit.fakes import (
    NOW,
    FakeAuthorTimelineStore,
    FakeFollowerLister,
    FakePostArchive,
    FakePostStore,
    FakeProfileStore,
    FakeTags,
    FakeTimelineStore,
    FakeViewCache,
    clock,
    id_generator,
    new_post,
    user,
    views_over,
)

AUTHOR = 1
FOLLOWERS = [10, 11, 12, 13, 14]
ACTIVE = [10, 11, 13]  # the others have no timeline (inactive, or never built)


@dataclass
class World:
    post: Post
    posts: FakePostStore
    followers: FakeFollowerLister
    timelines: FakeTimelineStore
    author_timelines: FakeAuthorTimelineStore
    post_cache: FakeViewCache[Post]
    fan_out: FanOut

    async def deliver(self, *events: Event, lane: Lane = "default") -> None:
        await self.fan_out.handle([Delivery(event, lane, str(i)) for i, event in enumerate(events)])

    def holding(self, post_id: int) -> set[int]:
        return {user_id for user_id, ids in self.timelines.ids.items() if post_id in ids}


def world(pulled: bool = False) -> World:
    post = new_post(id_generator(), AUTHOR)
    posts, profiles = FakePostStore(post), FakeProfileStore(user(AUTHOR, 5, pulled))
    followers = FakeFollowerLister({(follower, AUTHOR) for follower in FOLLOWERS})
    timelines, author_timelines = FakeTimelineStore(), FakeAuthorTimelineStore()
    for user_id in [AUTHOR, *ACTIVE]:
        timelines.ids[user_id] = set()
    author_timelines.ids[AUTHOR] = []
    post_cache = FakeViewCache[Post]()
    views = views_over(posts, profiles, post_cache)
    recent = AuthorTimelines(author_timelines, FakePostArchive(posts), 20)
    fan_out = FanOut(
        posts,
        profiles,
        followers,
        timelines,
        author_timelines,
        recent,
        TagTimelines(FakeAuthorTimelineStore(), FakeTags(), 20),
        views,
        Metrics(),
        clock,
        {"default": 2, "bulk": 3},
    )
    return World(post, posts, followers, timelines, author_timelines, post_cache, fan_out)


async def test_a_post_reaches_the_timelines_that_exist_and_no_others() -> None:
    w = world()
    await w.deliver(PostPublished(w.post.id, AUTHOR))
    assert w.holding(w.post.id) == {AUTHOR, *ACTIVE}
    assert set(w.timelines.ids) == {AUTHOR, *ACTIVE}  # no timeline was created
    assert w.author_timelines.ids[AUTHOR] == [w.post.id]


async def test_followers_are_read_once_and_inserted_a_chunk_at_a_time() -> None:
    w = world()
    chunks: list[int] = []
    insert_many = w.timelines.insert_many

    async def counted(runs: Sequence[PostRun]) -> int:
        chunks.append(sum(len(owners) for _, owners in runs))
        return await insert_many(runs)

    w.timelines.insert_many = counted  # type: ignore[method-assign]
    await w.deliver(PostPublished(w.post.id, AUTHOR))
    assert w.followers.lists_asked == [[AUTHOR]]
    # The author's own (1) beside the followers by 2 (page size): the two run at once
    assert sorted(chunks) == [1, 1, 2, 2] and chunks[chunks.index(2) :][:3] == [2, 2, 1]
    chunks.clear()
    await w.deliver(PostPublished(w.post.id, AUTHOR), lane="bulk")
    assert sorted(chunks) == [1, 2, 3] and chunks[chunks.index(3) :][:2] == [3, 2]  # bulk: 3


async def test_a_pulled_authors_post_reaches_only_the_authors_own_timelines() -> None:
    w = world(pulled=True)
    await w.deliver(PostPublished(w.post.id, AUTHOR))
    assert w.holding(w.post.id) == {AUTHOR}
    assert w.author_timelines.ids[AUTHOR] == [w.post.id]
    assert w.followers.lists_asked == []


async def test_a_post_deleted_before_its_fan_out_is_done() -> None:
    w = world()
    await w.posts.tombstone(w.post.id, NOW)
    await w.deliver(PostPublished(w.post.id, AUTHOR))
    assert w.holding(w.post.id) == set()
    assert w.author_timelines.ids[AUTHOR] == []


async def test_a_post_that_no_longer_exists_is_done() -> None:
    w = world()
    await w.deliver(PostPublished(w.post.id + 1, AUTHOR))
    assert w.holding(w.post.id + 1) == set()


async def test_a_repeated_delivery_changes_nothing() -> None:
    w = world()
    await w.deliver(PostPublished(w.post.id, AUTHOR))
    await w.deliver(PostPublished(w.post.id, AUTHOR))
    assert w.holding(w.post.id) == {AUTHOR, *ACTIVE}
    assert w.author_timelines.ids[AUTHOR] == [w.post.id]


async def test_post_deleted_purges_the_author_timeline_and_the_cached_view() -> None:
    w = world()
    await w.deliver(PostPublished(w.post.id, AUTHOR))
    w.post_cache.data[w.post.id] = w.post  # a reader cached the view meanwhile
    await w.deliver(PostDeleted(w.post.id, AUTHOR))
    assert w.author_timelines.ids[AUTHOR] == []
    assert w.post.id not in w.post_cache.data
    # Home timelines keep the ID: the read-time filter drops it, newer posts trim it.
    assert w.holding(w.post.id) == {AUTHOR, *ACTIVE}


async def test_a_batch_of_several_authors_reads_their_followers_in_one_keyset() -> None:
    w = world()
    other = replace(w.post, id=w.post.id + 1, author_id=2)
    w.posts.by_id[other.id] = other
    w.followers._follows.add((10, 2))
    await w.deliver(PostPublished(w.post.id, AUTHOR, pulled=False), PostPublished(other.id, 2))
    assert w.holding(other.id) == {10}
    assert w.holding(w.post.id) == {AUTHOR, *ACTIVE}
    # One query for both authors' followers, not one per post.
    assert w.followers.lists_asked == [[AUTHOR, 2]]


async def test_the_relays_decision_is_trusted_without_reading_the_author() -> None:
    w = world(pulled=False)
    await w.deliver(PostPublished(w.post.id, AUTHOR, pulled=True))
    assert w.holding(w.post.id) == {AUTHOR}  # pulled, as the event says


async def test_an_author_pushed_again_has_recent_posts_back_filled_into_active_timelines() -> None:
    w = world(pulled=True)
    await w.deliver(PostPublished(w.post.id, AUTHOR))  # while pulled: no follower got it
    assert w.holding(w.post.id) == {AUTHOR}
    await w.deliver(AuthorPushed(AUTHOR))
    assert w.holding(w.post.id) == {AUTHOR, *ACTIVE}
    assert set(w.timelines.ids) == {AUTHOR, *ACTIVE}  # no timeline was created


# -- the reply rule ------------------------------------------------------------------

REPLIED_TO = 2  # another author; followers 10 and 11 follow them too, 13 does not


def replying_world() -> tuple[World, Post, Post]:
    w = world()
    ids = id_generator()
    theirs = new_post(ids, REPLIED_TO)
    reply = replace(new_post(ids, AUTHOR), in_reply_to=theirs.id, reply_to_author=REPLIED_TO)
    thread = replace(new_post(ids, AUTHOR), in_reply_to=w.post.id, reply_to_author=AUTHOR)
    for post in (theirs, reply, thread):
        w.posts.by_id[post.id] = post
    w.followers._follows |= {(10, REPLIED_TO), (11, REPLIED_TO), (14, REPLIED_TO)}
    w.timelines.ids[REPLIED_TO] = set()
    w.followers._follows.add((REPLIED_TO, AUTHOR))
    return w, reply, thread


async def test_a_reply_reaches_only_followers_who_follow_the_account_replied_to_too() -> None:
    w, reply, _ = replying_world()
    await w.deliver(PostPublished(reply.id, AUTHOR))
    # 13 follows the author only; the account replied to follows the author: it is them.
    assert w.holding(reply.id) == {AUTHOR, 10, 11, REPLIED_TO}


async def test_a_reply_to_ones_own_post_reaches_every_follower() -> None:
    w, _, thread = replying_world()
    await w.deliver(PostPublished(thread.id, AUTHOR))
    assert w.holding(thread.id) == {AUTHOR, *ACTIVE, REPLIED_TO}


async def test_a_batchs_replies_read_their_relations_in_one_query_not_one_per_follower() -> None:
    w, reply, thread = replying_world()
    await w.deliver(
        PostPublished(w.post.id, AUTHOR),
        PostPublished(reply.id, AUTHOR),
        PostPublished(thread.id, AUTHOR),
    )
    assert w.followers.lists_asked == [[AUTHOR]]
    assert w.followers.also_asked == [[(AUTHOR, REPLIED_TO)]]


async def test_a_deleted_or_edited_post_is_told_to_its_authors_and_followers_streams() -> None:
    for pulled in (False, True):
        w = world(pulled=pulled)
        w.fan_out.notices = Notices(MemoryNoticeBus())
        streams = [AUTHOR, *FOLLOWERS, 99]  # 99 follows nobody
        followees = [AUTHOR] if pulled else []
        async with contextlib.AsyncExitStack() as opened:
            listeners = {
                reader: await opened.enter_async_context(
                    w.fan_out.notices.listen(reader, followees if reader != 99 else [])
                )
                for reader in streams
            }
            await w.deliver(PostEdited(w.post.id, AUTHOR), PostDeleted(w.post.id, AUTHOR))
            for reader, listener in listeners.items():
                heard = [await listener.next(0.01), await listener.next(0.01)]
                told = [changed_post(n) if n is not None else None for n in heard]
                assert told == ([None, None] if reader == 99 else [w.post.id, w.post.id])
