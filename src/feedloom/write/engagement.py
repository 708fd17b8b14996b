"""Likes and comments. The unique (post, user) row is the truth and is written at
once; displayed counts follow through the counter buffer (see counting.py), and the
reader -> author affinity ranking feature is updated right after (see affinity.py)."""

from __future__ import annotations

from feedloom.backend import Backend
from feedloom.domain.errors import InvalidInput, NotFound
from feedloom.domain.model import Comment, Post
from feedloom.domain.visibility import may_see
from feedloom.read.viewer import viewer_of
from feedloom.write.affinity import record_interaction


async def like(backend: Backend, user_id: int, post_id: int) -> bool:
    post = await visible_post(backend, user_id, post_id)
    now = backend.clock()
    created = await backend.engagement.like(post_id, user_id, now)
    if created:
        backend.counter_buffer.add(post_id, likes=1)
        await record_interaction(backend, user_id, post.author_id, "like", now)
    return created


async def unlike(backend: Backend, user_id: int, post_id: int) -> bool:
    """Affinity is left as is: see write/affinity.py for why."""
    await visible_post(backend, user_id, post_id)
    removed = await backend.engagement.unlike(post_id, user_id)
    if removed:
        backend.counter_buffer.add(post_id, likes=-1)
    return removed


async def add_comment(
    backend: Backend, user_id: int, post_id: int, text: str, idempotency_key: str | None = None
) -> Comment:
    post = await visible_post(backend, user_id, post_id)
    text = text.strip()
    if not 0 < len(text) <= backend.settings.comment_max_chars:
        raise InvalidInput(
            f"comment text must be 1-{backend.settings.comment_max_chars} characters"
        )
    comment_id = backend.ids.next_id()
    comment = Comment(comment_id, post_id, user_id, text, backend.clock())
    stored = await backend.engagement.add_comment(comment, idempotency_key)
    if stored.id == comment.id:  # not a replay of an earlier request
        backend.counter_buffer.add(post_id, comments=1)
        await record_interaction(backend, user_id, post.author_id, "comment", stored.created_at)
    return stored


async def visible_post(backend: Backend, viewer_id: int, post_id: int) -> Post:
    """404 unless the viewer may see the post: a hidden post is not confirmed to exist."""
    post = (await backend.posts.posts([post_id])).get(post_id)
    if post is not None and may_see(await viewer_of(backend, viewer_id, post.author_id), post):
        post = None
    if post is None or post.deleted:
        raise NotFound("no such post")
    return post
