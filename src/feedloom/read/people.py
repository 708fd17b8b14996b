"""Finding people: GET /v1/users/{id}, /lookup, /search, /{id}/followers, /{id}/following,
and the viewer's own lists GET /v1/me/blocks and /v1/me/mutes.

Every list is keyset-paged, hides suspended and deleted accounts (by the flag their
cached profile carries, as a post view carries its author's) and accounts blocked
either way (the viewer's relations come from the cached reader state, as on a feed
read), and says for each profile
whether the viewer follows it (`followed_by_me`, from the same cached relations) and
whether it follows the viewer (`follows_me`: one batched query per page).

A post's likers and reposters are listed as followers are, for a post the viewer may
see (GET /api/v1/statuses/{id}/favourited_by and /reblogged_by).

A profile page says every relation the viewer has with the account, read from the
durable store so a reload shows the truth: following, followed by, blocking, muting. A
block by the other account is never said: that profile is missing, as a deleted one
is. An account the viewer blocks stays visible on its own page and in the blocks list,
so the block can be undone; its posts stay hidden.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from feedloom.domain.errors import NotFound
from feedloom.domain.model import UserProfile
from feedloom.domain.people import (
    FollowKey,
    RelationFlags,
    decode_follow,
    decode_rank,
    decode_repost,
    encode_follow,
    encode_rank,
)
from feedloom.domain.search import search_words
from feedloom.lookups.access import Access
from feedloom.lookups.cached_views import Views
from feedloom.lookups.reader_state import ReaderRelations, ReaderStates
from feedloom.ports import PeopleDirectory


@dataclass(frozen=True, slots=True)
class Person:
    profile: UserProfile
    followed_by_me: bool
    follows_me: bool


@dataclass(frozen=True, slots=True)
class PeoplePage:
    people: list[Person]
    next_cursor: str | None


@dataclass(frozen=True, slots=True)
class ProfileView:
    profile: UserProfile
    relation: RelationFlags


class People:
    def __init__(
        self, directory: PeopleDirectory, views: Views, states: ReaderStates, access: Access
    ) -> None:
        self._directory, self._views, self._states = directory, views, states
        self._access = access

    async def profile(self, viewer_id: int, user_id: int) -> ProfileView:
        """The profile with the viewer's relations to it (NotFound: missing, suspended,
        deleted, or blocking the viewer)."""
        profile = (await self._views.profiles([user_id])).get(user_id)
        if profile is None or profile.suspended:
            raise NotFound("no such user")
        if viewer_id == user_id:
            return ProfileView(profile, RelationFlags())
        relation = await self._directory.relation(viewer_id, user_id)
        if relation.blocked_by:
            raise NotFound("no such user")
        return ProfileView(profile, relation)

    async def blocking(self, viewer_id: int, limit: int, cursor: str | None) -> PeoplePage:
        keys = await self._directory.blocking_page(viewer_id, decode_follow(cursor), limit + 1)
        return await self._own_list_page(viewer_id, keys, limit)

    async def muting(self, viewer_id: int, limit: int, cursor: str | None) -> PeoplePage:
        keys = await self._directory.muting_page(viewer_id, decode_follow(cursor), limit + 1)
        return await self._own_list_page(viewer_id, keys, limit)

    async def _own_list_page(self, viewer_id: int, keys: list[FollowKey], limit: int) -> PeoplePage:
        # The viewer's own choices are listed even under a block: that is where it is undone.
        more, keys = len(keys) > limit, keys[:limit]
        people = await self.people(viewer_id, [key.user_id for key in keys])
        return PeoplePage(people, encode_follow(keys[-1]) if more else None)

    async def lookup(self, viewer_id: int, username: str) -> ProfileView:
        user_id = await self._directory.user_id_by_username(username)
        if user_id is None:
            raise NotFound(f"no user named {username!r}")
        return await self.profile(viewer_id, user_id)

    async def search(
        self, viewer_id: int, query: str, limit: int, cursor: str | None
    ) -> PeoplePage:
        """Accounts with a word of their username or display name starting with each
        word asked: the exact username first (on the first page), then by followers,
        then by id."""
        words, after = search_words(query), decode_rank(cursor)
        relations = await self._states.relations(viewer_id)
        exact = await self._directory.user_id_by_username(query.strip().lstrip("@"))
        exact = None if exact is None or exact in relations.blocked else exact
        exclude = {*relations.blocked, *([exact] if exact is not None else [])}
        first = [exact] if exact is not None and after is None else []
        found = await self._directory.search(words, exclude, after, limit - len(first) + 1)
        more = len(found) > limit - len(first)
        found = found[: limit - len(first)]
        people = await self.people(viewer_id, [*first, *(key.user_id for key in found)])
        next_cursor = encode_rank(found[-1]) if more and found else None
        return PeoplePage(people, next_cursor)

    async def followers(
        self, viewer_id: int, user_id: int, limit: int, cursor: str | None
    ) -> PeoplePage:
        await self._access.visible_profile(viewer_id, user_id)
        keys = await self._directory.followers_page(user_id, decode_follow(cursor), limit + 1)
        return await self._follow_page(viewer_id, keys, limit)

    async def following(
        self, viewer_id: int, user_id: int, limit: int, cursor: str | None
    ) -> PeoplePage:
        await self._access.visible_profile(viewer_id, user_id)
        keys = await self._directory.following_page(user_id, decode_follow(cursor), limit + 1)
        return await self._follow_page(viewer_id, keys, limit)

    async def likers(
        self, viewer_id: int, post_id: int, limit: int, cursor: str | None
    ) -> PeoplePage:
        """Who liked a post the viewer may see, newest like first (as a follow list)."""
        await self._access.visible_post(viewer_id, post_id)
        keys = await self._directory.likers_page(post_id, decode_follow(cursor), limit + 1)
        return await self._follow_page(viewer_id, keys, limit)

    async def reposters(
        self, viewer_id: int, post_id: int, limit: int, cursor: str | None
    ) -> PeoplePage:
        """Who reposts a post the viewer may see, newest repost first."""
        await self._access.visible_post(viewer_id, post_id)
        keys = await self._directory.reposters_page(post_id, decode_repost(cursor), limit + 1)
        more, keys = len(keys) > limit, keys[:limit]
        next_cursor = str(keys[-1].repost_id) if more else None
        return await self._shown_page(viewer_id, [key.user_id for key in keys], next_cursor)

    async def _follow_page(self, viewer_id: int, keys: list[FollowKey], limit: int) -> PeoplePage:
        more, keys = len(keys) > limit, keys[:limit]
        next_cursor = encode_follow(keys[-1]) if more else None
        return await self._shown_page(viewer_id, [key.user_id for key in keys], next_cursor)

    async def _shown_page(
        self, viewer_id: int, user_ids: list[int], next_cursor: str | None
    ) -> PeoplePage:
        # The cursor is the last row read, shown or not, so hidden rows cost no repeat.
        blocked = (await self._states.relations(viewer_id)).blocked
        people = await self.people(viewer_id, [i for i in user_ids if i not in blocked])
        return PeoplePage(people, next_cursor)

    async def people(
        self,
        viewer_id: int,
        user_ids: Sequence[int],
        known: dict[int, UserProfile] | None = None,
    ) -> list[Person]:
        """These accounts as the viewer sees them, in this order, hidden ones left out."""
        profiles = known if known is not None else await self._views.profiles(user_ids)
        relations = await self._states.relations(viewer_id)
        present = [i for i in user_ids if i in profiles and not profiles[i].suspended]
        followers = await self._directory.followers_among(viewer_id, present)
        return [_person(profiles[i], relations, i in followers) for i in present]


def _person(profile: UserProfile, relations: ReaderRelations, follows_me: bool) -> Person:
    return Person(profile, profile.id in relations.following, follows_me)
