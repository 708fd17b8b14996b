"""Affinity updates: fold a like or comment into the reader -> author ranking feature.

Online, right after the like or comment row is written; in batch, `feedloom affinity
rebuild` recomputes every pair from the likes and comments tables (after a change of
half-life, or to repair drift). An unlike does not lower affinity online: it is not
evidence of less interest, and a rebuild (which only sees current likes) settles it.
Block and delete are read-time filters, never features, so neither touches affinity.
"""

from __future__ import annotations

import logging
from datetime import datetime

from feedloom.ports import AffinityStore, StageProgress
from feedloom.ranking.affinity import InteractionKind

log = logging.getLogger(__name__)


class AffinityUpdates:
    def __init__(self, affinities: AffinityStore, half_life_days: float) -> None:
        self._affinities, self._half_life_days = affinities, half_life_days

    async def record(
        self, reader_id: int, author_id: int, kind: InteractionKind, at: datetime
    ) -> None:
        """Best effort: the like or comment row is the truth and is already stored, so a
        failure here must not fail the request (a client retry would find the like
        existing and skip this step anyway); the next rebuild repairs what was missed."""
        if reader_id == author_id:
            return  # affinity with oneself ranks nothing: own posts are pinned instead
        try:
            await self._affinities.add(reader_id, author_id, kind, at, self._half_life_days)
        except Exception:
            log.exception(
                "affinity of %s for %s not updated after a %s", reader_id, author_id, kind
            )

    async def rebuild(self, progress: StageProgress | None = None) -> int:
        return await self._affinities.rebuild(self._half_life_days, progress)
