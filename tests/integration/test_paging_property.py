"""Property: paging through a feed while posts are added and deleted never returns a
duplicate and never skips a post that was visible throughout."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from feedloom.backend import Backend
from feedloom.bootstrap import build_backend
from feedloom.domain.model import Visibility
from feedloom.read.home_timeline import home_timeline
from feedloom.read.timing import StageTimer
from feedloom.write.accounts import register_account
from feedloom.write.delete_post import delete_post
from feedloom.write.publish_post import publish_post
from feedloom.write.relations import follow
from feedloom.write.worker import process_pending
from tests.conftest import shrunk_settings

AUTHORS = 3
Step = tuple[str, int]

steps = st.lists(
    st.one_of(
        st.tuples(st.just("post"), st.integers(0, AUTHORS)),  # AUTHORS = the reader
        st.tuples(st.just("delete"), st.integers(0, 10_000)),
        st.tuples(st.just("settle"), st.just(0)),
    ),
    max_size=12,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    initial=st.lists(st.integers(0, AUTHORS), min_size=0, max_size=70),
    limit=st.integers(1, 9),
    interleaved=st.lists(steps, max_size=12),
    settle_first=st.booleans(),
)
def test_paging_never_repeats_or_skips(
    initial: list[int], limit: int, interleaved: list[list[Step]], settle_first: bool
) -> None:
    asyncio.run(_scenario(initial, limit, interleaved, settle_first))


async def _scenario(
    initial: list[int], limit: int, interleaved: list[list[Step]], settle_first: bool
) -> None:
    with tempfile.TemporaryDirectory() as data_dir:
        backend = await build_backend(shrunk_settings(Path(data_dir)))
        try:
            await _page_while_writing(backend, initial, limit, interleaved, settle_first)
        finally:
            await backend.close()


async def _page_while_writing(
    backend: Backend,
    initial: list[int],
    limit: int,
    interleaved: list[list[Step]],
    settle_first: bool,
) -> None:
    users = [
        await register_account(backend, f"user_{n}", "password123", "") for n in range(AUTHORS + 1)
    ]
    reader = users[AUTHORS]
    for author in users[:AUTHORS]:
        await follow(backend, reader, author)
    await _page(backend, reader, None, limit)  # the reader is active: timeline exists
    live: list[int] = [await _post(backend, users[i]) for i in initial]
    if settle_first:
        await process_pending(backend)
    visible_throughout = set(live)

    seen: list[int] = []
    ids, cursor = await _page(backend, reader, None, limit)
    seen += ids
    for batch in interleaved:
        if cursor is None:
            break
        for action, arg in batch:
            if action == "post":
                live.append(await _post(backend, users[arg]))
            elif action == "delete" and live:
                victim = live.pop(arg % len(live))
                visible_throughout.discard(victim)
                author = (await backend.posts.posts([victim]))[victim].author_id
                await delete_post(backend, author, victim)
            else:
                await process_pending(backend)
        ids, cursor = await _page(backend, reader, cursor, limit)
        seen += ids
    while cursor is not None:
        ids, cursor = await _page(backend, reader, cursor, limit)
        seen += ids

    assert len(seen) == len(set(seen)), "a post was served twice"
    assert visible_throughout <= set(seen), "a post visible throughout was skipped"
    assert seen == sorted(seen, reverse=True), "pages are not newest first"


async def _post(backend: Backend, author: int) -> int:
    published = await publish_post(backend, author, "x", [], Visibility.PUBLIC, None)
    return published.post_id


async def _page(
    backend: Backend, reader: int, cursor: str | None, limit: int
) -> tuple[list[int], str | None]:
    page = await home_timeline(backend, reader, limit, cursor, StageTimer())
    return [item.post.id for item in page.items], page.next_cursor
