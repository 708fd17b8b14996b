"""GET /v1/streams/home: Server-Sent Events when the reader's home feed gains a post.

listen (own topic + pulled followees' topics) → ready → count once (a resume or a post that
arrived while disconnected) → on each notice, recount through NewPosts (the feed's
filters: a muted or blocked author's post changes nothing, so no event) → heartbeat
when quiet. Event IDs are the newest post ID, so a reconnect with Last-Event-ID gets
exactly the event it missed, if any.

Bounded: at most `per_user` open streams per user in this process; a listener that
falls behind is dropped by the bus and its stream ends (the client reconnects); a
stream ends after `max_age_s` so it picks up new follows when it reconnects.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Literal

from feedloom.domain.errors import RateLimited
from feedloom.lookups.notices import Notices, changed_post
from feedloom.read.new_posts import NewPosts
from feedloom.read.notifications import NotificationItem, Notifications
from feedloom.read.viewer import Readers


@dataclass(frozen=True, slots=True)
class StreamConfig:
    heartbeat_s: float = 15.0
    max_age_s: float = 1800.0
    per_user: int = 5


@dataclass(frozen=True, slots=True)
class StreamEvent:
    """`ready` once listening (posts from then on are noticed), then `new-posts` with
    the count above `since` and the newest ID, a `notification` (the unread count and
    the new or updated group, None when only the read marker moved), a `changed` post
    (`newest_id`: deleted or edited; only to a stream that asked), or a `heartbeat`."""

    kind: Literal["ready", "new-posts", "notification", "changed", "heartbeat"]
    count: int = 0
    newest_id: int | None = None
    notification: NotificationItem | None = None


class HomeStream:
    def __init__(
        self,
        readers: Readers,
        new_posts: NewPosts,
        notices: Notices,
        notifications: Notifications,
        config: StreamConfig,
    ) -> None:
        self._readers, self._new_posts, self._notices = readers, new_posts, notices
        self._notifications = notifications
        self.config = config
        self._open: Counter[int] = Counter()

    def check_room(self, user_id: int) -> None:
        """Before a stream's response starts: RateLimited when the user has too many."""
        if self._open[user_id] >= self.config.per_user:
            raise RateLimited(f"at most {self.config.per_user} open streams per user", 5)

    async def events(
        self,
        user_id: int,
        since: int | None,
        last_event_id: int | None,
        changes: bool = False,
    ) -> AsyncIterator[StreamEvent]:
        """`changes`: also the posts deleted or edited that the feed may hold."""
        if self._open[user_id] >= self.config.per_user:
            return  # lost a race with another connect since check_room
        self._open[user_id] += 1
        try:
            async for event in self._events(user_id, since, last_event_id, changes):
                yield event
        finally:
            self._open[user_id] -= 1
            if self._open[user_id] <= 0:
                del self._open[user_id]

    async def _events(
        self, user_id: int, since: int | None, last_event_id: int | None, changes: bool
    ) -> AsyncIterator[StreamEvent]:
        reader = await self._readers.load(user_id)
        deadline = time.monotonic() + self.config.max_age_s
        async with self._notices.listen(user_id, reader.pulled_followees) as listener:
            if since is None:  # count from what is there now (or from the resumed event)
                since = last_event_id or (await self._new_posts.since(user_id, 0)).newest_id or 0
            shown = last_event_id or since
            yield StreamEvent("ready")
            notice: int | None = None
            while time.monotonic() < deadline and not listener.dropped:
                if notice is not None and notice < 0:  # lookups/notices.py: a notification
                    unread, item = await self._notifications.live(user_id, -notice - 1)
                    yield StreamEvent("notification", unread, notification=item)
                elif notice is not None and (post_id := changed_post(notice)) is not None:
                    if changes:
                        yield StreamEvent("changed", newest_id=post_id)
                else:
                    found = await self._new_posts.since(user_id, since)
                    if found.newest_id is not None and found.newest_id > shown:
                        shown = found.newest_id
                        yield StreamEvent("new-posts", found.count, found.newest_id)
                while (notice := await listener.next(self.config.heartbeat_s)) is None:
                    if listener.dropped or time.monotonic() >= deadline:
                        return
                    yield StreamEvent("heartbeat")
