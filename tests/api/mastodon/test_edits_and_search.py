"""Edits (PUT, history, source) and search (v2) on the Mastodon-compatible API: the
EditPost and search use cases of /v1, rendered as Mastodon's."""

from __future__ import annotations

from tests.api.mastodon.oauth import bearer, token_for
from tests.world import World


async def test_an_edit_changes_the_status_and_keeps_its_history(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    auth = bearer(await token_for(world.client, alice))
    sent = await world.client.post("/api/v1/statuses", data={"status": "first words"}, headers=auth)
    status_id = sent.json()["id"]
    assert sent.json()["edited_at"] is None
    source = await world.client.get(f"/api/v1/statuses/{status_id}/source", headers=auth)
    assert source.json() == {"id": status_id, "text": "first words", "spoiler_text": ""}
    edited = await world.client.put(
        f"/api/v1/statuses/{status_id}", data={"status": "better words"}, headers=auth
    )
    assert edited.status_code == 200, edited.text
    assert edited.json()["content"] == "<p>better words</p>"
    assert edited.json()["edited_at"] is not None
    history = await world.client.get(f"/api/v1/statuses/{status_id}/history", headers=auth)
    assert [v["content"] for v in history.json()] == ["<p>first words</p>", "<p>better words</p>"]
    assert history.json()[0]["account"]["id"] == alice.id
    other = bearer(await token_for(world.client, bob))
    refused = await world.client.put(
        f"/api/v1/statuses/{status_id}", data={"status": "mine now"}, headers=other
    )
    assert refused.status_code == 404 and set(refused.json()) == {"error"}


async def test_search_finds_accounts_and_statuses(world: World) -> None:
    alice = await world.user("searcher_alice")
    auth = bearer(await token_for(world.client, alice))
    await world.client.post("/api/v1/statuses", data={"status": "zebra crossing"}, headers=auth)
    found = await world.client.get("/api/v2/search", params={"q": "zebra"}, headers=auth)
    assert found.status_code == 200, found.text
    assert [s["content"] for s in found.json()["statuses"]] == ["<p>zebra crossing</p>"]
    people = await world.client.get(
        "/api/v2/search", params={"q": "searcher_al", "type": "accounts"}, headers=auth
    )
    assert [a["id"] for a in people.json()["accounts"]] == [alice.id]
    assert people.json()["statuses"] == [] and people.json()["hashtags"] == []
