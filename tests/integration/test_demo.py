"""The demo a newcomer sees: a living feed with big (pulled) accounts, likes and comments."""

from __future__ import annotations

from pathlib import Path

from feedloom.bootstrap import build_backend
from feedloom.demo import DEMO_PASSWORD, DEMO_USER, seed_demo
from feedloom.read.home_timeline import home_timeline
from feedloom.read.timing import StageTimer
from feedloom.settings import load_settings
from feedloom.write.accounts import open_session


async def test_the_demo_user_opens_a_full_feed_with_pulled_accounts_and_engagement(
    tmp_path: Path,
) -> None:
    backend = await build_backend(load_settings(tmp_path, demo=True))
    try:
        assert await seed_demo(backend) is True
        assert await seed_demo(backend) is False  # seeding twice changes nothing
        assert await open_session(backend, DEMO_USER, DEMO_PASSWORD)
        demo = await backend.accounts.credentials(DEMO_USER)
        assert demo is not None
        page = await home_timeline(backend, demo.user_id, 50, None, StageTimer())
        assert len(page.items) == 50
        assert page.next_cursor is not None
        assert any(item.author.pulled for item in page.items), "no big account in the demo feed"
        assert any(item.counts.likes for item in page.items)
        followees = {f.user_id for f in await backend.graph.followees(demo.user_id)}
        assert {item.author.id for item in page.items} <= followees | {demo.user_id}
    finally:
        await backend.close()
