"""Notifications: what someone did to you, grouped, and the rules that decide it.

An activity (a like, a reply, a follow...) becomes a `Notified` event in the outbox, in
the transaction of the write that caused it; its undo (an unlike, an unrepost, an
unfollow) becomes the same event with `undo`. The worker folds a batch of them into
groups (`fold`): one durable row per group, updated in place, so a post liked 100,000
times is one row whose count moved, never 100,000 rows.

A group is what a reader sees as one item. Likes and reposts of one post, and follows,
group per window (`WINDOW`, fixed UTC days: the window an activity belongs to is known
from its time alone, so its undo finds the same group); replies, mentions and quotes
are one item each (they carry content); a moderation outcome is one item per post and
outcome. The group key names all of that, so it is the whole identity of a group.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from enum import StrEnum

WINDOW = timedelta(days=1)
LISTED = 8  # accounts a group lists (the most recent)


class NotificationType(StrEnum):
    LIKE = "like"
    REPLY = "reply"
    MENTION = "mention"
    REPOST = "repost"
    QUOTE = "quote"
    FOLLOW = "follow"
    MODERATION = "moderation"


GROUPED = frozenset({NotificationType.LIKE, NotificationType.REPOST, NotificationType.FOLLOW})
MODERATION_OUTCOMES = ("held", "released", "rejected")


@dataclass(frozen=True, slots=True)
class Notified:
    """Outbox event: `author_id` did something to `recipient_id` (or undid it).
    `post_id` is the post the item shows (0: none, a follow); `seq` as for every event."""

    recipient_id: int
    author_id: int
    post_id: int
    group_key: str
    undo: bool = False
    seq: int = 0

    @property
    def type(self) -> NotificationType:
        return type_of(self.group_key)


@dataclass(frozen=True, slots=True)
class Group:
    """One item of a recipient's notifications. `id` is a time-ordered ID given anew
    whenever someone joins the group, so an updated group is newest (and unread) again."""

    recipient_id: int
    group_key: str
    id: int
    post_id: int
    accounts: tuple[int, ...]  # the most recent first, at most LISTED
    accounts_count: int
    updated_at: datetime

    @property
    def type(self) -> NotificationType:
        return type_of(self.group_key)


def type_of(group_key: str) -> NotificationType:
    return NotificationType(group_key.split(":", 1)[0])


def window_of(at: datetime) -> int:
    return int(at.timestamp() // WINDOW.total_seconds())


def window_span(group_key: str) -> tuple[datetime, datetime] | None:
    """The time span of a grouped item's window (None for an ungrouped one)."""
    if type_of(group_key) not in GROUPED:
        return None
    day = int(group_key.rsplit(":", 1)[1])
    start = datetime.fromtimestamp(day * WINDOW.total_seconds(), tz=UTC)
    return start, start + WINDOW


def notify(
    kind: NotificationType,
    actor_id: int,
    recipient_id: int | None,
    post_id: int,
    at: datetime,
    undo: bool = False,
    outcome: str = "",
) -> Notified | None:
    """The event for an activity, or None when it notifies nobody (your own action)."""
    if recipient_id is None or recipient_id == actor_id:
        return None
    if kind in GROUPED:
        subject = "" if kind is NotificationType.FOLLOW else f"{post_id}:"
        key = f"{kind.value}:{subject}{window_of(at)}"
    elif kind is NotificationType.MODERATION:
        key = f"moderation:{post_id}:{outcome}"
    else:
        key = f"{kind.value}:{post_id}"
    return Notified(recipient_id, actor_id, post_id, key, undo)


def like_event(
    actor_id: int, author_id: int | None, post_id: int, at: datetime, undo: bool = False
) -> Notified | None:
    """A like's event (None: the post's author is not known). A like of one's own post
    notifies nobody, yet is an event still, with the liker as its recipient: webhooks
    announce every like (domain/webhook_events.py), and folding skips it (`notifies`)."""
    if author_id == actor_id:
        return Notified(actor_id, actor_id, post_id, f"like:{post_id}:{window_of(at)}", undo)
    return notify(NotificationType.LIKE, actor_id, author_id, post_id, at, undo)


def notifies(event: Notified) -> bool:
    """Whether the event notifies anyone (not one's own like)."""
    return event.recipient_id != event.author_id


@dataclass(frozen=True, slots=True)
class Folded:
    """A group after a batch: `refill` when an undo left it listing fewer accounts than
    it could (the store lists the most recent again from the truth); `gone` when empty."""

    group: Group
    refill: bool = False

    @property
    def gone(self) -> bool:
        return self.group.accounts_count <= 0 and self.group.type is not NotificationType.MODERATION


def fold(
    current: Group | None, events: Sequence[Notified], new_id: int, now: datetime
) -> Folded | None:
    """A group's events of one batch, in order, applied to what it was (None: new).
    Each event counts once: the caller hands each outbox event here exactly once."""
    if not events:
        return None
    first = events[0]
    group = current or Group(first.recipient_id, first.group_key, 0, first.post_id, (), 0, now)
    joined, refill = False, False
    for event in events:
        listed = [account for account in group.accounts if account != event.author_id]
        if event.undo:
            refill = refill or len(listed) < len(group.accounts)
            group = replace(group, accounts=tuple(listed), accounts_count=group.accounts_count - 1)
        else:
            accounts = (event.author_id, *listed)[:LISTED] if event.author_id else ()
            group = replace(group, accounts=accounts, accounts_count=group.accounts_count + 1)
            joined = True
    count = max(group.accounts_count, 0)
    group = replace(group, accounts_count=count)
    if joined:
        group = replace(group, id=new_id, updated_at=now)
    return Folded(group, refill and len(group.accounts) < min(LISTED, count))


def by_group(events: Iterable[Notified]) -> dict[tuple[int, str], list[Notified]]:
    grouped: dict[tuple[int, str], list[Notified]] = {}
    for event in events:
        grouped.setdefault((event.recipient_id, event.group_key), []).append(event)
    return grouped


def readable(
    group: Group,
    wanted: frozenset[NotificationType],
    types_off: frozenset[NotificationType],
    hidden: frozenset[int],
) -> Group | None:
    """The group as its recipient reads it now, or None: a type not wanted or turned
    off; accounts blocked either way or muted since leave the list (and the count);
    a group whose every listed account left is gone."""
    if group.type not in wanted or group.type in types_off:
        return None
    accounts = tuple(account for account in group.accounts if account not in hidden)
    if len(accounts) == len(group.accounts):
        return group
    if not accounts:
        return None
    count = group.accounts_count - (len(group.accounts) - len(accounts))
    return replace(group, accounts=accounts, accounts_count=count)
