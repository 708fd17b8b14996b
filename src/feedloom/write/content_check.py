"""The check between the outbox and fan-out: a post that looks like abuse is held.

A held post is visible to its author only (domain/visibility.py), is not fanned out,
and waits in the moderation queue (write/moderation.py) until a moderator releases it
(fan-out then runs as for any new post) or rejects it (a tombstone, like a delete).

The check is a port (ports.ContentCheck); `DefaultContentCheck` holds:
- the same text posted again and again by one author within minutes,
- bursts of links from accounts younger than a few days,
- blocklisted words or link domains (from the settings).
Repeats and bursts are counted in the shared rate-limit windows, so every worker
process counts the same posts.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from feedloom.domain.ids import created_at_of
from feedloom.domain.model import Post, PostPublished
from feedloom.lookups.cached_views import Views
from feedloom.metrics import Metrics
from feedloom.ports import Clock, ContentCheck, Delivery, ModerationStore, RateLimiter, RateRule

log = logging.getLogger(__name__)
LINK = re.compile(r"(?:https?://|www\.)([^\s/?#]+)", re.IGNORECASE)
WORD = re.compile(r"[\w'-]+")


@dataclass(frozen=True, slots=True)
class CheckRules:
    repeat_limit: int  # the same text this many times per window is fine, once more is not
    repeat_window_s: int
    repeat_min_chars: int  # shorter texts ("ok", "thanks") repeat innocently
    new_account_age: timedelta
    new_account_links: int  # posts with links per window from a new account
    links_window_s: int
    blocked_words: frozenset[str]
    blocked_domains: frozenset[str]


class DefaultContentCheck:
    def __init__(self, windows: RateLimiter, rules: CheckRules, clock: Clock) -> None:
        self._windows, self._rules, self._clock = windows, rules, clock

    async def reason_to_hold(self, post: Post) -> str | None:
        return (await self.reasons_to_hold([post]))[0]

    async def reasons_to_hold(self, posts: Sequence[Post]) -> list[str | None]:
        """The whole batch in two charges of the shared windows (one call each, one
        round trip on Redis): every repeat first, then the link bursts of the posts the
        repeats did not hold, exactly as one post after the other would count them."""
        rules = self._rules
        reasons: list[str | None] = []
        repeats: list[tuple[int, str]] = []  # (index, window key)
        linked: list[int] = []
        for index, post in enumerate(posts):
            links = [m.group(1).lower().rstrip(".,;:!") for m in LINK.finditer(post.text)]
            reasons.append(self._blocklisted(post.text, links))
            if reasons[-1] is not None:
                continue
            if len(post.text) >= rules.repeat_min_chars:
                digest = hashlib.sha256(" ".join(post.text.lower().split()).encode()).hexdigest()
                repeats.append((index, f"check:same-text:{post.author_id}:{digest[:24]}"))
            if links and self._clock() - created_at_of(post.author_id) < rules.new_account_age:
                linked.append(index)
        same = RateRule("same-text", rules.repeat_limit, rules.repeat_window_s)
        allowed = await self._windows.hit_many([(same, key) for _, key in repeats])
        for (index, _), ok in zip(repeats, allowed, strict=True):
            if not ok:
                reasons[index] = f"same text posted more than {rules.repeat_limit} times in minutes"
        bursts = [index for index in linked if reasons[index] is None]
        burst = RateRule("new-links", rules.new_account_links, rules.links_window_s)
        keys = [(burst, f"check:new-links:{posts[index].author_id}") for index in bursts]
        for index, ok in zip(bursts, await self._windows.hit_many(keys), strict=True):
            if not ok:
                reasons[index] = "a burst of links from a new account"
        return reasons

    def _blocklisted(self, text: str, links: Sequence[str]) -> str | None:
        words = {word.lower() for word in WORD.findall(text)}
        if found := sorted(words & self._rules.blocked_words):
            return f"blocklisted word: {found[0]}"
        for host in links:
            for domain in self._rules.blocked_domains:
                if host == domain or host.endswith("." + domain):
                    return f"blocklisted domain: {domain}"
        return None


class ScreenPosts:
    """The worker's hook: of a consumed batch, the deliveries fan-out may handle.
    Held posts are acknowledged with the rest but not handed on; a post held on an
    earlier delivery stays held, and a released one cannot be held again."""

    def __init__(
        self, views: Views, store: ModerationStore, check: ContentCheck, metrics: Metrics
    ) -> None:
        self._views, self._store, self._check = views, store, check
        self._held = metrics.moderation_held

    async def __call__(self, deliveries: Sequence[Delivery]) -> list[Delivery]:
        ids = [d.event.post_id for d in deliveries if isinstance(d.event, PostPublished)]
        if not ids:
            return list(deliveries)
        posts = await self._views.posts(ids)
        held = {post.id for post in posts.values() if post.held}
        checked = [post for post in posts.values() if not post.held and not post.deleted]
        reasons = await self._check.reasons_to_hold(checked) if checked else []
        for post, reason in zip(checked, reasons, strict=True):
            if reason is not None and await self._hold(post, reason):
                held.add(post.id)
        return [
            d
            for d in deliveries
            if not (isinstance(d.event, PostPublished) and d.event.post_id in held)
        ]

    async def _hold(self, post: Post, reason: str) -> bool:
        if not await self._store.hold(post.id, reason):
            return False  # released by a moderator already (or gone)
        await self._views.forget_posts([post.id])  # the cached view must say "held"
        self._held.inc()
        log.info("post %s held for moderation: %s", post.id, reason)
        return True
