"""The typed Python client (clients/python, package `feedloom_client`, generated from the
OpenAPI document by scripts/generate_client) against a real `feedloom serve`, on the
embedded default and on PostgreSQL + Redis: a person signs up, signs in, posts and reads
their feed; an app with a key (`feedloom apps create`) upserts a user by its external ID,
posts on their behalf and reads their feed server-side. And the committed client is the
one the generator makes of today's document, so a change to the API that is not
regenerated fails here."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest
from feedloom_client import AuthenticatedClient, Client
from feedloom_client.api.accounts import create_account, create_session
from feedloom_client.api.apps import app_create_post, app_get_feed, app_put_user
from feedloom_client.api.feed import get_feed
from feedloom_client.api.posts import create_post
from feedloom_client.models import (
    AccountCreated,
    AppUserIn,
    AppUserOut,
    FeedPageOut,
    NewAccount,
    NewPostType0,
    NewSession,
    PostCreated,
    Problem,
    SessionCreated,
)

from tests.integration.processes import BACKENDS, backend_env, fleet
from tests.world import PASSWORD

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "clients" / "python"
SCOPES = "users:write,posts:write,feeds:read"


@pytest.mark.parametrize("backend", BACKENDS)
# The generated sign-in passes its device cookie per request, which httpx deprecates.
@pytest.mark.filterwarnings("ignore:Setting per-request cookies:DeprecationWarning")
async def test_the_generated_client_signs_up_posts_and_reads_and_drives_the_app_endpoints(
    backend: str, tmp_path: Path
) -> None:
    async with backend_env(backend, tmp_path) as env:
        with fleet(env, tmp_path) as processes:
            server = processes.api("api", worker_id=1)
            await processes.wait_ready()
            assert server.url is not None
            await a_person(server.url)
            made = await asyncio.to_thread(create_app_key, processes.env)
            await an_app(server.url, made["api_key"])


async def a_person(url: str) -> None:
    async with Client(base_url=url) as anonymous:
        account = NewAccount(username="ada", password=PASSWORD, display_name="Ada")
        created = await create_account.asyncio(client=anonymous, body=account)
        assert isinstance(created, AccountCreated), created
        signing_in = NewSession(username="ada", password=PASSWORD)
        session = await create_session.asyncio(client=anonymous, body=signing_in)
        assert isinstance(session, SessionCreated), session
    async with AuthenticatedClient(base_url=url, token=session.token) as ada:
        posted = await create_post.asyncio(client=ada, body=NewPostType0(text="hello"))
        assert isinstance(posted, PostCreated), posted
        page = await get_feed.asyncio(client=ada, limit=5)
        assert isinstance(page, FeedPageOut), page
        assert [(i.post_id, i.text, i.author.id) for i in page.items] == [
            (posted.post_id, "hello", session.user_id)
        ]


async def an_app(url: str, api_key: str) -> None:
    async with AuthenticatedClient(base_url=url, token=api_key) as backend_app:
        grace = AppUserIn(username="grace", display_name="Grace H.")
        user = await app_put_user.asyncio("crm-42", client=backend_app, body=grace)
        assert isinstance(user, AppUserOut), user
        assert (user.external_id, user.result) == ("crm-42", "created")
        body = NewPostType0(text="on Grace's behalf")
        post = await app_create_post.asyncio(
            "crm-42", client=backend_app, body=body, idempotency_key="first"
        )
        assert isinstance(post, PostCreated), post
        again = await app_create_post.asyncio(
            "crm-42", client=backend_app, body=body, idempotency_key="first"
        )
        assert isinstance(again, PostCreated) and again.post_id == post.post_id
        feed = await app_get_feed.asyncio("crm-42", client=backend_app)
        assert isinstance(feed, FeedPageOut), feed
        assert [(i.post_id, i.author.id) for i in feed.items] == [(post.post_id, user.user_id)]
        # An error is the typed problem+json: an app's key is not a user's bearer token.
        refused = await get_feed.asyncio(client=backend_app)
        assert isinstance(refused, Problem) and refused.status == 401, refused


def create_app_key(env: Mapping[str, str]) -> dict[str, str]:
    """`feedloom apps create --json` beside the running server, as an operator does."""
    done = subprocess.run(
        [sys.executable, "-m", "feedloom", "apps", "create", "crm", "--scopes", SCOPES, "--json"],
        env=dict(env), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    made: dict[str, str] = json.loads(done.stdout)
    return made


def test_the_committed_client_is_what_the_generator_makes_of_todays_document(
    tmp_path: Path,
) -> None:
    fresh = tmp_path / "python"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "generate_client.py"), "--output", str(fresh)],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    committed, generated = files_of(CLIENT), files_of(fresh)
    differ = sorted(
        name
        for name in committed.keys() | generated.keys()
        if committed.get(name) != generated.get(name)
    )
    assert not differ, f"run scripts/generate_client and commit clients/python: {differ[:20]}"


def files_of(root: Path) -> dict[str, bytes]:
    """Every file the generator writes, by relative path (caches left out)."""
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not {"__pycache__", ".ruff_cache"} & set(path.parts)
    }
