"""May this viewer see this post, this profile, these comments? One rule for every
single-object read and write (a post page, a like, a comment, a delete, a profile): an
object the viewer may not see is answered as missing, never as forbidden, so its
existence is not confirmed. Comments by accounts the viewer blocks, is blocked by or
mutes are hidden from the viewer's comment lists and comment counts."""

from __future__ import annotations

from feedloom.domain.errors import NotFound
from feedloom.domain.model import Post, UserProfile
from feedloom.domain.visibility import ViewerContext, hidden_commenters, may_see
from feedloom.lookups.cached_views import Views
from feedloom.lookups.reader_state import ReaderStates


class Access:
    def __init__(self, views: Views, states: ReaderStates) -> None:
        self._views, self._states = views, states

    async def viewer_of(self, viewer_id: int, author_id: int) -> ViewerContext:
        """The relations between one viewer and one author (mutes do not hide single
        objects, only feed items)."""
        relations = await self._states.relations(viewer_id)
        return ViewerContext(
            viewer_id=viewer_id,
            following=relations.following & {author_id},
            blocked=relations.blocked & {author_id},
            muted=frozenset(),
            muted_words=relations.muted_pattern,
        )

    async def thread_viewer(self, viewer_id: int) -> ViewerContext:
        """All of the viewer's relations: a thread or a reply list has many authors."""
        relations = await self._states.relations(viewer_id)
        return ViewerContext(
            viewer_id,
            relations.following,
            relations.blocked,
            relations.muted,
            muted_words=relations.muted_pattern,
        )

    async def hidden_commenters(self, viewer_id: int) -> frozenset[int]:
        return hidden_commenters(await self.thread_viewer(viewer_id))

    async def visible_post(self, viewer_id: int, post_id: int) -> Post:
        """The post, or NotFound unless the viewer may see it."""
        post = await self._views.post(post_id)
        if post is None or may_see(await self.viewer_of(viewer_id, post.author_id), post):
            raise NotFound("no such post")
        return post

    async def visible_profile(self, viewer_id: int, user_id: int) -> UserProfile:
        """The profile, or NotFound if it does not exist, is suspended or deleted, or a
        block stands either way."""
        profile = (await self._views.profiles([user_id])).get(user_id)
        if (
            profile is None
            or profile.suspended
            or (
                viewer_id != user_id
                and user_id in (await self._states.relations(viewer_id)).blocked
            )
        ):
            raise NotFound("no such user")
        return profile
