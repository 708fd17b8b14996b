"""Facets at write time: the text parsed once (domain/facets.py) and its mentions
resolved to accounts, before the post (or its edit) is stored.

`ParseFacets` is the one step every write of a text calls (a new post, a comment, an
edit); the store then records the mentions and tags the facets name in the same
transaction as the text (adapters/sql/facets.py, `record_facets`). A mention of an
unknown name, or of an account that blocks the author, stays plain text.
"""

from __future__ import annotations

from feedloom.domain.facets import Facet, mentioned_names, parse_facets, resolve_mentions
from feedloom.ports import MentionResolver


class ParseFacets:
    def __init__(self, mentions: MentionResolver) -> None:
        self._mentions = mentions

    async def __call__(self, author_id: int, text: str) -> tuple[Facet, ...]:
        facets = parse_facets(text)
        names = mentioned_names(facets)
        accounts = await self._mentions.resolve_usernames(author_id, names) if names else {}
        return tuple(resolve_mentions(facets, accounts))
