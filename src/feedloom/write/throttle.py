"""Charge a request to its rate limit: every write per account (posts, comments,
likes, follows, media), sign-in per account and per client address, sign-up per
address. The limiter (ports.RateLimiter) counts; this names the rules and says no.

Accounts younger than a day get a share of each per-account limit: a fresh account is
where spam comes from, and its age is in its ID (a Snowflake), so no lookup is needed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import timedelta

from feedloom.domain.errors import RateLimited
from feedloom.domain.ids import created_at_of
from feedloom.ports import Clock, RateLimiter, RateRule

WINDOWS = ((86_400, "day"), (3_600, "hour"), (60, "minute"), (1, "second"))


@dataclass(frozen=True, slots=True)
class YoungAccounts:
    younger_than: timedelta
    share: float


class Throttle:
    def __init__(
        self,
        limiter: RateLimiter,
        rules: dict[str, RateRule],
        young: YoungAccounts,
        clock: Clock,
    ) -> None:
        self._limiter, self._clock = limiter, clock
        self.rules, self.young = rules, young  # public: operators and tests may retune them

    async def account(self, action: str, user_id: int, once: str | None = None) -> None:
        """Charge `action` to an account; `once` makes a retried request free."""
        rule = self.rules[action]
        if self._clock() - created_at_of(user_id) < self.young.younger_than:
            amount = max(1, int(rule.amount * self.young.share))
            rule = replace(rule, name=f"{rule.name}.young", amount=amount)
        await self._charge(rule, str(user_id), once)

    async def key(self, action: str, key: str) -> None:
        """Charge `action` to any key: a client address, a username."""
        await self._charge(self.rules[action], key, None)

    async def _charge(self, rule: RateRule, key: str, once: str | None) -> None:
        decision = await self._limiter.hit(rule, key, once)
        if not decision.allowed:
            raise RateLimited(
                f"rate limit {rule.name}: at most {rule.amount} per {_window(rule.window_s)}",
                decision.reset_s,
                limit=decision.limit,
                remaining=decision.remaining,
            )


def _window(seconds: int) -> str:
    for size, name in WINDOWS:
        if seconds % size == 0:
            count = seconds // size
            return name if count == 1 else f"{count} {name}s"
    return f"{seconds} seconds"
