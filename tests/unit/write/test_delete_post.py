"""Deleting a post: a tombstone and a PostDeleted event at once, the cached view forgotten;
only the author may (someone else is refused 403 if they may see the post, else told it
does not exist), and deleting twice is deleting once."""

from __future__ import annotations

import pytest

from feedloom.domain.errors import Forbidden, NotFound
from feedloom.domain.model import Post, PostDeleted, Visibility
from feedloom.lookups.access import Access
from feedloom.lookups.cached_views import Views
from feedloom.lookups.reader_state import ReaderStates
from feedloom.lookups.tag_timelines import TagTimelines
from feedloom.write.delete_post import DeletePost
from tests.unit.fakes import (
    FakeAuthorTimelineStore,
    FakeGraphReader,
    FakePostStore,
    FakePreferenceStore,
    FakeProfileStore,
    FakeRecordCache,
    FakeRelationStore,
    FakeReplyCounts,
    FakeReposts,
    FakeTags,
    FakeViewCache,
    clock,
    id_generator,
    new_post,
    user,
    views_over,
)

AUTHOR, OTHER = 1, 2


def world(
    visibility: Visibility = Visibility.PUBLIC,
) -> tuple[DeletePost, Post, FakePostStore, FakeViewCache[Post], Views]:
    post = new_post(id_generator(), AUTHOR, visibility)
    posts, post_cache = FakePostStore(post), FakeViewCache[Post]()
    profiles = FakeProfileStore(user(AUTHOR), user(OTHER))
    views = views_over(posts, profiles, post_cache)
    graph = FakeGraphReader(FakeRelationStore(profiles), profiles)
    states = ReaderStates(
        FakeRecordCache(), graph, FakePreferenceStore(), FakeReposts(), FakeTags()
    )
    access = Access(views, states)
    return (
        DeletePost(
            posts,
            views,
            access,
            states,
            FakeReplyCounts(),
            TagTimelines(FakeAuthorTimelineStore(), FakeTags(), 20),
            clock,
        ),
        post,
        posts,
        post_cache,
        views,
    )


async def test_a_deleted_post_is_tombstoned_and_its_cached_view_forgotten() -> None:
    delete, post, posts, post_cache, views = world()
    await views.post(post.id)  # a reader cached it
    assert post.id in post_cache.data
    await delete(AUTHOR, post.id)
    assert posts.by_id[post.id].deleted
    assert posts.outbox == [PostDeleted(post.id, AUTHOR)]
    assert post.id not in post_cache.data
    viewed = await views.post(post.id)
    assert viewed is not None and viewed.deleted  # the next read sees the tombstone


async def test_deleting_a_post_that_does_not_exist_is_not_found() -> None:
    delete, post, _, _, _ = world()
    with pytest.raises(NotFound):
        await delete(AUTHOR, post.id + 1)


async def test_only_the_author_may_delete_a_post() -> None:
    delete, post, posts, _, _ = world()
    with pytest.raises(Forbidden):
        await delete(OTHER, post.id)
    assert not posts.by_id[post.id].deleted and posts.outbox == []


async def test_deleting_twice_is_the_same_as_once() -> None:
    delete, post, posts, _, _ = world()
    await delete(AUTHOR, post.id)
    await delete(AUTHOR, post.id)
    assert posts.outbox == [PostDeleted(post.id, AUTHOR)]


async def test_someone_elses_post_they_may_not_see_is_not_found() -> None:
    delete, post, posts, _, _ = world(Visibility.FOLLOWERS)
    with pytest.raises(NotFound):
        await delete(OTHER, post.id)
    assert not posts.by_id[post.id].deleted
