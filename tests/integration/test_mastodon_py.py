"""Mastodon.py, a client we did not write, drives a scripted session against a server
this test starts (uvicorn, on every backend): register an app, authorize with PKCE
through the real sign-in form (submitted over HTTP like a browser), verify credentials,
post with an image and an Idempotency-Key, follow, read the home timeline across 3
pages by its Link headers, favourite, reblog, reply and read the context, list who
favourited and reblogged, follow a tag, set an avatar, get an `update` event on the
user stream (SSE), receive a notification (live on the stream, then read, marked read
and dismissed), edit a status, delete it and see it gone.

Mastodon.py 2.3 sends no `code_verifier` (it has no PKCE), so the code is exchanged with
one by a plain request; every other call is Mastodon.py's own."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import queue
import secrets
import time
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
import requests
from mastodon import Mastodon, MastodonNotFoundError, StreamListener

from feedloom.api.app import create_app
from feedloom.settings import Settings
from tests.images import png
from tests.integration.served import served

REDIRECT = "https://app.example/callback"
SCOPES = ["read", "write", "follow"]
PASSWORD = "correct horse battery"
EVENT_WAIT_S = 60.0  # generous: the machine is shared; the test waits for the event


class Updates(StreamListener):
    def __init__(self) -> None:
        self.statuses: queue.Queue[dict[str, Any]] = queue.Queue()
        self.notifications: queue.Queue[dict[str, Any]] = queue.Queue()

    def on_update(self, status: dict[str, Any]) -> None:
        self.statuses.put(status)

    def on_notification(self, notification: dict[str, Any]) -> None:
        self.notifications.put(notification)


def _sign_up(url: str, username: str) -> None:
    body = {"username": username, "password": PASSWORD, "display_name": username}
    assert httpx.post(f"{url}/v1/accounts", json=body).status_code == 201


def _signed_in_client(url: str, username: str) -> Mastodon:
    client_id, client_secret = Mastodon.create_app(
        "Mastodon.py session", scopes=SCOPES, redirect_uris=REDIRECT, api_base_url=url
    )
    app = Mastodon(client_id=client_id, client_secret=client_secret, api_base_url=url)
    verifier = secrets.token_urlsafe(48)
    digest = hashlib.sha256(verifier.encode()).digest()
    challenge = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
    address = app.auth_request_url(
        redirect_uris=REDIRECT, scopes=SCOPES, state="s-1", allow_http=True
    )
    address += f"&code_challenge={challenge}&code_challenge_method=S256"
    with requests.Session() as browser:
        page = browser.get(address)
        assert page.status_code == 200 and "<form" in page.text
        form = {k: v[0] for k, v in parse_qs(urlsplit(address).query).items()}
        form |= {"username": username, "password": PASSWORD, "decision": "approve"}
        answer = browser.post(f"{url}/oauth/authorize", data=form, allow_redirects=False)
    assert answer.status_code == 302, answer.text
    returned = parse_qs(urlsplit(answer.headers["location"]).query)
    assert returned["state"] == ["s-1"]
    token = requests.post(
        f"{url}/oauth/token",
        data={
            "grant_type": "authorization_code",
            "code": returned["code"][0],
            "client_id": client_id,
            "client_secret": client_secret,
            "redirect_uri": REDIRECT,
            "code_verifier": verifier,
        },
    ).json()["access_token"]
    return Mastodon(access_token=token, api_base_url=url)


def _session(url: str) -> None:
    for name in ("mpy_alice", "mpy_bob"):
        _sign_up(url, name)
    alice, bob = _signed_in_client(url, "mpy_alice"), _signed_in_client(url, "mpy_bob")
    me = alice.account_verify_credentials()
    assert me["acct"] == "mpy_alice"
    bob_id = bob.account_verify_credentials()["id"]

    image = alice.media_post(png(), mime_type="image/png", description="a red square")
    assert image["type"] == "image" and image["description"] == "a red square"
    first = alice.status_post("hello from Mastodon.py", media_ids=[image], idempotency_key="k-1")
    again = alice.status_post("hello from Mastodon.py", media_ids=[image], idempotency_key="k-1")
    assert again["id"] == first["id"]
    assert first["media_attachments"][0]["id"] == image["id"]

    assert alice.account_follow(bob_id)["following"] is True
    posted = [bob.status_post(f"bob's post {n}")["id"] for n in range(7)]
    page = alice.timeline_home(limit=3)
    seen = [status["id"] for status in page]
    for _ in range(2):
        following = alice.fetch_next(page)  # the Link header's rel="next"
        assert following is not None
        page = following
        seen += [status["id"] for status in page]
    assert seen == [*posted[::-1], first["id"]]  # newest first, then alice's own post

    liked = alice.status_favourite(posted[-1])
    assert liked["favourited"] is True
    assert alice.status_reblog(posted[-1])["reblogged"] is True
    reply = alice.status_post("a reply", in_reply_to_id=posted[-1])
    context = alice.status_context(reply["id"])
    assert [status["id"] for status in context["ancestors"]] == [posted[-1]]
    assert [account["id"] for account in bob.status_favourited_by(posted[-1])] == [me["id"]]
    assert [account["id"] for account in bob.status_reblogged_by(posted[-1])] == [me["id"]]
    assert alice.tag_follow("MastodonPy")["following"] is True
    assert [tag["name"] for tag in alice.followed_tags()] == ["mastodonpy"]
    avatar = alice.account_update_credentials(avatar=png(), avatar_mime_type="image/png")
    assert not avatar["avatar"].endswith("/icon.svg")

    listener = Updates()
    stream = alice.stream_user(listener, run_async=True, timeout=EVENT_WAIT_S)
    try:
        deadline = time.monotonic() + EVENT_WAIT_S
        while not stream.is_receiving() and time.monotonic() < deadline:
            time.sleep(0.05)  # connected: what is posted from now on is news
        news = bob.status_post("news for the stream")["id"]
        while True:  # an update for every new entry: wait for this one
            if listener.statuses.get(timeout=EVENT_WAIT_S)["id"] == news:
                break
        bob.status_favourite(first["id"])  # alice is told, live
        heard = listener.notifications.get(timeout=EVENT_WAIT_S)
        assert heard["type"] == "favourite" and heard["account"]["id"] == bob_id
    finally:
        stream.close()

    [favourite] = alice.notifications(types=["favourite"])
    assert favourite["id"] == heard["id"] and favourite["status"]["id"] == first["id"]
    marked = alice.markers_set(["notifications"], [favourite["id"]])
    assert marked["notifications"]["last_read_id"] == favourite["id"]
    assert alice.markers_get(["notifications"])["notifications"]["last_read_id"] == favourite["id"]
    alice.notifications_dismiss(favourite["id"])
    assert alice.notifications(types=["favourite"]) == []

    edited = alice.status_update(first["id"], status="hello again from Mastodon.py")
    assert edited["content"] == "<p>hello again from Mastodon.py</p>"
    assert len(alice.status_history(first["id"])) == 2
    deleted = alice.status_delete(first["id"])
    assert deleted["text"] == "hello again from Mastodon.py"
    with pytest.raises(MastodonNotFoundError):
        alice.status(first["id"])


async def test_a_mastodon_py_session_runs_end_to_end(app_settings: Settings) -> None:
    app = create_app(app_settings)
    async with served(app, app_settings) as url:
        await asyncio.to_thread(_session, url)
