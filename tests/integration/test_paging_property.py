"""Property: paging through a feed while posts are added and deleted never returns a
duplicate and never skips a post that was visible throughout: delivered before paging
started (fanned out, or the reader's own, which shows at once) and never deleted. A
followee's post whose fan-out is still on its way is not in the feed yet (push: it
arrives within the fan-out lag), so it is not required, only never served twice."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from feedloom.bootstrap import Feedloom, open_feedloom
from feedloom.domain.model import Visibility
from feedloom.read.timing import StageTimer
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
        async with open_feedloom(shrunk_settings(Path(data_dir))) as feedloom:
            await _page_while_writing(feedloom, initial, limit, interleaved, settle_first)


async def _page_while_writing(
    feedloom: Feedloom,
    initial: list[int],
    limit: int,
    interleaved: list[list[Step]],
    settle_first: bool,
) -> None:
    users = [
        await feedloom.services.accounts.register(f"user_{n}", "password123", "")
        for n in range(AUTHORS + 1)
    ]
    reader = users[AUTHORS]
    for author in users[:AUTHORS]:
        await feedloom.services.relations.follow(reader, author)
    await _page(feedloom, reader, None, limit)  # the reader is active: timeline exists
    live: list[int] = [await _post(feedloom, users[i]) for i in initial]
    if settle_first:
        await feedloom.services.worker.process_pending()
    own = {post_id for author, post_id in zip(initial, live, strict=True) if author == AUTHORS}
    visible_throughout = set(live) if settle_first else own

    seen: list[int] = []
    ids, cursor = await _page(feedloom, reader, None, limit)
    seen += ids
    for batch in interleaved:
        if cursor is None:
            break
        for action, arg in batch:
            if action == "post":
                live.append(await _post(feedloom, users[arg]))
            elif action == "delete" and live:
                victim = live.pop(arg % len(live))
                visible_throughout.discard(victim)
                author = (await feedloom.stores.posts.posts([victim]))[victim].author_id
                await feedloom.services.delete_post(author, victim)
            else:
                await feedloom.services.worker.process_pending()
        ids, cursor = await _page(feedloom, reader, cursor, limit)
        seen += ids
    while cursor is not None:
        ids, cursor = await _page(feedloom, reader, cursor, limit)
        seen += ids

    assert len(seen) == len(set(seen)), "a post was served twice"
    assert visible_throughout <= set(seen), "a post visible throughout was skipped"
    assert seen == sorted(seen, reverse=True), "pages are not newest first"


async def _post(feedloom: Feedloom, author: int) -> int:
    published = await feedloom.services.publish(author, "x", [], Visibility.PUBLIC, None)
    return published.post_id


async def _page(
    feedloom: Feedloom, reader: int, cursor: str | None, limit: int
) -> tuple[list[int], str | None]:
    page = await feedloom.services.home_feed.page(reader, limit, cursor, StageTimer())
    return [item.post.id for item in page.items], page.next_cursor
