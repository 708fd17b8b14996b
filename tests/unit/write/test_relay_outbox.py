"""The relay: committed outbox events onto the queue, big pushed authors on the bulk lane,
the relay's pulled decision in the event, and events of a lost stream sent again."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from feedloom.domain.fanout_policy import FanoutPolicy
from feedloom.domain.model import AuthorPushed, Event, PostDeleted, PostPublished
from feedloom.metrics import Metrics
from feedloom.write.relay_outbox import RelayOutbox
from tests.unit.fakes import FakeEventQueue, FakeOutbox, FakeProfileStore, clock, user

POLICY = FanoutPolicy(pull_above=10, push_below=8, bulk_above=3)
SMALL, BIG, PULLED = 1, 2, 3
PROFILES = FakeProfileStore(
    user(SMALL, followers=2), user(BIG, followers=5), user(PULLED, 50, True)
)


def relay(*events: Event) -> tuple[RelayOutbox, FakeOutbox, FakeEventQueue]:
    outbox, queue = FakeOutbox(*events), FakeEventQueue()
    use_case = RelayOutbox(outbox, PROFILES, queue, POLICY, clock, Metrics(), timedelta(0))
    return use_case, outbox, queue


def sent(queue: FakeEventQueue) -> list[tuple[str, list[tuple[int, int]]]]:
    return [(lane, [(e.seq, e.post_id) for e in events]) for lane, events in queue.published]


async def test_posts_of_big_pushed_authors_take_the_bulk_lane_and_the_rest_the_default() -> None:
    use_case, outbox, queue = relay(
        PostPublished(101, SMALL), PostPublished(102, BIG), PostDeleted(103, BIG)
    )
    assert await use_case() == 3
    assert sent(queue) == [("default", [(1, 101), (3, 103)]), ("bulk", [(2, 102)])]
    assert outbox.sent == {1: ("default", "e1"), 2: ("bulk", "e1"), 3: ("default", "e1")}


async def test_the_event_carries_whether_its_author_is_pulled() -> None:
    use_case, _, queue = relay(PostPublished(104, PULLED), PostPublished(105, SMALL))
    await use_case()
    [(lane, events)] = queue.published
    assert lane == "default"  # pulled: never bulk, however many followers
    assert events == [
        replace(PostPublished(104, PULLED), seq=1, pulled=True),
        replace(PostPublished(105, SMALL), seq=2, pulled=False),
    ]


async def test_a_back_fill_takes_the_bulk_lane() -> None:
    use_case, _, queue = relay(AuthorPushed(PULLED))
    await use_case()
    assert [lane for lane, _ in queue.published] == ["bulk"]


async def test_one_relay_moves_at_most_its_limit_and_the_outbox_keeps_events_until_done() -> None:
    use_case, outbox, queue = relay(*(PostPublished(200 + i, SMALL) for i in range(5)))
    assert await use_case(limit=2) == 2
    assert [len(events) for _, events in queue.published] == [2]
    assert await outbox.pending() == 5  # sent is not done
    await outbox.done([1, 2])
    assert await outbox.pending() == 3


async def test_an_empty_outbox_publishes_nothing() -> None:
    use_case, _, queue = relay()
    assert await use_case() == 0
    assert queue.published == []


async def test_events_sent_into_a_stream_that_was_lost_are_sent_again() -> None:
    use_case, outbox, queue = relay(*(PostPublished(300 + i, SMALL) for i in range(3)))
    await use_case()
    await outbox.done([1])  # fanned out before the loss
    assert await use_case.resend_lost() == 0  # same stream: nothing lost
    queue.epoch = "e2"  # the stream vanished and was made anew
    assert await use_case.resend_lost() == 2
    assert sent(queue)[-1] == ("default", [(2, 301), (3, 302)])
    assert await use_case.resend_lost() == 0  # sent under the new epoch now
