"""The relay: committed outbox events onto the queue, big pushed authors on the bulk lane."""

from __future__ import annotations

from feedloom.domain.fanout_policy import FanoutPolicy
from feedloom.domain.model import Event, PostDeleted, PostPublished
from feedloom.write.relay_outbox import RelayOutbox
from tests.unit.fakes import FakeEventQueue, FakeOutbox, FakeProfileStore, user

POLICY = FanoutPolicy(pull_above=10, push_below=8, bulk_above=3)
SMALL, BIG, PULLED = 1, 2, 3
PROFILES = FakeProfileStore(
    user(SMALL, followers=2), user(BIG, followers=5), user(PULLED, 50, True)
)


def relay(*events: Event) -> tuple[RelayOutbox, FakeOutbox, FakeEventQueue]:
    outbox, queue = FakeOutbox(*events), FakeEventQueue()
    return RelayOutbox(outbox, PROFILES, queue, POLICY), outbox, queue


async def test_posts_of_big_pushed_authors_take_the_bulk_lane_and_the_rest_the_default() -> None:
    small, big = PostPublished(101, SMALL), PostPublished(102, BIG)
    deleted = PostDeleted(103, BIG)
    use_case, outbox, queue = relay(small, big, deleted)
    assert await use_case() == 3
    assert queue.published == [("default", [small, deleted]), ("bulk", [big])]
    assert await outbox.pending() == 0


async def test_a_pulled_authors_post_is_not_bulk_however_many_followers() -> None:
    pulled = PostPublished(104, PULLED)
    use_case, _, queue = relay(pulled)
    await use_case()
    assert queue.published == [("default", [pulled])]


async def test_one_relay_moves_at_most_its_limit_and_leaves_the_rest_pending() -> None:
    use_case, outbox, queue = relay(*(PostPublished(200 + i, SMALL) for i in range(5)))
    assert await use_case(limit=2) == 2
    assert await outbox.pending() == 3
    assert [len(events) for _, events in queue.published] == [2]


async def test_an_empty_outbox_publishes_nothing() -> None:
    use_case, _, queue = relay()
    assert await use_case() == 0
    assert queue.published == []
