"""The demo a newcomer sees: a living feed with big (pulled) accounts, likes and comments."""

from __future__ import annotations

from pathlib import Path

from feedloom.bootstrap import open_feedloom
from feedloom.demo import DEMO_PASSWORD, DEMO_USER, demo_seeder
from feedloom.read.timing import StageTimer
from feedloom.settings import load_settings


async def test_the_demo_user_opens_a_full_feed_with_pulled_accounts_and_engagement(
    tmp_path: Path,
) -> None:
    async with open_feedloom(load_settings(tmp_path, demo=True)) as feedloom:
        assert await demo_seeder(feedloom).seed() is True
        assert await demo_seeder(feedloom).seed() is False  # seeding twice changes nothing
        assert await feedloom.services.accounts.open_session(DEMO_USER, DEMO_PASSWORD, "127.0.0.1")
        demo = await feedloom.stores.accounts.credentials(DEMO_USER)
        assert demo is not None
        page = await feedloom.services.home_feed.page(demo.user_id, 50, None, StageTimer())
        assert len(page.items) == 50
        assert page.next_cursor is not None
        assert any(item.author.pulled for item in page.items), "no big account in the demo feed"
        assert any(item.counts.likes for item in page.items)
        followees = {f.user_id for f in await feedloom.stores.graph.followees(demo.user_id)}
        assert {item.author.id for item in page.items} <= followees | {demo.user_id}
