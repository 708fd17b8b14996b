"""Statuses, accounts and the home timeline on the Mastodon-compatible API: the same
use cases as /v1, Mastodon's shapes and paging."""

from __future__ import annotations

import re
from typing import Any

import httpx

from tests.api.mastodon.oauth import bearer, token_for
from tests.world import User, World


async def _signed_in(world: World) -> tuple[User, dict[str, str]]:
    user = await world.user()
    return user, bearer(await token_for(world.client, user))


async def _post(
    client: httpx.AsyncClient, auth: dict[str, str], text: str, **extra: str
) -> dict[str, Any]:
    response = await client.post("/api/v1/statuses", data={"status": text, **extra}, headers=auth)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _path(url: str) -> str:
    return "/" + url.split("/", 3)[3]


def _links(response: httpx.Response) -> dict[str, str]:
    return {
        rel: url for url, rel in re.findall(r'<([^>]+)>; rel="(\w+)"', response.headers["link"])
    }


async def test_a_status_is_posted_read_favourited_reblogged_and_deleted(world: World) -> None:
    alice, alice_auth = await _signed_in(world)
    _bob, bob_auth = await _signed_in(world)
    key = {"Idempotency-Key": "first-try"}
    sent = await world.client.post(
        "/api/v1/statuses",
        data={"status": "hello <b>you</b> https://example.org"},
        headers={**alice_auth, **key},
    )
    again = await world.client.post(
        "/api/v1/statuses",
        data={"status": "hello <b>you</b> https://example.org"},
        headers={**alice_auth, **key},
    )
    assert sent.status_code == again.status_code == 200
    status = sent.json()
    assert again.json()["id"] == status["id"]
    assert status["account"]["id"] == alice.id
    assert "&lt;b&gt;" in status["content"] and '<a href="https://example.org"' in status["content"]
    assert status["visibility"] == "public"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", status["created_at"])

    liked = await world.client.post(f"/api/v1/statuses/{status['id']}/favourite", headers=bob_auth)
    assert liked.json()["favourited"] is True and liked.json()["favourites_count"] == 1
    shared = await world.client.post(f"/api/v1/statuses/{status['id']}/reblog", headers=bob_auth)
    assert shared.json()["reblogged"] is True

    reply = await _post(world.client, bob_auth, "a reply", in_reply_to_id=status["id"])
    assert reply["in_reply_to_id"] == status["id"]
    context = await world.client.get(f"/api/v1/statuses/{reply['id']}/context", headers=bob_auth)
    assert [s["id"] for s in context.json()["ancestors"]] == [status["id"]]

    deleted = await world.client.delete(f"/api/v1/statuses/{status['id']}", headers=alice_auth)
    assert (
        deleted.status_code == 200
        and deleted.json()["text"] == "hello <b>you</b> https://example.org"
    )
    gone = await world.client.get(f"/api/v1/statuses/{status['id']}", headers=alice_auth)
    assert gone.status_code == 404 and set(gone.json()) == {"error"}


async def test_unlisted_and_direct_are_refused_saying_why(world: World) -> None:
    _, auth = await _signed_in(world)
    for visibility in ("unlisted", "direct"):
        refused = await world.client.post(
            "/api/v1/statuses", data={"status": "x", "visibility": visibility}, headers=auth
        )
        assert refused.status_code == 422
        assert "not supported" in refused.json()["error"]
    private = await _post(world.client, auth, "for followers", visibility="private")
    assert private["visibility"] == "private"


async def test_follow_relationships_and_the_home_timeline_pages_like_mastodon(world: World) -> None:
    _reader, reader_auth = await _signed_in(world)
    author, author_auth = await _signed_in(world)
    followed = await world.client.post(f"/api/v1/accounts/{author.id}/follow", headers=reader_auth)
    assert followed.json()["following"] is True
    relations = await world.client.get(
        "/api/v1/accounts/relationships", params={"id[]": [author.id]}, headers=reader_auth
    )
    assert relations.json()[0]["following"] is True
    ids = [(await _post(world.client, author_auth, f"post {n}"))["id"] for n in range(7)]
    newest_first = ids[::-1]

    first = await world.client.get(
        "/api/v1/timelines/home", params={"limit": 3}, headers=reader_auth
    )
    assert [s["id"] for s in first.json()] == newest_first[:3]
    links = _links(first)
    second = await world.client.get(
        links["next"].split("/", 3)[3].join(["/", ""]), headers=reader_auth
    )
    assert [s["id"] for s in second.json()] == newest_first[3:6]
    third = await world.client.get(
        "/" + _links(second)["next"].split("/", 3)[3], headers=reader_auth
    )
    assert [s["id"] for s in third.json()] == newest_first[6:]

    since = await world.client.get(
        "/api/v1/timelines/home", params={"since_id": ids[1], "limit": 2}, headers=reader_auth
    )
    assert [s["id"] for s in since.json()] == newest_first[:2]  # the newest above
    above = await world.client.get(
        "/api/v1/timelines/home", params={"min_id": ids[1], "limit": 2}, headers=reader_auth
    )
    assert [s["id"] for s in above.json()] == [ids[3], ids[2]]  # just above, newest first
    between = await world.client.get(
        "/api/v1/timelines/home",
        params={"max_id": ids[5], "since_id": ids[2]},
        headers=reader_auth,
    )
    assert [s["id"] for s in between.json()] == [ids[4], ids[3]]


async def test_a_reblog_is_an_entry_wrapping_its_original(world: World) -> None:
    _reader, reader_auth = await _signed_in(world)
    sharer, sharer_auth = await _signed_in(world)
    _author, author_auth = await _signed_in(world)
    await world.client.post(f"/api/v1/accounts/{sharer.id}/follow", headers=reader_auth)
    original = await _post(world.client, author_auth, "worth sharing")
    await world.client.post(f"/api/v1/statuses/{original['id']}/reblog", headers=sharer_auth)
    home = (await world.client.get("/api/v1/timelines/home", headers=reader_auth)).json()
    assert home[0]["account"]["id"] == sharer.id
    assert home[0]["reblog"]["id"] == original["id"]
    assert home[0]["id"] != original["id"]


async def test_accounts_are_found_and_shown(world: World) -> None:
    alice, auth = await _signed_in(world)
    found = await world.client.get(
        "/api/v1/accounts/lookup", params={"acct": alice.username}, headers=auth
    )
    assert found.json()["id"] == alice.id
    edited = await world.client.patch(
        "/api/v1/accounts/update_credentials",
        data={"display_name": "Alice A", "note": "hi & bye"},
        headers=auth,
    )
    assert edited.json()["display_name"] == "Alice A"
    assert edited.json()["note"] == "<p>hi &amp; bye</p>"
    assert edited.json()["source"]["note"] == "hi & bye"
    blocked = await world.user()
    await world.client.post(f"/api/v1/accounts/{blocked.id}/block", headers=auth)
    blocks = await world.client.get("/api/v1/blocks", headers=auth)
    assert [a["id"] for a in blocks.json()] == [blocked.id]


async def test_content_links_mentions_and_tags_from_the_facets(world: World) -> None:
    _, auth = await _signed_in(world)
    bob = await world.user()
    status = await _post(
        world.client, auth, f"hi @{bob.username} about #Café\n\nsee https://example.org."
    )
    content = status["content"]
    assert content.count("<p>") == 2
    assert f'class="u-url mention">@<span>{bob.username}</span></a>' in content
    assert 'class="mention hashtag" rel="tag">#<span>Café</span></a>' in content
    assert '<a href="https://example.org" rel="nofollow noopener noreferrer"' in content
    assert content.endswith("</a>.</p>")
    assert [m["id"] for m in status["mentions"]] == [bob.id]
    assert [t["name"] for t in status["tags"]] == ["café"]


async def test_a_tag_timeline_pages_like_the_home_timeline(world: World) -> None:
    _, auth = await _signed_in(world)
    ids = [(await _post(world.client, auth, f"note {n} #Feedloom"))["id"] for n in range(3)]
    await _post(world.client, auth, "untagged")
    first = await world.client.get(
        "/api/v1/timelines/tag/feedloom", params={"limit": 2}, headers=auth
    )
    assert [s["id"] for s in first.json()] == ids[::-1][:2]
    rest = await world.client.get(_path(_links(first)["next"]), headers=auth)
    assert [s["id"] for s in rest.json()] == [ids[0]]
    above = await world.client.get(
        "/api/v1/timelines/tag/FEEDLOOM", params={"min_id": ids[0]}, headers=auth
    )
    assert [s["id"] for s in above.json()] == ids[::-1][:2]
    nothing = await world.client.get("/api/v1/timelines/tag/%23%23", headers=auth)
    assert nothing.status_code == 404
