"""Affinity, the ranked feed's reader -> author feature: updated online on each like and
comment, recomputed in batch by `feedloom affinity rebuild`."""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from feedloom.bootstrap import Feedloom, open_feedloom
from feedloom.cli import app as cli
from feedloom.domain.model import Visibility
from feedloom.ranking.affinity import AffinityState, InteractionKind
from feedloom.settings import Settings
from tests.conftest import shrunk_settings
from tests.world import User, World


async def like(world: World, user: User, post_id: str, *, undo: bool = False) -> None:
    method = world.client.delete if undo else world.client.put
    response = await method(f"/v1/posts/{post_id}/like", headers=user.auth)
    assert response.status_code == 200, response.text


async def comment(world: World, user: User, post_id: str) -> None:
    response = await world.client.post(
        f"/v1/posts/{post_id}/comments", json={"text": "nice"}, headers=user.auth
    )
    assert response.status_code == 201, response.text


async def raw(feedloom: Feedloom, reader: User, author: User) -> float:
    states = await feedloom.stores.affinities.states(int(reader.id), [int(author.id)])
    return states[int(author.id)].raw if int(author.id) in states else 0.0


async def test_a_like_counts_one_and_a_comment_three_toward_affinity(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    post_id = await world.post(alice)
    await like(world, bob, post_id)
    assert await raw(world.feedloom, bob, alice) == 1.0
    await comment(world, bob, post_id)
    # The comment comes moments after the like, so the like has barely decayed.
    assert 3.99 < await raw(world.feedloom, bob, alice) <= 4.0
    assert await raw(world.feedloom, alice, bob) == 0.0  # affinity has a direction


async def test_unliking_or_liking_your_own_post_leaves_affinity_alone(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    post_id = await world.post(alice)
    await like(world, bob, post_id)
    await like(world, bob, post_id)  # a repeated like is no new interaction
    await like(world, bob, post_id, undo=True)
    assert await raw(world.feedloom, bob, alice) == 1.0
    await like(world, alice, post_id)
    await comment(world, alice, post_id)
    assert await world.feedloom.stores.affinities.states(int(alice.id), [int(alice.id)]) == {}


async def test_a_failing_affinity_store_never_fails_the_like(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    class BrokenAffinities:
        async def add(
            self, reader: int, author: int, kind: InteractionKind, at: datetime, half: float
        ) -> AffinityState:
            raise ConnectionError("affinity store unreachable")

    alice, bob = await world.user(), await world.user()
    post_id = await world.post(alice)
    monkeypatch.setattr(world.feedloom.services.affinity, "_affinities", BrokenAffinities())
    await like(world, bob, post_id)
    liked = await world.feedloom.stores.engagement.liked_among(int(bob.id), [int(post_id)])
    assert liked == {int(post_id)}


async def test_a_rebuild_matches_the_online_updates_and_forgets_unliked_posts(
    world: World,
) -> None:
    alice, bob, carol = await world.user(), await world.user(), await world.user()
    kept, unliked = await world.post(alice), await world.post(alice)
    await like(world, bob, kept)
    await comment(world, carol, kept)
    await like(world, carol, unliked)
    await like(world, carol, unliked, undo=True)
    bob_online, carol_online = (
        await raw(world.feedloom, bob, alice),
        await raw(world.feedloom, carol, alice),
    )

    assert await world.feedloom.services.affinity.rebuild() == 2

    assert await raw(world.feedloom, bob, alice) == bob_online
    # Online, carol's like and unlike both happened (4.0); the rebuild sees the comment only.
    assert 3.99 < carol_online <= 4.0
    assert await raw(world.feedloom, carol, alice) == 3.0


def test_the_rebuild_command_reports_the_pairs_it_wrote(tmp_path: Path) -> None:
    settings = shrunk_settings(tmp_path)
    asyncio.run(_seed_one_like(settings))
    result = CliRunner().invoke(cli, ["affinity", "rebuild", "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "rebuilt 1 reader-author affinities" in result.output


async def _seed_one_like(settings: Settings) -> None:
    async with open_feedloom(settings) as feedloom:
        alice = await feedloom.services.accounts.register("alice", "long enough password", "Alice")
        bob = await feedloom.services.accounts.register("bob", "long enough password", "Bob")
        published = await feedloom.services.publish(alice, "hi", [], Visibility.PUBLIC, None)
        await feedloom.services.engage.like(bob, published.post_id)
