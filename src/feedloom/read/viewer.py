"""Load the reader's relations once per page (following, blocks, mutes)."""

from __future__ import annotations

from dataclasses import dataclass

from feedloom.backend import Backend
from feedloom.domain.visibility import ViewerContext


@dataclass(frozen=True, slots=True)
class Reader:
    context: ViewerContext
    pulled_followees: list[int]  # already capped by the fan-out policy

    @property
    def user_id(self) -> int:
        return self.context.viewer_id


async def load_reader(backend: Backend, user_id: int) -> Reader:
    followees = await backend.graph.followees(user_id)
    context = ViewerContext(
        viewer_id=user_id,
        following=frozenset(f.user_id for f in followees),
        blocked=frozenset(await backend.graph.blocked_either_way(user_id)),
        muted=frozenset(await backend.graph.muted(user_id)),
    )
    pulled = backend.policy.pulled_to_merge([f.user_id for f in followees if f.pulled])
    return Reader(context=context, pulled_followees=pulled)


async def viewer_of(backend: Backend, viewer_id: int, author_id: int) -> ViewerContext:
    """Just the relations between one viewer and one author (no full graph load)."""
    following = await backend.graph.is_following(viewer_id, author_id)
    blocked = await backend.graph.is_blocked_either_way(viewer_id, author_id)
    return ViewerContext(
        viewer_id=viewer_id,
        following=frozenset([author_id] if following else []),
        blocked=frozenset([author_id] if blocked else []),
        muted=frozenset(),
    )
