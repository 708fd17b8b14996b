"""Dismiss a suggestion: DELETE /v1/users/suggestions/{id}. Stored durably, so the
account is never suggested to this user again, on any device; idempotent."""

from __future__ import annotations

from feedloom.domain.errors import NotFound
from feedloom.lookups.cached_views import Views
from feedloom.ports import Clock, SuggestionSource


class DismissSuggestion:
    def __init__(self, source: SuggestionSource, views: Views, clock: Clock) -> None:
        self._source, self._views, self._clock = source, views, clock

    async def __call__(self, user_id: int, dismissed_id: int) -> bool:
        """False when it was dismissed already; NotFound for no such account."""
        if dismissed_id not in await self._views.profiles([dismissed_id]):
            raise NotFound("no such user")
        return await self._source.dismiss(user_id, dismissed_id, self._clock())
