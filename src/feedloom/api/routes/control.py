"""The control routes (api/control.py): an operator's feed and account commands, run
inside the embedded server so they reach its in-memory timelines and caches at once.

Each calls the same use case the command calls on a shared (Redis) deployment. Long
work (rebuilding or clearing every timeline) answers a stream of NDJSON lines, one per
step of progress, so the command can draw its progress bar: `{"total": n}` first, then
`{"done": k}` as timelines are done, `{"finished": n}` last, or `{"error": why}`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field, TypeAdapter

from feedloom.api.deps import FeedloomDep
from feedloom.domain.errors import FeedloomError
from feedloom.domain.model import Role
from feedloom.ports import AccountRecord
from feedloom.write.feed_upkeep import Progress, TimelineSnapshot

log = logging.getLogger(__name__)
router = APIRouter(prefix="/control")
RECORD = TypeAdapter(AccountRecord)
SNAPSHOT = TypeAdapter(TimelineSnapshot | None)
NDJSON = "application/x-ndjson"


class FeedTargets(BaseModel):
    username: str | None = Field(None, description="None: every account")
    concurrency: int = Field(8, ge=1, le=64)


class AccountChange(BaseModel):
    display_name: str | None = None
    password: str | None = None


class RoleChange(BaseModel):
    role: Role | None


@router.get("/feeds/{username}")
async def show_feed(
    username: str, feedloom: FeedloomDep, limit: Annotated[int, Query(ge=1, le=10_000)] = 20
) -> Any:
    upkeep = feedloom.services.feed_upkeep
    [user_id] = await upkeep.readers(username)
    return SNAPSHOT.dump_python(await upkeep.show(user_id, limit), mode="json")


@router.post("/feeds/build")
async def build_feeds(targets: FeedTargets, feedloom: FeedloomDep) -> StreamingResponse:
    upkeep = feedloom.services.feed_upkeep
    user_ids = await upkeep.readers(targets.username)  # refused before the stream opens
    work = partial(upkeep.build, user_ids, targets.concurrency)
    return StreamingResponse(progress_lines(len(user_ids), work), media_type=NDJSON)


@router.post("/feeds/clear")
async def clear_feeds(targets: FeedTargets, feedloom: FeedloomDep) -> StreamingResponse:
    upkeep = feedloom.services.feed_upkeep
    user_ids = await upkeep.readers(targets.username)
    work = partial(upkeep.clear, user_ids)
    return StreamingResponse(progress_lines(len(user_ids), work), media_type=NDJSON)


@router.post("/accounts/{username}/suspend")
async def suspend(username: str, feedloom: FeedloomDep) -> Any:
    record = await feedloom.services.account_lifecycle.suspend(username)
    return RECORD.dump_python(record, mode="json")


@router.post("/accounts/{username}/reinstate")
async def reinstate(username: str, feedloom: FeedloomDep) -> Any:
    record = await feedloom.services.account_lifecycle.reinstate(username)
    return RECORD.dump_python(record, mode="json")


@router.post("/accounts/{username}/delete")
async def delete(username: str, feedloom: FeedloomDep) -> Any:
    record = await feedloom.services.account_lifecycle.delete(username)
    return RECORD.dump_python(record, mode="json")


@router.post("/accounts/{username}/modify")
async def modify(username: str, change: AccountChange, feedloom: FeedloomDep) -> Any:
    lifecycle = feedloom.services.account_lifecycle
    record = await lifecycle.modify(username, change.display_name, change.password)
    return RECORD.dump_python(record, mode="json")


@router.post("/accounts/{username}/role")
async def set_role(username: str, change: RoleChange, feedloom: FeedloomDep) -> Any:
    record = await feedloom.services.account_lifecycle.set_role(username, change.role)
    return RECORD.dump_python(record, mode="json")


async def progress_lines(
    total: int, work: Callable[[Progress], Coroutine[Any, Any, None]]
) -> AsyncIterator[bytes]:
    """Run `work`, telling its progress as NDJSON lines. A client that goes away
    cancels the work: rebuilding or clearing a timeline is safe to stop anywhere."""
    done: asyncio.Queue[int] = asyncio.Queue()
    task = asyncio.create_task(work(done.put_nowait))
    yield _line(total=total)
    try:
        while not (task.done() and done.empty()):
            with contextlib.suppress(TimeoutError):
                count = await asyncio.wait_for(done.get(), timeout=0.2)
                while not done.empty():  # one line for all that finished meanwhile
                    count += done.get_nowait()
                yield _line(done=count)
        error = task.exception()
        if error is None:
            yield _line(finished=total)
        elif isinstance(error, FeedloomError):
            yield _line(error=error.detail)
        else:
            log.error("control work failed", exc_info=error)
            yield _line(error=f"the server failed ({type(error).__name__}); see its log")
    finally:
        task.cancel()


def _line(**fields: Any) -> bytes:
    return json.dumps(fields).encode() + b"\n"
