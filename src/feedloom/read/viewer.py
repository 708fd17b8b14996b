"""The reader of a page and their relations (following, blocks, mutes), loaded once."""

from __future__ import annotations

from dataclasses import dataclass, field

from feedloom.domain.fanout_policy import FanoutPolicy
from feedloom.domain.model import FeedOrder
from feedloom.domain.visibility import ViewerContext, hidden_commenters
from feedloom.lookups.reader_state import ReaderStates


@dataclass(frozen=True, slots=True)
class Reader:
    context: ViewerContext
    pulled_followees: list[int]  # already capped by the fan-out policy
    feed_order: FeedOrder | None = None  # the reader's own choice, if any
    follows_pulled: bool = False  # any pulled followee, merged at read or not
    tags: dict[int, str] = field(default_factory=dict)  # followed tags: ID -> name

    @property
    def user_id(self) -> int:
        return self.context.viewer_id

    @property
    def hidden_commenters(self) -> frozenset[int]:
        return hidden_commenters(self.context)


class Readers:
    def __init__(self, states: ReaderStates, policy: FanoutPolicy) -> None:
        self._states, self._policy = states, policy

    async def load(self, user_id: int) -> Reader:
        relations = await self._states.relations(user_id)
        context = ViewerContext(
            viewer_id=user_id,
            following=relations.following,
            blocked=relations.blocked,
            muted=relations.muted,
            reposts_off=relations.reposts_off,
            muted_words=relations.muted_pattern,
            left_home=relations.left_home,
            tags=frozenset(name for _, name in relations.tags),
        )
        pulled = self._policy.pulled_to_merge(list(relations.pulled))
        return Reader(
            context, pulled, relations.feed_order, bool(relations.pulled), dict(relations.tags)
        )
