"""GET /v1/users/{id}/posts and GET /v1/posts/{id}: posts as one reader may see them."""

from __future__ import annotations

from feedloom.backend import Backend
from feedloom.domain.cursors import KeysetCursor, encode_cursor
from feedloom.domain.errors import NotFound
from feedloom.domain.model import FeedItem, FeedOrder, UserProfile
from feedloom.domain.timeline import older_than
from feedloom.domain.visibility import may_see
from feedloom.read.author_timelines import recent_post_ids
from feedloom.read.home_timeline import FeedPage, _keyset
from feedloom.read.hydrate import hydrate, load_posts, load_profiles
from feedloom.read.pagination import collect_visible
from feedloom.read.viewer import viewer_of


async def user_profile(backend: Backend, viewer_id: int, user_id: int) -> UserProfile:
    profile = (await load_profiles(backend, [user_id])).get(user_id)
    if profile is None or (
        viewer_id != user_id and await backend.graph.is_blocked_either_way(viewer_id, user_id)
    ):
        raise NotFound("no such user")
    return profile


async def author_posts(
    backend: Backend, viewer_id: int, author_id: int, limit: int, cursor: str | None
) -> FeedPage:
    await user_profile(backend, viewer_id, author_id)
    viewer = await viewer_of(backend, viewer_id, author_id)
    length = backend.settings.author_timeline_length

    async def fetch(before: int | None, count: int) -> dict[int, str]:
        recent = older_than((await recent_post_ids(backend, [author_id]))[author_id], before)
        if len(recent) < count:  # beyond the cached author timeline: the store
            recent = await backend.posts.post_ids_by_authors([author_id], before, None, count)
        return dict.fromkeys(recent[:count], "author")

    collected = await collect_visible(
        backend, fetch, lambda post: may_see(viewer, post), _keyset(cursor), min(limit, length)
    )
    items = await hydrate(backend, viewer_id, collected.posts, collected.sources)
    next_cursor = None
    if collected.posts and not collected.exhausted:
        next_cursor = encode_cursor(KeysetCursor(before=collected.posts[-1].id))
    return FeedPage(items, next_cursor, FeedOrder.CHRONOLOGICAL, collected.filtered)


async def single_post(backend: Backend, viewer_id: int, post_id: int) -> FeedItem:
    post = (await load_posts(backend, [post_id])).get(post_id)
    if post is None:
        raise NotFound("no such post")
    viewer = await viewer_of(backend, viewer_id, post.author_id)
    if may_see(viewer, post) is not None:
        raise NotFound("no such post")
    items = await hydrate(backend, viewer_id, [post], {post_id: "direct"})
    if not items:
        raise NotFound("no such post")
    return items[0]
