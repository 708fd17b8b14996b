"""The documented races of fan-out, closed: a timeline rebuild racing a fan-out of the
same post keeps the post; an author pushed again gets recent posts back-filled."""

from __future__ import annotations

from collections.abc import Sequence

from feedloom.lookups.author_timelines import AuthorTimelines
from feedloom.lookups.timelines import TimelineRebuilder
from feedloom.metrics import Metrics
from tests.unit.fakes import (
    FakeAuthorTimelineStore,
    FakePostArchive,
    FakePostStore,
    FakeTimelineStore,
)

READER, AUTHOR, OLD_POST, RACING_POST = 10, 1, 100, 200


class FanOutWhileRead(FakeAuthorTimelineStore):
    """The rebuild's read of author timelines is where a worker's fan-out of a new post
    slips in: the read sees the author timeline before the push, the fan-out runs."""

    def __init__(self, timelines: FakeTimelineStore) -> None:
        super().__init__()
        self._timelines = timelines
        self.ids[AUTHOR] = [OLD_POST]

    async def read_many(self, author_ids: Sequence[int]) -> dict[int, list[int]]:
        seen = await super().read_many(author_ids)
        await self.push_many([(AUTHOR, RACING_POST)])  # the worker, in between
        await self._timelines.insert_many([(RACING_POST, [READER])])
        return seen


async def test_a_rebuild_racing_a_fan_out_of_the_same_post_keeps_the_post() -> None:
    timelines = FakeTimelineStore()  # the reader has no timeline: a read miss rebuilds
    authors = FanOutWhileRead(timelines)
    recent = AuthorTimelines(authors, FakePostArchive(FakePostStore()), 20)
    rebuilder = TimelineRebuilder(timelines, recent, Metrics(), 50)
    await rebuilder.rebuild(READER, [AUTHOR], follows_pulled=False)
    assert await timelines.read(READER, None, 10) == [RACING_POST, OLD_POST]
