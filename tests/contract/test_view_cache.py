"""Contract: serialized shared views (ViewCache), on every adapter."""

from __future__ import annotations

from feedloom.domain.ids import created_at_of
from feedloom.domain.model import Media, Post, Visibility
from tests.contract.conftest import Caches


async def test_views_round_trip_and_missing_keys_are_left_out(caches: Caches) -> None:
    views = caches.view_cache()
    await views.set_many({1: b"\x00post one", 2: b"{}"})
    assert await views.get_many([1, 2, 3]) == {1: b"\x00post one", 2: b"{}"}


async def test_setting_again_replaces_and_deleting_forgets(caches: Caches) -> None:
    views = caches.view_cache()
    await views.set_many({1: b"old", 2: b"two"})
    await views.set_many({1: b"new"})
    await views.delete_many([2, 3])
    assert await views.get_many([1, 2]) == {1: b"new"}


async def test_an_empty_request_touches_nothing(caches: Caches) -> None:
    views = caches.view_cache()
    await views.set_many({})
    await views.delete_many([])
    assert await views.get_many([]) == {}


async def test_a_post_view_comes_back_as_the_post_it_was(caches: Caches) -> None:
    post_id = 386_000_000_000_000_000
    post = Post(
        post_id,
        7,
        "text with ünïcode",
        Visibility.FOLLOWERS,
        created_at_of(post_id),
        (Media(9, "/media/9.png", 640, 480),),
    )
    views = caches.post_views()
    await views.set_many({post_id: post})
    assert await views.get_many([post_id]) == {post_id: post}
