"""An app's users by its own IDs: upsert one, upsert a batch, erase one.

A user an app creates has no password (it cannot sign in with one): it acts through
the app's server-side endpoints and the user tokens the app signs. A batch is written
in chunks, each in one transaction; a row that cannot be written (bad values, a
username another account holds) is reported with its index while the good rows land.
Every row is an upsert, so a whole batch is safe to send again.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from feedloom.domain.apps import check_external_id
from feedloom.domain.errors import FeedloomError, InvalidInput
from feedloom.domain.ids import IdGenerator
from feedloom.lookups.cached_views import Views
from feedloom.ports import Clock
from feedloom.ports.apps import AppUserRow, AppUsers
from feedloom.write.accounts import RELEASED, USERNAME
from feedloom.write.app_links import AppLinks
from feedloom.write.erase_account import EraseAccount
from feedloom.write.profile import NAME_MAX

AVATAR_URL = re.compile(r"^https?://[!-~]{1,500}$")


@dataclass(frozen=True, slots=True)
class UserFields:
    username: str
    display_name: str = ""
    avatar_url: str | None = None


@dataclass(frozen=True, slots=True)
class RowResult:
    """One batch row: `result` is created, updated or unchanged; or `error` says why not."""

    index: int
    external_id: str | None
    user_id: int | None = None
    result: str | None = None
    error: FeedloomError | None = None


def derived_username(app_id: int, external_id: str) -> str:
    """A user created from a token alone: `a_` + 30 hex digits of SHA-256 of the app
    and the external ID (3-32 characters of the username rule, deterministic)."""
    return "a_" + hashlib.sha256(f"{app_id}:{external_id}".encode()).hexdigest()[:30]


def check_fields(fields: UserFields) -> UserFields:
    if not USERNAME.match(fields.username) or RELEASED.match(fields.username):
        raise InvalidInput("username must be 3-32 letters, digits or underscores")
    display = (fields.display_name or fields.username).strip()
    if not 1 <= len(display) <= NAME_MAX:
        raise InvalidInput(f"display_name must be 1-{NAME_MAX} characters")
    if fields.avatar_url is not None and not AVATAR_URL.match(fields.avatar_url):
        raise InvalidInput("avatar_url must be an http(s) URL of at most 500 characters")
    return UserFields(fields.username, display, fields.avatar_url)


class AppUserWrites:
    def __init__(
        self,
        users: AppUsers,
        links: AppLinks,
        views: Views,
        erase: EraseAccount,
        ids: IdGenerator,
        clock: Clock,
    ) -> None:
        self._users, self._links, self._views = users, links, views
        self._erase, self._ids, self._clock = erase, ids, clock

    async def upsert(self, app_id: int, external_id: str, fields: UserFields) -> RowResult:
        """PUT /v1/apps/users/{external_id}: the one row's error is raised."""
        [result] = await self.batch(app_id, [(external_id, fields)])
        if result.error is not None:
            raise result.error
        return result

    async def batch(
        self, app_id: int, rows: Sequence[tuple[str, UserFields | FeedloomError]], first: int = 0
    ) -> list[RowResult]:
        """Rows already parsed (a row that did not parse carries its error); `first` is
        the index of the first row in the whole request."""
        results: dict[int, RowResult] = {}
        valid: list[tuple[int, AppUserRow]] = []
        for index, (external_id, fields) in enumerate(rows, start=first):
            try:
                if isinstance(fields, FeedloomError):
                    raise fields
                check_external_id(external_id)
                checked = check_fields(fields)
            except FeedloomError as error:
                results[index] = RowResult(index, external_id or None, error=error)
                continue
            row = AppUserRow(
                external_id,
                self._ids.next_id(),
                checked.username,
                checked.display_name,
                checked.avatar_url,
            )
            valid.append((index, row))
        written = await self._users.upsert_users(app_id, [r for _, r in valid], self._clock())
        for (index, row), outcome in zip(valid, written, strict=True):
            if outcome.error is not None:
                results[index] = RowResult(index, row.external_id, error=_taken(outcome.error))
                continue
            kind = "created" if outcome.created else "updated" if outcome.changed else "unchanged"
            results[index] = RowResult(index, row.external_id, outcome.user_id, kind)
        updated = [r.user_id for r in results.values() if r.result == "updated" and r.user_id]
        if updated:
            await self._views.forget_profiles(updated)
        return [results[index] for index in sorted(results)]

    async def ensure(self, app_id: int, external_id: str, display_name: str | None) -> int:
        """A user first seen in a token the app signed (if the app allows it)."""
        fields = UserFields(derived_username(app_id, external_id), display_name or "")
        result = await self.upsert(app_id, external_id, fields)
        assert result.user_id is not None
        return result.user_id

    async def erase(self, app_id: int, external_id: str) -> int:
        """DELETE /v1/apps/users/{external_id}: erased as DELETE /v1/me erases."""
        user_id = await self._links.user_of(app_id, check_external_id(external_id))
        await self._erase(user_id)
        await self._links.forget(app_id, [external_id])
        return user_id


def _taken(detail: str) -> FeedloomError:
    from feedloom.domain.errors import Conflict

    return Conflict(detail)
