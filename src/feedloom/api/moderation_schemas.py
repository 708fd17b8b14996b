"""Bodies of reports and of the moderation API (api/routes/moderation.py)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from feedloom.api.schemas import SHOWN, Strict, example
from feedloom.ports import AccountRecord, QueuedPost

_POST, _USER = "7291544012345678", "7291543817012345"


class NewReport(Strict):
    reason: str = Field(
        min_length=1,
        max_length=500,
        description="what is wrong with the post",
        json_schema_extra=SHOWN,
    )


class Reported(BaseModel):
    model_config = example({"reported": True, "changed": True})

    reported: bool
    changed: bool = Field(description="false when you had reported this post already")


class QueuedPostOut(BaseModel):
    post_id: str
    author_id: str
    held: bool = Field(description="held by the content check: not fanned out yet")
    held_reason: str | None
    reports: int
    reasons: list[str] = Field(description="the latest reporters' reasons")

    @classmethod
    def of(cls, queued: QueuedPost) -> QueuedPostOut:
        return cls(
            post_id=str(queued.post_id),
            author_id=str(queued.author_id),
            held=queued.held_reason is not None,
            held_reason=queued.held_reason,
            reports=queued.reports,
            reasons=list(queued.reasons),
        )


class QueuePage(BaseModel):
    model_config = example(
        {
            "items": [
                {
                    "post_id": _POST,
                    "author_id": _USER,
                    "held": True,
                    "held_reason": "blocklisted domain: spam.example",
                    "reports": 1,
                    "reasons": ["spam"],
                }
            ],
            "next_cursor": None,
        }
    )

    items: list[QueuedPostOut]
    next_cursor: str | None


class Moderated(BaseModel):
    model_config = example({"post_id": _POST, "changed": True})

    post_id: str
    changed: bool = Field(description="false when the post was in this state already")


class AccountState(BaseModel):
    model_config = example({"id": _USER, "username": "kim", "suspended": True})

    id: str
    username: str
    suspended: bool

    @classmethod
    def of(cls, record: AccountRecord) -> AccountState:
        return cls(
            id=str(record.user_id),
            username=record.username,
            suspended=record.suspended_at is not None,
        )


class Flagged(BaseModel):
    model_config = example({"id": _USER, "username": "kim", "flagged": True})

    id: str
    username: str
    flagged: bool


class SpikeOut(BaseModel):
    account_id: str
    username: str | None
    kind: str
    this_hour: int
    hourly_mean: float = Field(description="over the previous 24 hours")
    z: float = Field(description="standard deviations above that mean")


class SpikePage(BaseModel):
    model_config = example(
        {
            "items": [
                {
                    "account_id": _USER,
                    "username": "kim",
                    "kind": "followers",
                    "this_hour": 480,
                    "hourly_mean": 3.5,
                    "z": 96.2,
                }
            ]
        }
    )

    items: list[SpikeOut]
