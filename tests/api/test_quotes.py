"""Quotes over /v1, on every backend: `quote_of` embeds another public post as the
reader may see it, `quotes` counts them, and bad input writes nothing."""

from __future__ import annotations

from tests.world import World


async def test_a_quote_embeds_the_quoted_post_and_counts_on_it(world: World) -> None:
    alice, bob, reader = await world.user(), await world.user(), await world.user()
    await world.follow(reader, bob)
    quoted = await world.post(alice, "the claim")
    quote = await world.post(bob, "my take", quote_of=quoted)
    await world.settle()
    [item] = (await world.feed(reader))["items"]
    assert item["post_id"] == quote and item["text"] == "my take"
    assert item["quote"]["post_id"] == quoted
    assert item["quote"]["text"] == "the claim"
    assert item["quote"]["author"]["id"] == alice.id
    view = (await world.client.get(f"/v1/posts/{quoted}", headers=reader.auth)).json()
    assert view["quotes"] == 1 and view["quote"] is None


async def test_a_deleted_or_hidden_quoted_post_is_unavailable(world: World) -> None:
    alice, bob, reader = await world.user(), await world.user(), await world.user()
    await world.follow(reader, bob)
    blocked = await world.post(alice, "from alice")
    deleted = await world.post(bob, "soon gone")
    await world.post(bob, "on alice", quote_of=blocked)
    await world.post(bob, "on myself", quote_of=deleted)
    await world.client.put(f"/v1/users/{alice.id}/block", headers=reader.auth)
    await world.client.delete(f"/v1/posts/{deleted}", headers=bob.auth)
    await world.settle()
    quotes = [i["quote"] for i in (await world.feed(reader))["items"] if i["text"] != "soon gone"]
    assert quotes == [{"unavailable": True}, {"unavailable": True}]


async def test_bad_quotes_are_refused_and_write_nothing(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    await world.follow(bob, alice)
    private = await world.post(alice, "friends only", visibility="followers")
    mine = await world.post(bob, "mine")
    await world.client.delete(f"/v1/posts/{mine}", headers=bob.auth)
    cases = {
        private: 403,  # followers-only: not shareable
        mine: 404,  # your own deleted post is not there, like any deleted post
        "9223372036854775807": 404,
        "9223372036854775808": 422,  # above 2^63-1: not an ID
        "x1": 422,
    }
    for quote_of, status in cases.items():
        refused = await world.client.post(
            "/v1/posts", json={"text": "q", "quote_of": quote_of}, headers=bob.auth
        )
        assert refused.status_code == status, (quote_of, refused.text)
        assert refused.headers["content-type"] == "application/problem+json"
    posts = (await world.client.get(f"/v1/users/{bob.id}/posts", headers=bob.auth)).json()
    assert posts["items"] == []
    view = (await world.client.get(f"/v1/posts/{private}", headers=bob.auth)).json()
    assert view["quotes"] == 0
