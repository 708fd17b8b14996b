"""The demo a newcomer sees: a living feed with big (pulled) accounts, likes and comments."""

from __future__ import annotations

import re
import time
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


async def test_the_demo_looks_like_people_in_three_languages_with_tags_mentions_and_pictures(
    tmp_path: Path,
) -> None:
    async with open_feedloom(load_settings(tmp_path, demo=True)) as feedloom:
        started = time.perf_counter()
        assert await demo_seeder(feedloom).seed() is True
        seeded_s = time.perf_counter() - started
        await feedloom.services.worker.process_pending()  # the picture posts fan out
        demo = await feedloom.stores.accounts.credentials(DEMO_USER)
        assert demo is not None
        texts: list[str] = []
        cursor, pictures, avatars = None, 0, set()
        for _ in range(6):
            page = await feedloom.services.home_feed.page(demo.user_id, 100, cursor, StageTimer())
            texts += [item.post.text for item in page.items]
            pictures += sum(bool(item.post.media) for item in page.items)
            avatars |= {item.author.id for item in page.items if item.author.avatar}
            if (cursor := page.next_cursor) is None:
                break
        joined = "\n".join(texts)
        assert re.search("[\u0980-\u09ff]", joined), "no Bengali"
        assert re.search(r"\b(le|la|les|du|des)\b.*[éèàç]", joined), "no French"
        assert re.search(r"#\w+", joined) and re.search(r"@[a-z0-9_]{3,}", joined)
        first_screen = texts[:30]
        assert len(set(first_screen)) >= 28, "the first screen repeats itself"
        assert pictures >= 1 and avatars, "no picture in the demo feed, or nobody has an avatar"
        people = feedloom.services.people
        assert (await people.profile(demo.user_id, demo.user_id)).profile.avatar is not None
        found = await people.search(demo.user_id, "a", 10, None)
        assert found.people, "typing 'a' in Find people finds nobody"
        print(f"seeded in {seeded_s:.1f} s")  # the README's first start waits for this
