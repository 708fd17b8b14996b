"""New-post notices, as both paths name them: fan-out publishes, a home stream listens.

Topics: `u:{id}`, a reader's own (their pushed timeline gained a post, or they posted),
and `a:{id}`, a pulled author's (their followers' feeds merge it at read time, so
fan-out never touches those timelines). A notice only says "look again": the stream
recounts through the read path, so filters (blocks, mutes, privacy) decide what shows.
Publishing is best effort: a notice lost to an outage costs a hint, never a post, and
must never fail fan-out.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager

from feedloom.ports import NoticeBus, NoticeListener, PostRun

log = logging.getLogger(__name__)


READER_PREFIX = "u:"
# A post changed (deleted or edited): its ID with this bit set. Post IDs stay below it
# until 2058 (41 bits of milliseconds from 2024, domain/ids.py); a notification's
# notice is negative; so one number on the same topics tells the three apart.
CHANGED = 1 << 62


def changed_post(notice: int) -> int | None:
    """The post a notice says changed, or None (a new post, a notification)."""
    return notice - CHANGED if notice >= CHANGED else None


def reader_topic(user_id: int) -> str:
    return f"{READER_PREFIX}{user_id}"


def author_topic(author_id: int) -> str:
    return f"a:{author_id}"


def notification_topic(user_id: int) -> str:
    """A recipient's notifications changed (a group, or the read marker)."""
    return f"n:{user_id}"


class Notices:
    def __init__(self, bus: NoticeBus) -> None:
        self._bus = bus

    async def reached(self, reader_ids: Sequence[int], post_id: int) -> None:
        """These readers' feeds gained the post (pushed, or their own)."""
        await self._publish([reader_topic(r) for r in reader_ids], post_id)

    async def reached_many(self, runs: Sequence[PostRun]) -> None:
        """A fan-out batch: each run's readers' feeds gained its post."""
        try:
            await self._bus.publish_many(READER_PREFIX, runs)
        except Exception:  # the notice is a hint, fan-out goes on
            log.warning("new-post notices of %d posts not published", len(runs), exc_info=True)

    async def pulled_author_posted(self, author_id: int, post_id: int) -> None:
        await self._publish([author_topic(author_id)], post_id)

    async def notified(self, recipient_id: int, group_id: int) -> None:
        """The recipient's notifications changed: a group (its ID), or the marker (0).
        Carried as a negative number, so a listener tells it from a post ID."""
        await self._publish([notification_topic(recipient_id)], -group_id - 1)

    async def changed(
        self, post_id: int, author_id: int, followers: Sequence[int], pulled: bool
    ) -> None:
        """The post was deleted or edited: tell the streams whose feed may hold it (its
        author's and followers' on their own topics, a pulled author's on theirs)."""
        notice = CHANGED + post_id
        if pulled:
            await self._publish([author_topic(author_id), reader_topic(author_id)], notice)
            return
        try:
            await self._bus.publish_many(READER_PREFIX, [(notice, (author_id, *followers))])
        except Exception:  # the notice is a hint, fan-out goes on
            log.warning("change notice of post %s not published", post_id, exc_info=True)

    def listen(
        self, reader_id: int, pulled_followees: Sequence[int]
    ) -> AbstractAsyncContextManager[NoticeListener]:
        topics = [
            reader_topic(reader_id),
            notification_topic(reader_id),
            *(author_topic(a) for a in pulled_followees),
        ]
        return self._bus.listen(topics)

    async def _publish(self, topics: Sequence[str], post_id: int) -> None:
        try:
            await self._bus.publish(topics, post_id)
        except Exception:  # any bus failure: the notice is a hint, fan-out goes on
            log.warning("new-post notice for post %s not published", post_id, exc_info=True)
