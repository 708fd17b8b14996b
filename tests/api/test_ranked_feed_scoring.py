"""Why a post sits where it does in the ranked feed, over HTTP, on every feedloom set:
explain, affinity, pinning and diversity, the fallback to time order, the feature log."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest

from feedloom.domain.model import Role
from feedloom.ranking import Candidate, Weights, rank
from feedloom.read.ranked.feature_log import FeatureLog
from tests.api.ranked import RANKED, authors, generous_ranker_budget, ids, like, reader_of
from tests.world import User, World


@pytest.fixture(autouse=True)
def _generous_ranker_budget(world: World) -> None:
    generous_ranker_budget(world)


def fallbacks(world: World, reason: str) -> float | None:
    return world.feedloom.metrics.registry.get_sample_value(
        "feedloom_ranker_fallbacks_total", {"reason": reason}
    )


async def delete(world: World, author: User, post_id: str) -> None:
    response = await world.client.delete(f"/v1/posts/{post_id}", headers=author.auth)
    assert response.status_code == 204, response.text


async def follow_all(world: World, readers: Sequence[User], followed: Sequence[User]) -> None:
    for reader in readers:
        for author in followed:
            await world.follow(reader, author)
        await world.feed(reader)


async def test_a_failing_ranker_serves_time_order_says_so_and_is_counted(world: World) -> None:
    def failing(candidates: Sequence[Candidate], weights: Weights, *, now: datetime) -> Any:
        raise RuntimeError("model server down")

    reader, _ = await reader_of(world, authors=2, posts_each=3)
    world.feedloom.services.home_feed.ranked.ranker.ranker = failing
    page = await world.feed(reader, **RANKED, explain="true", limit=4)
    assert page["order"] == "chronological" and page["fallback"] == "error"
    assert ids(page) == ids(await world.feed(reader, order="chronological", limit=4))
    assert fallbacks(world, "error") == 1
    rest = await world.feed(reader, cursor=page["next_cursor"])  # continues in time order
    assert rest["order"] == "chronological" and len(ids(rest)) == 2


async def test_a_ranker_slower_than_its_budget_is_abandoned_for_time_order(world: World) -> None:
    def slow(candidates: Sequence[Candidate], weights: Weights, *, now: datetime) -> Any:
        time.sleep(0.6)
        return rank(candidates, weights, now=now)

    reader, _ = await reader_of(world, authors=2, posts_each=2)
    world.feedloom.services.home_feed.ranked.ranker.ranker = slow
    world.feedloom.services.home_feed.ranked.ranker.budget_s = 0.05
    started = time.perf_counter()
    page = await world.feed(reader, **RANKED)
    assert time.perf_counter() - started < 0.45
    assert page["order"] == "chronological"
    assert fallbacks(world, "timeout") == 1


async def test_explain_shows_each_posts_source_score_parts_and_what_was_filtered(
    world: World,
) -> None:
    reader, alice, mallory = await world.user(), await world.user(), await world.user()
    await follow_all(world, [reader], [alice, mallory])
    liked, plain = await world.post(alice, "liked"), await world.post(alice, "plain")
    for n in range(2):
        await world.post(mallory, f"muted {n}")
    await world.settle()
    await like(world, reader, liked)
    await world.client.put(f"/v1/users/{mallory.id}/mute", headers=reader.auth)
    await world.settle()
    own = await world.post(reader, "mine")  # no fan-out yet: found as "own"

    page = await world.feed(reader, **RANKED, explain="true")

    assert ids(page) == [own, liked, plain]  # own pinned; the like outweighs being older
    assert page["filtered"] == {"muted": 2}
    explained = {item["post_id"]: item["explain"] for item in page["items"]}
    assert {post: e["source"] for post, e in explained.items()} == {
        own: "own",
        liked: "pushed",
        plain: "pushed",
    }
    for e in explained.values():
        parts = e["components"]
        assert e["score"] == pytest.approx(
            (parts["affinity_term"] + parts["engagement_term"]) * parts["decay"]
        )
        assert parts["affinity_term"] == pytest.approx(2.0 * parts["affinity"])
        engagement = math.log10(1 + parts["likes"] + 3 * parts["comments"])
        assert parts["engagement_term"] == pytest.approx(engagement)
        assert parts["decay"] == pytest.approx(0.5 ** (parts["age_hours"] / 6.0))
    assert explained[liked]["components"]["likes"] == 1
    assert explained[liked]["components"]["affinity"] > 0
    assert explained[plain]["components"]["affinity"] == explained[liked]["components"]["affinity"]
    assert explained[own]["components"]["affinity"] == 0


async def test_explain_is_opt_in_and_says_little_about_a_chronological_feed(
    world: World,
) -> None:
    reader, _ = await reader_of(world, authors=2, posts_each=2)
    plain = await world.feed(reader, **RANKED)
    assert set(plain) == {"items", "next_cursor", "order"}
    assert all("explain" not in item for item in plain["items"])
    chronological = await world.feed(reader, explain="true")
    assert chronological["filtered"] == {}
    for item in chronological["items"]:
        assert item["explain"] == {"source": "pushed", "score": None, "components": None}


async def test_a_reader_who_likes_an_authors_posts_sees_that_author_higher(
    world: World,
) -> None:
    fan, control, alice, bob = [await world.user() for _ in range(4)]
    await follow_all(world, [fan, control], [alice, bob])
    warm_up = await world.post(alice, "warm-up")
    await like(world, fan, warm_up)
    # Deleting the post drops it from every feed, but not the affinity its like earned:
    # delete is a filter, never a feature.
    await delete(world, alice, warm_up)
    from_alice = await world.post(alice, "older")
    from_bob = await world.post(bob, "newer")
    await world.settle()
    assert ids(await world.feed(control, **RANKED)) == [from_bob, from_alice]  # tie: newer
    assert ids(await world.feed(fan, **RANKED)) == [from_alice, from_bob]


async def test_the_readers_fresh_posts_stay_on_top_whatever_their_score(world: World) -> None:
    reader, alice, fan = await world.user(), await world.user(), await world.user()
    await follow_all(world, [reader], [alice])
    own = await world.post(reader, "mine, unliked")
    for n in range(3):
        await like(world, fan, await world.post(alice, f"popular {n}"))
    await world.settle()
    assert ids(await world.feed(reader, **RANKED))[0] == own
    ranked = world.feedloom.services.home_feed.ranked
    ranked.config = replace(ranked.config, pin_own=timedelta(0))
    assert ids(await world.feed(reader, **RANKED))[0] != own


async def test_the_same_author_is_not_shown_twice_in_a_row_when_another_is_left(
    world: World,
) -> None:
    reader, alice, bob = await world.user(), await world.user(), await world.user()
    await follow_all(world, [reader], [alice, bob])
    await world.post(bob)
    for _ in range(4):
        await world.post(alice)
    await world.settle()
    a, b = alice.id, bob.id
    assert authors(await world.feed(reader, order="chronological")) == [a, a, a, a, b]
    assert authors(await world.feed(reader, **RANKED)) == [a, b, a, a, a]


async def test_served_items_are_logged_with_their_features_and_positions(
    world: World, tmp_path: Path
) -> None:
    log = FeatureLog(tmp_path / "served.jsonl")
    world.feedloom.services.home_feed.ranked.feature_log = log
    reader, _ = await reader_of(world, authors=2, posts_each=3)
    first = await world.feed(reader, **RANKED, limit=4)
    second = await world.feed(reader, cursor=first["next_cursor"], limit=4)
    await log.close()

    rows = [orjson.loads(line) for line in log.path.read_bytes().splitlines()]
    assert [row["post"] for row in rows] == ids(first) + ids(second)
    assert [row["position"] for row in rows] == list(range(6))
    assert {row["reader"] for row in rows} == {reader.id}
    assert {row["session"] for row in rows} == {rows[0]["session"]} != {None}
    assert set(rows[0]["components"]) == {
        "affinity_term",
        "engagement_term",
        "decay",
        "age_hours",
        "affinity",
        "likes",
        "comments",
    }


async def test_likes_from_flagged_accounts_do_not_raise_a_post_in_the_ranked_feed(
    world: World,
) -> None:
    mod = await world.user()
    await world.feedloom.services.account_lifecycle.set_role(mod.username, Role.MODERATOR)
    reader, [author] = await reader_of(world, authors=1, posts_each=0)
    older = await world.post(author, "older")
    newer = await world.post(author, "newer")
    ring = [await world.user() for _ in range(3)]
    for account in ring:
        flagged = await world.client.put(
            f"/v1/moderation/accounts/{account.username}/flag", headers=mod.auth
        )
        assert flagged.status_code == 200, flagged.text
        await like(world, account, older)
    await world.settle()

    page = await world.feed(reader, **RANKED, explain="true")
    assert ids(page) == [newer, older]  # three flagged likes weigh nothing
    explained = {item["post_id"]: item["explain"] for item in page["items"]}
    assert explained[older]["components"]["likes"] == 0
    shown = await world.client.get(f"/v1/posts/{older}", headers=reader.auth)
    assert shown.json()["likes"] == 3  # the likes themselves stand

    await like(world, await world.user(), older)
    await world.settle()
    page = await world.feed(reader, **RANKED, explain="true")
    assert ids(page) == [older, newer]  # one unflagged like does
    explained = {item["post_id"]: item["explain"] for item in page["items"]}
    assert explained[older]["components"]["likes"] == 1
