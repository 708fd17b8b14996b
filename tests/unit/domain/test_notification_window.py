"""The grouping window: likes, reposts and follows group per fixed UTC day, known from
the activity's time alone, so a like a week later starts a new group and an undo finds
the group its activity went into; replies, mentions and quotes never group."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from feedloom.domain.notifications import NotificationType, notify, window_span

LIKE, FOLLOW, REPLY = NotificationType.LIKE, NotificationType.FOLLOW, NotificationType.REPLY
MORNING = datetime(2026, 12, 7, 0, 0, 1, tzinfo=UTC)


def key(kind: NotificationType, at: datetime, actor: int = 2, undo: bool = False) -> str:
    event = notify(kind, actor, 1, 42, at, undo=undo)
    assert event is not None
    return event.group_key


def test_a_like_the_same_utc_day_joins_the_group_and_one_the_next_day_starts_another() -> None:
    evening = MORNING + timedelta(hours=23, minutes=59)
    assert key(LIKE, MORNING) == key(LIKE, evening, actor=3) == "like:42:20794"
    assert key(LIKE, evening + timedelta(minutes=1)) == "like:42:20795"
    assert key(LIKE, MORNING + timedelta(weeks=1)) != key(LIKE, MORNING)
    assert key(FOLLOW, MORNING) == "follow:20794" != key(FOLLOW, MORNING - timedelta(seconds=2))


def test_an_undo_finds_the_group_of_its_activitys_own_time() -> None:
    assert key(LIKE, MORNING, undo=True) == key(LIKE, MORNING)
    assert window_span(key(LIKE, MORNING)) == (
        datetime(2026, 12, 7, tzinfo=UTC),
        datetime(2026, 12, 8, tzinfo=UTC),
    )


def test_a_reply_is_one_item_whenever_it_comes() -> None:
    assert key(REPLY, MORNING) == key(REPLY, MORNING + timedelta(weeks=1)) == "reply:42"
    assert window_span("reply:42") is None
