"""Posts: create (idempotent), read, delete; likes and comments."""

from __future__ import annotations

from feedloom.domain.model import Counts
from tests.world import World


async def test_a_post_is_created_with_location_and_string_ids(world: World) -> None:
    alice = await world.user()
    response = await world.client.post("/v1/posts", json={"text": "hi"}, headers=alice.auth)
    assert response.status_code == 201
    body = response.json()
    assert isinstance(body["post_id"], str) and body["post_id"].isdigit()
    assert response.headers["location"] == f"/v1/posts/{body['post_id']}"
    fetched = await world.client.get(response.headers["location"], headers=alice.auth)
    assert fetched.json()["text"] == "hi"
    assert fetched.json()["author"]["id"] == alice.id


async def test_a_retry_with_the_same_idempotency_key_returns_the_same_post(world: World) -> None:
    alice = await world.user()
    headers = {**alice.auth, "Idempotency-Key": "retry-1"}
    first = await world.client.post("/v1/posts", json={"text": "once"}, headers=headers)
    second = await world.client.post("/v1/posts", json={"text": "once"}, headers=headers)
    assert first.status_code == second.status_code == 201
    assert first.json() == second.json()
    assert second.headers["idempotent-replayed"] == "true"
    assert await world.feed_ids(alice) == [first.json()["post_id"]]


async def test_the_same_key_with_a_different_body_is_refused(world: World) -> None:
    alice = await world.user()
    headers = {**alice.auth, "Idempotency-Key": "retry-2"}
    await world.client.post("/v1/posts", json={"text": "one"}, headers=headers)
    other = await world.client.post("/v1/posts", json={"text": "two"}, headers=headers)
    assert other.status_code == 409
    assert other.json()["type"].endswith("/idempotency-key-reused")
    assert len(await world.feed_ids(alice)) == 1


async def test_idempotency_keys_are_per_author(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    for user in (alice, bob):
        headers = {**user.auth, "Idempotency-Key": "same"}
        response = await world.client.post("/v1/posts", json={"text": "x"}, headers=headers)
        assert response.status_code == 201
        assert response.headers.get("idempotent-replayed") is None


async def test_post_input_is_validated(world: World) -> None:
    alice = await world.user()
    too_long = "x" * (world.feedloom.settings.post_max_chars + 1)
    cases = [
        {"text": ""},
        {"text": too_long},
        {"text": "x", "visibility": "secret"},
        {"text": "x", "media_ids": ["not-an-id"]},
    ]
    for body in cases:
        response = await world.client.post("/v1/posts", json=body, headers=alice.auth)
        assert response.status_code == 422, (body, response.text)
    # A well-formed ID of media that is not yours (or not there) names nothing.
    unknown = {"text": "x", "media_ids": ["12345"]}
    response = await world.client.post("/v1/posts", json=unknown, headers=alice.auth)
    assert response.status_code == 404, response.text
    assert await world.feed_ids(alice) == []


async def test_only_the_author_can_delete_and_deleting_twice_is_fine(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    post_id = await world.post(alice)
    assert (await world.client.delete(f"/v1/posts/{post_id}", headers=bob.auth)).status_code == 403
    assert (
        await world.client.delete(f"/v1/posts/{post_id}", headers=alice.auth)
    ).status_code == 204
    assert (
        await world.client.delete(f"/v1/posts/{post_id}", headers=alice.auth)
    ).status_code == 204
    assert (await world.client.get(f"/v1/posts/{post_id}", headers=alice.auth)).status_code == 404


async def test_liking_twice_is_one_like_and_counts_follow(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    post_id = await world.post(alice)
    for _ in range(2):
        response = await world.client.put(f"/v1/posts/{post_id}/like", headers=bob.auth)
        assert response.status_code == 200
    await world.settle()
    seen_by_bob = (await world.client.get(f"/v1/posts/{post_id}", headers=bob.auth)).json()
    assert seen_by_bob["likes"] == 1
    assert seen_by_bob["liked_by_me"] is True
    seen_by_alice = (await world.client.get(f"/v1/posts/{post_id}", headers=alice.auth)).json()
    assert seen_by_alice["liked_by_me"] is False
    for _ in range(2):
        await world.client.delete(f"/v1/posts/{post_id}/like", headers=bob.auth)
    await world.settle()
    assert (await world.client.get(f"/v1/posts/{post_id}", headers=bob.auth)).json()["likes"] == 0


async def test_a_like_right_before_a_read_is_not_counted_twice(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    post_id = await world.post(alice)
    await world.client.put(f"/v1/posts/{post_id}/like", headers=bob.auth)
    before_flush = (await world.client.get(f"/v1/posts/{post_id}", headers=bob.auth)).json()
    await world.settle()
    after_flush = (await world.client.get(f"/v1/posts/{post_id}", headers=bob.auth)).json()
    assert before_flush["likes"] == after_flush["likes"] == 1


async def test_comments_are_counted_paged_and_retry_safe(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    post_id = await world.post(alice)
    url = f"/v1/posts/{post_id}/comments"
    for n in range(3):
        response = await world.client.post(url, json={"text": f"c{n}"}, headers=bob.auth)
        assert response.status_code == 201
    keyed = {**bob.auth, "Idempotency-Key": "comment-1"}
    first = await world.client.post(url, json={"text": "keyed"}, headers=keyed)
    again = await world.client.post(url, json={"text": "keyed"}, headers=keyed)
    assert first.json()["id"] == again.json()["id"]
    page1 = (await world.client.get(url, params={"limit": 2}, headers=alice.auth)).json()
    page2 = (
        await world.client.get(
            url, params={"limit": 2, "cursor": page1["next_cursor"]}, headers=alice.auth
        )
    ).json()
    texts = [c["text"] for c in page1["items"] + page2["items"]]
    assert texts == ["keyed", "c2", "c1", "c0"]
    assert page2["next_cursor"] is None
    await world.settle()
    assert (await world.client.get(f"/v1/posts/{post_id}", headers=alice.auth)).json()[
        "comments"
    ] == 4


async def test_the_author_deletes_a_comment_once_and_the_count_follows(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    post_id = await world.post(alice)
    url = f"/v1/posts/{post_id}/comments"
    created = await world.client.post(url, json={"text": "oops"}, headers=bob.auth)
    comment_url = f"{url}/{created.json()['id']}"
    assert (await world.client.delete(comment_url, headers=alice.auth)).status_code == 403
    assert (await world.client.delete(comment_url, headers=bob.auth)).status_code == 204
    assert (await world.client.delete(comment_url, headers=bob.auth)).status_code == 204
    assert (await world.client.get(url, headers=alice.auth)).json()["items"] == []
    await world.settle()
    post = (await world.client.get(f"/v1/posts/{post_id}", headers=alice.auth)).json()
    assert post["comments"] == 0
    missing = await world.client.delete(f"{url}/not-an-id", headers=bob.auth)
    assert missing.status_code == 404


async def test_liking_a_post_you_cannot_see_is_not_found(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    private = await world.post(alice, visibility="followers")
    response = await world.client.put(f"/v1/posts/{private}/like", headers=bob.auth)
    assert response.status_code == 404
    assert (await world.client.get(f"/v1/posts/{private}", headers=bob.auth)).status_code == 404


async def test_drifted_counts_are_repaired_from_the_truth(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    post_id = await world.post(alice)
    await world.client.put(f"/v1/posts/{post_id}/like", headers=bob.auth)
    await world.settle()
    assert (await world.client.get(f"/v1/posts/{post_id}", headers=bob.auth)).json()["likes"] == 1
    await world.feedloom.caches.counters.set_many(
        {int(post_id): Counts(likes=7, comments=2)}
    )  # drift
    assert await world.feedloom.services.reconcile.engaged() == 1
    repaired = (await world.client.get(f"/v1/posts/{post_id}", headers=bob.auth)).json()
    assert (repaired["likes"], repaired["comments"]) == (1, 0)
    assert await world.feedloom.services.reconcile.engaged() == 0
