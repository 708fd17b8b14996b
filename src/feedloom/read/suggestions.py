"""Who to follow: GET /v1/users/suggestions.

Friends of friends first, weighted by how many of the people you follow follow them,
then popular accounts active within `inactive_after_days`; never yourself, anyone you
follow, block, are blocked by or mute, a suggestion you dismissed, or a suspended or
deleted account (the store's one query per source decides, adapters/sql/suggestions.py).
The accounts are shown as any list of people is (read/people.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from feedloom.ports import Clock, SuggestionSource
from feedloom.read.people import People, Person


@dataclass(frozen=True, slots=True)
class Suggestion:
    person: Person
    followed_by: int  # how many of the viewer's followees follow it; 0: popular


class Suggestions:
    def __init__(
        self, source: SuggestionSource, people: People, clock: Clock, active_days: int
    ) -> None:
        self._source, self._people, self._clock = source, people, clock
        self._active = timedelta(days=active_days)

    async def suggest(self, viewer_id: int, limit: int) -> list[Suggestion]:
        found = await self._source.suggestions(viewer_id, self._clock() - self._active, limit)
        weights = {s.user_id: s.followed_by for s in found}
        people = await self._people.people(viewer_id, [s.user_id for s in found])
        return [Suggestion(p, weights[p.profile.id]) for p in people]
