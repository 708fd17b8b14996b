"""The reader of a page and their relations (following, blocks, mutes), loaded once."""

from __future__ import annotations

from dataclasses import dataclass

from feedloom.domain.fanout_policy import FanoutPolicy
from feedloom.domain.visibility import ViewerContext
from feedloom.ports import GraphReader


@dataclass(frozen=True, slots=True)
class Reader:
    context: ViewerContext
    pulled_followees: list[int]  # already capped by the fan-out policy

    @property
    def user_id(self) -> int:
        return self.context.viewer_id


class Readers:
    def __init__(self, graph: GraphReader, policy: FanoutPolicy) -> None:
        self._graph, self._policy = graph, policy

    async def load(self, user_id: int) -> Reader:
        followees = await self._graph.followees(user_id)
        context = ViewerContext(
            viewer_id=user_id,
            following=frozenset(f.user_id for f in followees),
            blocked=frozenset(await self._graph.blocked_either_way(user_id)),
            muted=frozenset(await self._graph.muted(user_id)),
        )
        pulled = self._policy.pulled_to_merge([f.user_id for f in followees if f.pulled])
        return Reader(context=context, pulled_followees=pulled)
