"""The content check holds posts before fan-out; moderators release or reject them,
read reports and suspend accounts (write/content_check.py, write/moderation.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from feedloom.domain.model import Role
from feedloom.settings import ModerationSettings, Settings
from tests.conftest import shrunk_settings
from tests.world import User, World

SPAM = "buy now at https://spam.example/deal"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    chosen = shrunk_settings(tmp_path)
    chosen.moderation = ModerationSettings(
        blocked_domains=["spam.example"], blocked_words=["scamword"], repeat_limit=2
    )
    return chosen


async def moderator(world: World) -> User:
    user = await world.user()
    await world.feedloom.services.account_lifecycle.set_role(user.username, Role.MODERATOR)
    return user


async def queue(world: World, mod: User) -> list[dict[str, Any]]:
    response = await world.client.get("/v1/moderation/queue", headers=mod.auth)
    assert response.status_code == 200, response.text
    items: list[dict[str, Any]] = response.json()["items"]
    return items


async def test_a_post_with_a_blocklisted_domain_is_held_seen_by_its_author_only(
    world: World,
) -> None:
    author, reader, mod = await world.user(), await world.user(), await moderator(world)
    await world.follow(reader, author)
    held = await world.post(author, SPAM)
    fine = await world.post(author, "a perfectly ordinary post")
    await world.settle()

    assert await world.feed_ids(reader) == [fine]
    assert held in await world.feed_ids(author)
    assert (await world.client.get(f"/v1/posts/{held}", headers=reader.auth)).status_code == 404
    [queued] = await queue(world, mod)
    assert queued["post_id"] == held and queued["held"]
    assert queued["held_reason"] == "blocklisted domain: spam.example"


async def test_releasing_a_held_post_fans_it_out_like_a_new_one(world: World) -> None:
    author, reader, mod = await world.user(), await world.user(), await moderator(world)
    await world.follow(reader, author)
    held = await world.post(author, "this has a scamword in it")
    await world.settle()
    assert held not in await world.feed_ids(reader)

    released = await world.client.post(f"/v1/moderation/posts/{held}/release", headers=mod.auth)
    again = await world.client.post(f"/v1/moderation/posts/{held}/release", headers=mod.auth)
    await world.settle()

    assert released.json() == {"post_id": held, "changed": True}
    assert again.json()["changed"] is False
    assert held in await world.feed_ids(reader)
    assert await queue(world, mod) == []


async def test_rejecting_a_held_post_deletes_it_for_its_author_too(world: World) -> None:
    author, mod = await world.user(), await moderator(world)
    held = await world.post(author, SPAM)
    await world.settle()

    rejected = await world.client.post(f"/v1/moderation/posts/{held}/reject", headers=mod.auth)
    await world.settle()

    assert rejected.json()["changed"] is True
    assert held not in await world.feed_ids(author)
    assert (await world.client.get(f"/v1/posts/{held}", headers=author.auth)).status_code == 404
    assert await queue(world, mod) == []


async def test_the_same_text_again_and_again_is_held_after_the_limit(world: World) -> None:
    author, reader = await world.user(), await world.user()
    await world.follow(reader, author)
    text = "the very same long text posted on repeat"
    posted = [await world.post(author, text) for _ in range(3)]
    await world.settle()

    assert set(await world.feed_ids(reader)) == set(posted[:2])


async def test_a_report_is_counted_once_per_reporter_and_queued(world: World) -> None:
    author, reader, mod = await world.user(), await world.user(), await moderator(world)
    post_id = await world.post(author, "a contested opinion")
    await world.settle()

    url = f"/v1/posts/{post_id}/reports"
    first = await world.client.post(url, json={"reason": "rude"}, headers=reader.auth)
    second = await world.client.post(url, json={"reason": "rude"}, headers=reader.auth)
    await world.client.post(url, json={"reason": "spam"}, headers=mod.auth)

    assert first.json() == {"reported": True, "changed": True}
    assert second.json() == {"reported": True, "changed": False}
    [queued] = await queue(world, mod)
    assert queued["post_id"] == post_id and not queued["held"]
    assert queued["reports"] == 2 and sorted(queued["reasons"]) == ["rude", "spam"]


async def test_an_empty_report_reason_is_refused(world: World) -> None:
    author = await world.user()
    post_id = await world.post(author)
    response = await world.client.post(
        f"/v1/posts/{post_id}/reports", json={"reason": "   "}, headers=author.auth
    )
    assert response.status_code == 422


async def test_only_moderators_reach_the_moderation_api(world: World) -> None:
    author, other = await world.user(), await world.user()
    post_id = await world.post(author, SPAM)
    await world.settle()

    for response in (
        await world.client.get("/v1/moderation/queue", headers=other.auth),
        await world.client.post(f"/v1/moderation/posts/{post_id}/release", headers=other.auth),
        await world.client.put(
            f"/v1/moderation/accounts/{author.username}/suspension", headers=other.auth
        ),
    ):
        assert response.status_code == 403, response.text
        assert response.headers["content-type"] == "application/problem+json"


async def test_a_moderator_suspends_an_account_and_its_posts_leave_feeds_on_the_next_read(
    world: World,
) -> None:
    author, reader, mod = await world.user(), await world.user(), await moderator(world)
    await world.follow(reader, author)
    post_id = await world.post(author, "soon gone")
    await world.settle()
    assert post_id in await world.feed_ids(reader)

    url = f"/v1/moderation/accounts/{author.username}/suspension"
    suspended = await world.client.put(url, headers=mod.auth)

    assert suspended.json()["suspended"] is True
    assert post_id not in await world.feed_ids(reader)
    assert (await world.client.get("/v1/me", headers=author.auth)).status_code == 401
    reinstated = await world.client.delete(url, headers=mod.auth)
    assert reinstated.json()["suspended"] is False
    assert post_id in await world.feed_ids(reader)


async def test_a_sudden_burst_of_followers_is_listed_as_a_spike(world: World) -> None:
    star, mod = await world.user(), await moderator(world)
    for _ in range(21):
        await world.follow(await world.user(), star)
    await world.settle()

    response = await world.client.get(
        "/v1/moderation/spikes", params={"kind": "followers"}, headers=mod.auth
    )

    [spike] = response.json()["items"]
    assert (spike["username"], spike["this_hour"]) == (star.username, 21)
    assert spike["z"] >= 4
    likes = await world.client.get(
        "/v1/moderation/spikes", params={"kind": "likes"}, headers=mod.auth
    )
    assert likes.json()["items"] == []
