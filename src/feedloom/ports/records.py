"""Plain records the ports hand back and forth (no behaviour, no I/O)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, Protocol

from feedloom.domain.model import Event, Role

Clock = Callable[[], datetime]
Lane = Literal["default", "bulk"]


class StageProgress(Protocol):
    """Long work reports how far it got, stage by stage (a CLI draws the bars)."""

    def stage(self, name: str, total: int) -> None: ...
    def advance(self, done: int) -> None: ...


@dataclass(frozen=True, slots=True)
class Credentials:
    user_id: int
    password_hash: str


@dataclass(frozen=True, slots=True)
class AccountRecord:
    """An account as an operator sees it (`feedloom accounts`)."""

    user_id: int
    username: str
    display_name: str
    role: Role | None
    suspended_at: datetime | None
    deleted_at: datetime | None


@dataclass(frozen=True, slots=True)
class StoredResponse:
    """What an idempotent request answered the first time: the ID it created."""

    request_hash: str
    result_id: int  # the post's, or the comment's (an edit's: the post edited)
    kind: Literal["post", "comment", "edit"] = "post"


@dataclass(frozen=True, slots=True)
class Followee:
    user_id: int
    pulled: bool
    reposts: bool = True  # false: followed without their reposts


@dataclass(frozen=True, slots=True)
class OwnRelations:
    """Whom one user follows, who is blocked either way, whom they mute: read together."""

    followees: list[Followee]
    blocked: set[int]  # blocked by the user or blocking the user
    muted: set[int]


@dataclass(frozen=True, slots=True)
class NewUser:
    """A user created by a bulk import (demo data, `feedloom import-graph`)."""

    id: int
    username: str
    display_name: str
    password_hash: str
    avatar: str | None = None


@dataclass(frozen=True, slots=True)
class Delivery:
    """One event handed to a worker; `receipt` acknowledges it."""

    event: Event
    lane: Lane
    receipt: str


@dataclass(frozen=True, slots=True)
class ProfileChanges:
    """A partial profile edit: None leaves a field as it is; the avatar is replaced
    (by an uploaded medium's URL, or removed with None) only when `set_avatar`."""

    display_name: str | None = None
    bio: str | None = None
    set_avatar: bool = False
    avatar: str | None = None
    avatar_media_id: int | None = None  # the medium behind `avatar`


@dataclass(frozen=True, slots=True)
class RateRule:
    """At most `amount` hits in ANY `window_s` seconds (a moving window, not calendar
    windows: no burst of twice the limit across a window edge)."""

    name: str
    amount: int
    window_s: int


@dataclass(frozen=True, slots=True)
class RateDecision:
    """One hit's outcome, with what the RateLimit-* headers say."""

    allowed: bool
    limit: int
    remaining: int
    reset_s: int  # seconds until a slot frees up (0 while slots remain)


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """A signed-in session: a bearer token, known by its digest only."""

    token_hash: str
    user_id: int
    created_at: datetime
    last_used_at: datetime | None  # None until first renewed: created_at counts
    # Opened through OAuth (the Mastodon-compatible API): its app's name and granted
    # scopes; None for a first-party session, which may do everything.
    app_name: str | None = None
    scopes: str | None = None
    app_id: int | None = None

    @property
    def session_id(self) -> str:
        """Public, stable, and useless as a token: the digest's first 16 hex digits."""
        return self.token_hash[:16]

    @property
    def last_used(self) -> datetime:
        return self.last_used_at or self.created_at


@dataclass(frozen=True, slots=True)
class Erasure:
    """What erasing an account removed, for the caches and the object store."""

    post_ids: list[int]  # the account's own posts, now tombstones
    touched_post_ids: list[int]  # others' posts whose likes or comments it removed
    related_user_ids: list[int]  # followers, followees, blocks and mutes either way
    token_hashes: list[str]
    media_files: list[str]  # object names: originals and sizes
    app_links: list[tuple[int, str]] = field(default_factory=list)  # (app ID, external ID)
