"""The OpenAPI document is honest: a working bearer scheme, problem+json errors that
each operation really returns, this deployment's limits, and Swagger UI served offline."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any
from unittest import mock

import httpx
from sqlalchemy.ext.asyncio import AsyncEngine

from feedloom.api.openapi import APPS, MODERATOR_ONLY
from feedloom.api.problems import PROBLEM_JSON
from feedloom.domain.cursors import SessionCursor, encode_cursor
from feedloom.domain.model import Role
from feedloom.lookups.reader_state import FOLLOWED_TAGS
from feedloom.ports import RateRule
from tests.apps import AppUnderTest, make_app
from tests.images import png
from tests.stub_http import Reply, StubRequest, stub_server
from tests.world import User, World

Operation = tuple[str, str]  # (method, path template)
NOWHERE = "12345"  # a well-formed ID that names nothing


async def openapi(world: World) -> dict[str, Any]:
    response = await world.client.get("/openapi.json")
    assert response.status_code == 200
    schema: dict[str, Any] = response.json()
    return schema


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
    ]


async def test_the_document_declares_a_bearer_scheme_that_authenticated_operations_use(
    world: World,
) -> None:
    schema = await openapi(world)
    assert schema["components"]["securitySchemes"]["bearer"] == {
        "type": "http",
        "scheme": "bearer",
        "description": "the `token` of POST /v1/sessions",
    }
    secured = {(m, p) for m, p, op in operations(schema) if op.get("security")}
    assert ("get", "/v1/feed") in secured and ("post", "/v1/posts") in secured
    assert ("post", "/v1/sessions") not in secured


async def test_the_readme_walkthrough_works_with_the_token_the_way_authorize_sends_it(
    world: World,
) -> None:
    await world.user("walker")
    session = await world.client.post(
        "/v1/sessions", json={"username": "walker", "password": "correct horse battery"}
    )
    token = session.json()["token"]
    feed = await world.client.get("/v1/feed", headers={"Authorization": f"Bearer {token}"})
    assert feed.status_code == 200


async def test_every_error_response_is_problem_json_with_its_real_shape(world: World) -> None:
    schema = await openapi(world)
    problem = schema["components"]["schemas"]["Problem"]
    assert set(problem["required"]) == {"type", "title", "status", "detail"}
    assert "HTTPValidationError" not in schema["components"]["schemas"]
    for method, path, operation in operations(schema):
        for code, response in operation["responses"].items():
            if code.startswith(("4", "5")):
                assert list(response["content"]) == [PROBLEM_JSON], (method, path, code)
                ref = response["content"][PROBLEM_JSON]["schema"]["$ref"]
                assert ref == "#/components/schemas/Problem"
    alice = await world.user()
    missing = await world.client.get(f"/v1/posts/{NOWHERE}", headers=alice.auth)
    assert set(problem["required"]) <= set(missing.json())


async def test_limits_in_the_schema_are_the_ones_enforced(world: World) -> None:
    settings = world.feedloom.settings
    schemas = (await openapi(world))["components"]["schemas"]
    assert schemas["NewPost"]["properties"]["text"]["maxLength"] == settings.post_max_chars == 500
    assert schemas["NewPost"]["properties"]["media_ids"]["maxItems"] == settings.media_per_post
    assert settings.media_per_post == 4
    comment = schemas["NewComment"]["properties"]["text"]["maxLength"]
    assert comment == settings.comment_max_chars
    alice = await world.user()
    body = {"text": "x" * (settings.post_max_chars + 1)}
    assert (await world.client.post("/v1/posts", json=body, headers=alice.auth)).status_code == 422


async def test_every_operation_has_a_description_and_an_example(world: World) -> None:
    for method, path, operation in operations(await openapi(world)):
        assert operation.get("description"), (method, path)
        success = {c: r for c, r in operation["responses"].items() if c.startswith("2")}
        for code, response in success.items():
            if code == "204":
                continue
            examples = [c.get("example") for c in response.get("content", {}).values()]
            assert any(e is not None for e in examples), (method, path, code)


async def test_swagger_ui_is_served_by_the_app_with_no_third_party_asset(world: World) -> None:
    page = await world.client.get("/docs")
    assert page.status_code == 200
    urls = re.findall(r"""(?:src|href|url)\s*[:=]\s*['"]([^'"]+)['"]""", page.text)
    assert urls and all(url.startswith("/") for url in urls), urls
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css"):
        assert asset in page.text
        served = await world.client.get(f"/docs/assets/{asset}")
        assert served.status_code == 200 and len(served.content) > 10_000


# -- every documented status is one the operation really returns --------------------


class Provoker:
    """Sends the request that makes one operation answer one status."""

    def __init__(
        self,
        world: World,
        me: User,
        post_id: str,
        app: AppUnderTest,
        owned: dict[str, str] | None = None,
    ) -> None:
        self.world, self.me, self.post_id, self.app = world, me, post_id, app
        self.owned = owned or {}  # list_id, feed_id, generator_id of objects `me` made

    def url(self, path: str, ids: str | None = None) -> str:
        real = {
            "user_id": self.me.id,
            "post_id": self.post_id,
            "media_id": NOWHERE,
            "session_id": "0" * 16,
            "username": self.me.username,
            "comment_id": NOWHERE,
            **self.owned,
            "external_id": "me-ext",
            "webhook_id": NOWHERE,
            "followee": "them-ext",
            "tag": "openapi",
        }
        return re.sub(r"\{(\w+)\}", lambda m: ids or real[m.group(1)], path)

    def url_too_long(self, path: str, operation: dict[str, Any]) -> str:
        """The path with its first length-bounded parameter one character too long."""
        bounded = next(p for p in operation["parameters"] if "maxLength" in p.get("schema", {}))
        too_long = "x" * (bounded["schema"]["maxLength"] + 1)
        return self.url(path.replace(f"{{{bounded['name']}}}", too_long))

    async def send(self, method: str, url: str, auth: bool = True, **kwargs: Any) -> httpx.Response:
        headers = self.auth(url) if auth else {}
        return await self.world.client.request(method, url, headers=headers, **kwargs)

    def auth(self, url: str) -> dict[str, str]:
        """An app's key on the app endpoints, the user's session everywhere else."""
        return self.app.auth if url.startswith(APPS) else self.me.auth

    async def generic(
        self, method: str, path: str, operation: dict[str, Any], code: int
    ) -> httpx.Response:
        body = VALID_BODIES.get((method, path))
        query = {
            p["name"]: "1"
            for p in operation.get("parameters", [])
            if p["in"] == "query" and p.get("required")
        } | VALID_QUERIES.get((method, path), {})
        if code == 401:
            return await self.send(method, self.url(path), auth=False, json=body, params=query)
        if code == 404:
            return await self.send(method, self.url(path, NOWHERE), json=body, params=query)
        if path.startswith(APPS) and code in (403, 429):
            return await self.app_refused(method, path, code, body, query)
        if code == 400 and "requestBody" in operation:
            headers = {**self.auth(path), "Content-Type": "application/json"}
            return await self.world.client.request(
                method, self.url(path), content=b"{not json", headers=headers
            )
        if code == 400:
            return await self.send(method, self.url(path), params=query | {"cursor": "zzz"})
        if code == 422 and "requestBody" in operation:
            return await self.send(method, self.url(path), json={"unexpected": True})
        if code == 422 and not any(p["in"] == "query" for p in operation["parameters"]):
            return await self.send(method, self.url_too_long(path, operation), params=query)
        if code == 422:
            invalid = query | _invalid_query(operation)
            return await self.send(method, self.url(path), params=invalid)
        if code == 413:
            huge = {"text": "x" * 70_000}  # past the 64 KiB every body is held to
            return await self.send(method, self.url(path), json=huge, params=query)
        if code == 503:
            # A reader whose relations and feed nothing has cached yet, so the request
            # needs the database, which refuses every connection meanwhile.
            fresh = await self.world.user()
            headers = self.app.auth if path.startswith(APPS) else fresh.auth
            with database_refusing():
                return await self.world.client.request(
                    method, self.url(path), headers=headers, json=body, params=query
                )
        raise AssertionError(f"no way to provoke {code} on {method} {path}")

    async def app_refused(
        self, method: str, path: str, code: int, body: Any, query: dict[str, str]
    ) -> httpx.Response:
        """403: a key without the operation's scope; 429: past the app's rate limit."""
        if code == 403:
            scope = "users:write" if "/webhooks" in path else "webhooks:manage"
            other = await make_app(self.world, scope)
            return await self.world.client.request(
                method, self.url(path), headers=other.auth, json=body, params=query
            )
        throttle = self.world.feedloom.services.throttle
        kept = throttle.rules["apps"]
        throttle.rules["apps"] = RateRule("apps", 1, 3600)
        try:
            busy = await make_app(self.world)
            for _ in range(2):
                response = await self.world.client.request(
                    method, self.url(path), headers=busy.auth, json=body, params=query
                )
            return response
        finally:
            throttle.rules["apps"] = kept


class _Refused:
    async def __aenter__(self) -> None:
        raise ConnectionRefusedError(111, "Connect call failed (the test refuses it)")

    async def __aexit__(self, *_exc: object) -> None:
        return None


@contextlib.contextmanager
def database_refusing() -> Iterator[None]:
    """Every engine refuses to connect, as a stopped database server does."""
    with (
        mock.patch.object(AsyncEngine, "connect", lambda _self: _Refused()),
        mock.patch.object(AsyncEngine, "begin", lambda _self: _Refused()),
    ):
        yield


def _invalid_query(operation: dict[str, Any]) -> dict[str, str]:
    for parameter in operation["parameters"]:
        if parameter["in"] != "query":
            continue
        options = [parameter["schema"], *parameter["schema"].get("anyOf", [])]
        for option in options:
            if option.get("type") in ("integer", "boolean") or "$ref" in option:
                return {parameter["name"]: "not-a-value"}
            if "maxLength" in option:
                return {parameter["name"]: "x" * (option["maxLength"] + 1)}
    raise AssertionError(f"no invalid query for {operation['operationId']}")


VALID_BODIES: dict[Operation, Any] = {
    ("post", "/v1/posts/{post_id}/comments"): {"text": "x"},
    ("post", "/v1/posts/{post_id}/reports"): {"reason": "x"},
    ("post", "/v1/accounts"): {"username": "not_yet_taken", "password": "long enough!"},
    ("post", "/v1/sessions"): {"username": "not_yet_taken", "password": "long enough!"},
    ("patch", "/v1/me"): {"bio": "x"},
    ("post", "/v1/posts"): {"text": "x"},
    ("patch", "/v1/posts/{post_id}"): {"text": "edited"},
    ("put", "/v1/me/settings"): {"feed_order": "ranked"},
    ("post", "/v1/media"): {"content_type": "image/png", "width": 1, "height": 1},
    ("post", "/v1/lists"): {"title": "x"},
    ("patch", "/v1/lists/{list_id}"): {"title": "x"},
    ("post", "/v1/feeds"): {"name": "x", "sources": ["home"]},
    ("put", "/v1/me/feeds"): {"feeds": []},
    ("put", "/v1/me/muted_words"): {"words": []},
    ("post", "/v1/generators"): {"uri": "http://127.0.0.1:9/x", "name": "x"},
    ("post", "/v1/generators/{generator_id}/feedback"): {"post_id": "1", "kind": "seen"},
    ("put", "/v1/apps/users/{external_id}"): {"username": "upserted_here"},
    ("post", "/v1/apps/webhooks"): {"url": "http://127.0.0.1:9/x", "events": ["post.created"]},
    ("post", "/v1/apps/users:batch"): [{"external_id": "b-1", "username": "batched_here"}],
    ("post", "/v1/apps/follows:batch"): [{"follower": "me-ext", "followee": "them-ext"}],
    ("post", "/v1/apps/users/{external_id}/posts"): {"text": "x"},
    ("post", "/v1/apps/users/{external_id}/posts/{post_id}/comments"): {"text": "x"},
}
VALID_QUERIES: dict[Operation, dict[str, str]] = {
    ("put", "/v1/media/{media_id}/content"): {"expires": "1", "signature": "x"},
}

Special = Callable[[Provoker], Awaitable[httpx.Response]]


async def _taken_username(p: Provoker) -> httpx.Response:
    body = {"username": p.me.username.upper(), "password": "long enough!"}
    return await p.send("post", "/v1/accounts", auth=False, json=body)


async def _wrong_password(p: Provoker) -> httpx.Response:
    body = {"username": p.me.username, "password": "not the password"}
    return await p.send("post", "/v1/sessions", auth=False, json=body)


async def _someone_elses_post(p: Provoker) -> httpx.Response:
    other = await p.world.user()
    return await p.send("delete", f"/v1/posts/{await p.world.post(other)}")


async def _reply_to_nothing(p: Provoker) -> httpx.Response:
    return await p.send("post", "/v1/posts", json={"text": "x", "in_reply_to": NOWHERE})


def _key_reused(path: str, method: str = "post") -> Special:
    async def provoke(p: Provoker) -> httpx.Response:
        url, headers = p.url(path), {**p.me.auth, "Idempotency-Key": "once"}
        await p.world.client.request(method, url, json={"text": "first"}, headers=headers)
        return await p.world.client.request(method, url, json={"text": "another"}, headers=headers)

    return provoke


async def _someone_elses_avatar(p: Provoker) -> httpx.Response:
    return await p.send("patch", "/v1/me", json={"avatar_media_id": NOWHERE})


async def _someone_elses_comment(p: Provoker) -> httpx.Response:
    other = await p.world.user()
    url = f"/v1/posts/{p.post_id}/comments"
    comment = await p.world.client.post(url, json={"text": "mine"}, headers=other.auth)
    return await p.send("delete", f"{url}/{comment.json()['id']}")


async def _bad_signature(p: Provoker) -> httpx.Response:
    ticket = await p.send(
        "post", "/v1/media", json={"content_type": "image/png", "width": 1, "height": 1}
    )
    url = ticket.json()["upload_url"].replace("signature=", "signature=0")
    return await p.send("put", url, content=b"x")


async def _used_upload_url(p: Provoker) -> httpx.Response:
    ticket = await p.send(
        "post", "/v1/media", json={"content_type": "image/png", "width": 1, "height": 1}
    )
    await p.send("put", ticket.json()["upload_url"], content=png(2, 2))
    return await p.send("put", ticket.json()["upload_url"], content=png(2, 2))


async def _upload_in_an_outage(p: Provoker) -> httpx.Response:
    ticket = await p.send(
        "post", "/v1/media", json={"content_type": "image/png", "width": 1, "height": 1}
    )
    with database_refusing():
        return await p.send("put", ticket.json()["upload_url"], content=png(2, 2))


async def _huge_upload(p: Provoker) -> httpx.Response:
    size = p.world.feedloom.settings.media_max_bytes + 1
    return await p.send("put", p.url("/v1/media/{media_id}/content"), content=b"x" * size)


async def _unknown_media(p: Provoker) -> httpx.Response:
    url = "/v1/media/not-an-id/content?expires=1&signature=x"
    return await p.send("put", url, content=b"x")


async def _expired_session(p: Provoker) -> httpx.Response:
    forged = encode_cursor(SessionCursor(session="not-a-session", offset=2))
    return await p.send("get", "/v1/feed", params={"cursor": forged})


def _throttled(rule: str, address: bool, body: dict[str, Any] | None = None) -> Special:
    """The rule's window is already full for this client (its address or its account)
    when a request that would otherwise succeed is sent."""

    async def provoke(p: Provoker) -> httpx.Response:
        method, path = THROTTLED[rule]
        url = p.url(path)
        if rule == "follows":
            url = f"/v1/users/{(await p.world.user()).id}/follow"
        rules = p.world.feedloom.services.throttle.rules
        lifted = rules[rule]
        rules[rule] = one = RateRule(rule, 1, 60)
        key = "127.0.0.1" if address else p.me.id  # httpx's ASGI transport's client
        await p.world.feedloom.caches.rate_limiter.hit(one, key)
        try:
            return await p.send(method, url, json=body)
        finally:
            rules[rule] = lifted

    return provoke


def _password_not_confirmed(method: str, path: str, body: dict[str, str]) -> Special:
    async def provoke(p: Provoker) -> httpx.Response:
        return await p.send(method, path, json=body)

    return provoke


def _password_guessed_too_often(method: str, path: str, body: dict[str, str]) -> Special:
    async def provoke(p: Provoker) -> httpx.Response:
        rules = p.world.feedloom.services.throttle.rules
        lifted = rules["sign_in_per_account"]
        rules["sign_in_per_account"] = one = RateRule("sign_in_per_account", 1, 60)
        await p.world.feedloom.caches.rate_limiter.hit(one, f"#{p.me.id}")
        try:
            return await p.send(method, path, json=body)
        finally:
            rules["sign_in_per_account"] = lifted

    return provoke


CHANGE = {"current_password": "not the password", "new_password": "a long new password"}
THROTTLED: dict[str, Operation] = {
    "sign_up_per_address": ("post", "/v1/accounts"),
    "sign_in_per_address": ("post", "/v1/sessions"),
    "posts": ("post", "/v1/posts"),
    "comments": ("post", "/v1/posts/{post_id}/comments"),
    "likes": ("put", "/v1/posts/{post_id}/like"),
    "follows": ("put", "/v1/users/{user_id}/follow"),
    "media": ("post", "/v1/media"),
}


def _posts_limit(method: str, path: str, body: dict[str, str] | None = None) -> Special:
    """Reposts and edits count against the posts limit."""

    async def provoke(p: Provoker) -> httpx.Response:
        rules = p.world.feedloom.services.throttle.rules
        lifted = rules["posts"]
        rules["posts"] = one = RateRule("posts", 1, 60)
        await p.world.feedloom.caches.rate_limiter.hit(one, p.me.id)
        try:
            return await p.send(method, p.url(path), json=body)
        finally:
            rules["posts"] = lifted

    return provoke


async def _repost_followers_only(p: Provoker) -> httpx.Response:
    private = await p.world.post(p.me, "mine only", visibility="followers")
    return await p.send("put", f"/v1/posts/{private}/repost")


async def _quote_followers_only(p: Provoker) -> httpx.Response:
    private = await p.world.post(p.me, "mine only", visibility="followers")
    return await p.send("post", "/v1/posts", json={"text": "q", "quote_of": private})


async def _not_ready(p: Provoker) -> httpx.Response:
    outbox = p.world.feedloom.stores.outbox

    async def down() -> int:
        raise ConnectionError("the database is gone")

    outbox.pending = down  # type: ignore[method-assign]
    try:
        return await p.send("get", "/readyz", auth=False)
    finally:
        del outbox.pending


def _yourself(method: str, relation: str) -> Special:
    async def provoke(p: Provoker) -> httpx.Response:
        return await p.send(method, f"/v1/users/{p.me.id}/{relation}")

    return provoke


async def _too_many_tags(p: Provoker) -> httpx.Response:
    tags, now = p.world.feedloom.stores.tags, datetime.now(UTC)
    for n in range(FOLLOWED_TAGS):
        await tags.follow(int(p.me.id), f"followed_{n}", now)
    return await p.send("put", "/v1/tags/one_too_many/follow")


async def _tag_follows_too_often(p: Provoker) -> httpx.Response:
    rules = p.world.feedloom.services.throttle.rules
    lifted = rules["follows"]
    rules["follows"] = one = RateRule("follows", 1, 60)
    other = await p.world.user()  # `me` follows as many tags as it may (409 above)
    await p.world.feedloom.caches.rate_limiter.hit(one, other.id)
    try:
        return await p.world.client.put("/v1/tags/throttled/follow", headers=other.auth)
    finally:
        rules["follows"] = lifted


async def _too_many_streams(p: Provoker) -> httpx.Response:
    stream = p.world.feedloom.services.home_stream
    stream.config = replace(stream.config, per_user=0)
    return await p.send("get", "/v1/streams/home")


def _app_key_reused(path: str) -> Special:
    async def provoke(p: Provoker) -> httpx.Response:
        url, headers = p.url(path), {**p.app.auth, "Idempotency-Key": "once"}
        await p.world.client.post(url, json={"text": "first"}, headers=headers)
        return await p.world.client.post(url, json={"text": "second"}, headers=headers)

    return provoke


async def _username_taken_by_another(p: Provoker) -> httpx.Response:
    return await p.app.put_user("someone-new", p.me.username)


def _batch_too_big(what: str, row: dict[str, str]) -> Special:
    async def provoke(p: Provoker) -> httpx.Response:
        limit = p.world.feedloom.settings.apps.batch_max_rows
        return await p.app.call("post", f"/v1/apps/{what}:batch", json=[row] * (limit + 1))

    return provoke


def _not_a_moderator(method: str, path: str) -> Special:
    async def provoke(p: Provoker) -> httpx.Response:
        other = await p.world.user()
        return await p.world.client.request(method, p.url(path), headers=other.auth)

    return provoke


def _keyed_twice(path: str, first: dict[str, Any], second: dict[str, Any]) -> Special:
    async def provoke(p: Provoker) -> httpx.Response:
        headers = {**p.me.auth, "Idempotency-Key": f"twice-{path}"}
        await p.world.client.post(path, json=first, headers=headers)
        return await p.world.client.post(path, json=second, headers=headers)

    return provoke


async def _uri_taken(p: Provoker) -> httpx.Response:
    body = {"uri": "http://127.0.0.1:9/taken", "name": "x"}
    await p.send("post", "/v1/generators", json=body)
    return await p.send("post", "/v1/generators", json=body)


async def _not_all_my_feeds(p: Provoker) -> httpx.Response:
    return await p.send("put", "/v1/me/feeds", json={"feeds": [{"id": NOWHERE}]})


async def _list_full(p: Provoker) -> httpx.Response:
    url = f"/v1/lists/{p.owned['list_id']}/members"
    while True:
        friend = await p.world.user()
        await p.world.follow(p.me, friend)
        response = await p.send("put", f"{url}/{friend.id}")
        if response.status_code != 200:
            return response


def _generator_failing(path: str, slow: bool, method: str = "get", body: Any = None) -> Special:
    """A generator that answers non-JSON (502) or too late (504), read through `path`."""

    async def provoke(p: Provoker) -> httpx.Response:
        async def handler(request: StubRequest) -> Reply:
            if slow:
                await asyncio.sleep(3)
            return 500 if method == "post" else 200, {"content-type": "text/html"}, b"<html>"

        async with stub_server(handler) as stub:
            registered = await p.send(
                "post", "/v1/generators", json={"uri": stub.url(), "name": "x", "feedback": True}
            )
            generator = registered.json()
            feed = await p.send(
                "post",
                "/v1/feeds",
                json={"name": "g", "sources": [f"generator:{generator['uri']}"]},
            )
            ids = {"generator_id": generator["id"], "feed_id": feed.json()["id"]}
            url = re.sub(r"\{(\w+)\}", lambda m: ids[m.group(1)], path)
            return await p.send(method, url, json=body)

    return provoke


FEEDBACK = {"post_id": "1", "kind": "seen"}
SPECIAL: dict[tuple[str, str, int], Special] = {
    ("post", "/v1/lists", 409): _keyed_twice("/v1/lists", {"title": "a"}, {"title": "b"}),
    ("post", "/v1/feeds", 409): _keyed_twice(
        "/v1/feeds", {"name": "a", "sources": ["home"]}, {"name": "b", "sources": ["home"]}
    ),
    ("post", "/v1/generators", 409): _uri_taken,
    ("put", "/v1/me/feeds", 409): _not_all_my_feeds,
    ("post", "/v1/feeds", 404): lambda p: p.send(
        "post", "/v1/feeds", json={"name": "x", "sources": [f"author:{NOWHERE}"]}
    ),
    ("put", "/v1/lists/{list_id}/members/{user_id}", 409): _list_full,
    **{
        ("get", path, code): _generator_failing(path, code == 504)
        for path in ("/v1/feeds/{feed_id}/items", "/v1/generators/{generator_id}/items")
        for code in (502, 504)
    },
    **{
        ("post", "/v1/generators/{generator_id}/feedback", code): _generator_failing(
            "/v1/generators/{generator_id}/feedback", code == 504, "post", FEEDBACK
        )
        for code in (502, 504)
    },
    **{(method, path, 403): _not_a_moderator(method, path) for method, path in MODERATOR_ONLY},
    ("get", "/v1/streams/home", 429): _too_many_streams,
    **{
        (method, f"/v1/users/{{user_id}}/{relation}", 422): _yourself(method, relation)
        for method in ("put", "delete")
        for relation in ("follow", "block", "mute")
    },
    ("get", "/readyz", 503): _not_ready,
    ("post", "/v1/accounts", 409): _taken_username,
    ("post", "/v1/sessions", 401): _wrong_password,
    ("delete", "/v1/posts/{post_id}", 403): _someone_elses_post,
    ("post", "/v1/posts", 404): _reply_to_nothing,
    ("post", "/v1/posts", 409): _key_reused("/v1/posts"),
    ("post", "/v1/posts/{post_id}/comments", 409): _key_reused("/v1/posts/{post_id}/comments"),
    ("patch", "/v1/posts/{post_id}", 409): _key_reused("/v1/posts/{post_id}", "patch"),
    ("patch", "/v1/posts/{post_id}", 429): _posts_limit(
        "patch", "/v1/posts/{post_id}", {"text": "too often"}
    ),
    ("patch", "/v1/me", 404): _someone_elses_avatar,
    ("delete", "/v1/posts/{post_id}/comments/{comment_id}", 403): _someone_elses_comment,
    ("put", "/v1/media/{media_id}/content", 403): _bad_signature,
    ("put", "/v1/media/{media_id}/content", 404): _unknown_media,
    ("put", "/v1/media/{media_id}/content", 409): _used_upload_url,
    ("put", "/v1/media/{media_id}/content", 413): _huge_upload,
    ("put", "/v1/media/{media_id}/content", 503): _upload_in_an_outage,
    ("get", "/v1/feed", 410): _expired_session,
    ("post", "/v1/accounts", 429): _throttled(
        "sign_up_per_address", True, {"username": "newcomer", "password": "long enough"}
    ),
    ("post", "/v1/sessions", 429): _throttled(
        "sign_in_per_address", True, {"username": "nobody", "password": "long enough"}
    ),
    ("post", "/v1/posts", 429): _throttled("posts", False, {"text": "one"}),
    ("post", "/v1/posts/{post_id}/comments", 429): _throttled("comments", False, {"text": "x"}),
    ("put", "/v1/posts/{post_id}/like", 429): _throttled("likes", False),
    ("delete", "/v1/posts/{post_id}/like", 429): _throttled("likes", False),
    ("put", "/v1/posts/{post_id}/repost", 429): _posts_limit("put", "/v1/posts/{post_id}/repost"),
    ("put", "/v1/posts/{post_id}/repost", 403): _repost_followers_only,
    ("post", "/v1/posts", 403): _quote_followers_only,
    ("put", "/v1/users/{user_id}/follow", 429): _throttled("follows", False),
    ("put", "/v1/tags/{tag}/follow", 409): _too_many_tags,
    ("put", "/v1/tags/{tag}/follow", 429): _tag_follows_too_often,
    ("put", "/v1/me/password", 403): _password_not_confirmed("put", "/v1/me/password", CHANGE),
    ("put", "/v1/me/password", 429): _password_guessed_too_often("put", "/v1/me/password", CHANGE),
    ("delete", "/v1/me", 403): _password_not_confirmed("delete", "/v1/me", {"password": "not it"}),
    ("delete", "/v1/me", 429): _password_guessed_too_often(
        "delete", "/v1/me", {"password": "not it"}
    ),
    ("put", "/v1/apps/users/{external_id}", 409): _username_taken_by_another,
    ("post", "/v1/apps/users/{external_id}/posts", 409): _app_key_reused(
        "/v1/apps/users/{external_id}/posts"
    ),
    ("post", "/v1/apps/users/{external_id}/posts/{post_id}/comments", 409): _app_key_reused(
        "/v1/apps/users/{external_id}/posts/{post_id}/comments"
    ),
    ("post", "/v1/apps/users:batch", 413): _batch_too_big(
        "users", {"external_id": "x", "username": "many_of_them"}
    ),
    ("post", "/v1/apps/follows:batch", 413): _batch_too_big(
        "follows", {"follower": "me-ext", "followee": "them-ext"}
    ),
    ("post", "/v1/media", 429): _throttled(
        "media", False, {"content_type": "image/png", "width": 1, "height": 1}
    ),
}


async def test_every_documented_error_status_is_one_the_operation_really_returns(
    world: World,
) -> None:
    me = await world.user()
    # A moderator, so that the moderation API answers its other errors too.
    await world.feedloom.services.account_lifecycle.set_role(me.username, Role.MODERATOR)
    made = await world.client.post("/v1/lists", json={"title": "x"}, headers=me.auth)
    feed = await world.client.post(
        "/v1/feeds", json={"name": "x", "sources": ["home"]}, headers=me.auth
    )
    generator = await world.client.post(
        "/v1/generators", json={"uri": "http://127.0.0.1:9/g", "name": "g"}, headers=me.auth
    )
    owned = {
        "list_id": made.json()["id"],
        "feed_id": feed.json()["id"],
        "generator_id": generator.json()["id"],
    }
    app = await make_app(world)
    await app.put_user("me-ext", "app_me")
    await app.put_user("them-ext", "app_them")
    provoker = Provoker(world, me, await world.post(me), app, owned)
    seen: list[tuple[str, str, int]] = []
    for method, path, operation in operations(await openapi(world)):
        for code in sorted(int(c) for c in operation["responses"] if c[0] in "45"):
            special = SPECIAL.get((method, path, code))
            if special is not None:
                response = await special(provoker)
            else:
                response = await provoker.generic(method, path, operation, code)
            assert response.status_code == code, (method, path, code, response.text)
            assert response.headers["content-type"] == PROBLEM_JSON
            seen.append((method, path, code))
    assert len(seen) > 40
