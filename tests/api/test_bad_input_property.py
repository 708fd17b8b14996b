"""Property: bad input is a 4xx problem, never a 500, on every backend. IDs and cursors
past 2^63-1 (what a 64-bit column holds), NUL characters in any text (PostgreSQL text
cannot hold one) and over-long Idempotency-Keys each get the same answer everywhere."""

from __future__ import annotations

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from feedloom.domain.cursors import KeysetCursor, encode_cursor
from feedloom.domain.idempotency import MAX_IDEMPOTENCY_KEY
from tests.world import PASSWORD, World

PROBLEM_JSON = "application/problem+json"
# One world per test, shared by its examples: every request is independent of the rest.
examples = settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
too_big = st.integers(min_value=2**63, max_value=10**40)
with_nul = st.tuples(st.text(max_size=20), st.text(max_size=20)).map(lambda t: f"{t[0]}\x00{t[1]}")


def refused(response: httpx.Response, *statuses: int) -> None:
    assert response.status_code in statuses, (response.request.url, response.text)
    assert response.headers["content-type"] == PROBLEM_JSON


@examples
@given(number=too_big)
async def test_ids_past_64_bits_name_nothing(world: World, number: int) -> None:
    me = await world.user()
    client, auth = world.client, me.auth
    for path in (
        f"/v1/posts/{number}",
        f"/v1/posts/{number}/comments",
        f"/v1/posts/{number}/context",
        f"/v1/users/{number}",
        f"/v1/users/{number}/posts",
        f"/v1/users/{number}/followers",
    ):
        refused(await client.get(path, headers=auth), 404)
    refused(await client.put(f"/v1/posts/{number}/like", headers=auth), 404)
    refused(await client.put(f"/v1/posts/{number}/repost", headers=auth), 404)
    refused(await client.delete(f"/v1/posts/{number}/repost", headers=auth), 404)
    refused(await client.put(f"/v1/users/{number}/follow", headers=auth), 404)
    body = {"text": "hi", "media_ids": [str(number)]}
    refused(await client.post("/v1/posts", json=body, headers=auth), 422)
    reply = {"text": "hi", "in_reply_to": str(number)}
    refused(await client.post("/v1/posts", json=reply, headers=auth), 422)
    quote = {"text": "hi", "quote_of": str(number)}
    refused(await client.post("/v1/posts", json=quote, headers=auth), 422)
    edit = {"avatar_media_id": str(number)}
    refused(await client.patch("/v1/me", json=edit, headers=auth), 422)
    refused(await client.get("/v1/feed/new", params={"since": str(number)}, headers=auth), 422)


@examples
@given(number=too_big)
async def test_cursors_past_64_bits_are_malformed(world: World, number: int) -> None:
    me = await world.user()
    post = await world.post(me)
    cursor = {"cursor": encode_cursor(KeysetCursor(before=number))}
    for path in (
        "/v1/feed",
        f"/v1/users/{me.id}/posts",
        f"/v1/posts/{post}/comments",
        f"/v1/posts/{post}/context",
    ):
        refused(await world.client.get(path, params=cursor, headers=me.auth), 400)


@examples
@given(text=with_nul)
async def test_a_nul_in_any_text_is_a_422(world: World, text: str) -> None:
    me = await world.user()
    post = await world.post(me)
    client, auth = world.client, me.auth
    for path, body in (
        ("/v1/posts", {"text": text}),
        ("/v1/posts", {"text": "hi", "in_reply_to": text}),
        ("/v1/posts", {"text": "hi", "quote_of": text}),
        (f"/v1/posts/{post}/comments", {"text": text}),
        ("/v1/accounts", {"username": "nul_user", "password": PASSWORD, "display_name": text}),
        ("/v1/accounts", {"username": "nul_user", "password": f"{PASSWORD}{text}"}),
        ("/v1/accounts", {"username": text, "password": PASSWORD}),
        ("/v1/sessions", {"username": text, "password": PASSWORD}),
        ("/v1/sessions", {"username": me.username, "password": text}),
        ("/v1/media", {"content_type": "image/png", "width": 1, "height": 1, "alt": text}),
    ):
        refused(await client.post(path, json=body, headers=auth), 422)
    for edit in ({"display_name": text or "\x00"}, {"bio": text}):
        refused(await client.patch("/v1/me", json=edit, headers=auth), 422)
    for path, params in (
        ("/v1/users/search", {"q": text}),
        ("/v1/users/lookup", {"username": text}),
    ):
        refused(await client.get(path, params=params, headers=auth), 422)


@examples
@given(extra=st.integers(min_value=1, max_value=2_000), char=st.sampled_from("a-Z_9~ "))
async def test_every_idempotency_key_has_one_limit(world: World, extra: int, char: str) -> None:
    me = await world.user()
    post = await world.post(me)
    too_long = {"Idempotency-Key": "k" + char * (MAX_IDEMPOTENCY_KEY - 1 + extra), **me.auth}
    for path in ("/v1/posts", f"/v1/posts/{post}/comments"):
        refused(await world.client.post(path, json={"text": "hi"}, headers=too_long), 422)
    # One key names one request, posts and comments alike: each gets its own longest key.
    for path, last in (("/v1/posts", "p"), (f"/v1/posts/{post}/comments", "c")):
        longest = {"Idempotency-Key": "k" + char * (MAX_IDEMPOTENCY_KEY - 2) + last, **me.auth}
        accepted = await world.client.post(path, json={"text": "hi"}, headers=longest)
        assert accepted.status_code == 201, accepted.text


@examples
@given(parent=st.text(max_size=25))
async def test_a_reply_to_anything_but_a_post_one_may_see_writes_nothing(
    world: World, parent: str
) -> None:
    me = await world.user()
    response = await world.client.post(
        "/v1/posts", json={"text": "hi", "in_reply_to": parent}, headers=me.auth
    )
    refused(response, 404, 422)
    await world.settle()
    assert await world.feed_ids(me) == []


@examples
@given(quoted=st.text(max_size=25), reposts=st.sampled_from([None, "no", 0, [], {}]))
async def test_a_quote_of_anything_but_a_post_one_may_see_and_a_bad_follow_body_write_nothing(
    world: World, quoted: str, reposts: object
) -> None:
    me, other = await world.user(), await world.user()
    response = await world.client.post(
        "/v1/posts", json={"text": "hi", "quote_of": quoted}, headers=me.auth
    )
    refused(response, 404, 422)
    follow = await world.client.put(
        f"/v1/users/{other.id}/follow", json={"reposts": reposts, "x": 1}, headers=me.auth
    )
    refused(follow, 422)
    await world.settle()
    assert await world.feed_ids(me) == []
    assert (await world.client.get(f"/v1/users/{other.id}", headers=me.auth)).json()[
        "followers"
    ] == 0
