"""Who favourited and reblogged a status, and an avatar sent with update_credentials,
on the Mastodon-compatible API: People's likers and reposters lists and EditProfile
with the media pipeline, the use cases of /v1, on every backend."""

from __future__ import annotations

import io
import re

import httpx
from PIL import Image

from tests.api.mastodon.oauth import bearer, token_for
from tests.images import jpeg_with_location
from tests.world import User, World


async def _signed_in(world: World) -> tuple[User, dict[str, str]]:
    user = await world.user()
    return user, bearer(await token_for(world.client, user))


async def _pages(client: httpx.AsyncClient, path: str, auth: dict[str, str]) -> list[list[str]]:
    """The account IDs of each page, following `rel="next"` to the end."""
    pages: list[list[str]] = []
    url: str | None = path
    while url is not None:
        response = await client.get(url, headers=auth)
        assert response.status_code == 200, response.text
        pages.append([account["id"] for account in response.json()])
        found = re.search(r'<([^>]+)>; rel="next"', response.headers.get("link", ""))
        url = "/" + found.group(1).split("/", 3)[3] if found else None
    return pages


async def test_favourited_by_and_reblogged_by_list_accounts_newest_first(world: World) -> None:
    _, auth = await _signed_in(world)
    fans = [await _signed_in(world) for _ in range(3)]
    status = await world.client.post("/api/v1/statuses", data={"status": "hi"}, headers=auth)
    status_id = status.json()["id"]
    for _, fan_auth in fans:
        for action in ("favourite", "reblog"):
            done = await world.client.post(
                f"/api/v1/statuses/{status_id}/{action}", headers=fan_auth
            )
            assert done.status_code == 200, done.text
    newest_first = [fan.id for fan, _ in reversed(fans)]
    for path in ("favourited_by", "reblogged_by"):
        pages = await _pages(world.client, f"/api/v1/statuses/{status_id}/{path}?limit=2", auth)
        assert pages == [newest_first[:2], newest_first[2:]], path
    # An unfavourite and an unreblog leave the lists; a blocked account is not shown.
    await world.client.post(f"/api/v1/statuses/{status_id}/unfavourite", headers=fans[0][1])
    await world.client.post(f"/api/v1/statuses/{status_id}/unreblog", headers=fans[1][1])
    await world.client.post(f"/api/v1/accounts/{fans[2][0].id}/block", headers=auth)
    liked = await _pages(world.client, f"/api/v1/statuses/{status_id}/favourited_by", auth)
    reblogged = await _pages(world.client, f"/api/v1/statuses/{status_id}/reblogged_by", auth)
    assert liked == [[fans[1][0].id]] and reblogged == [[fans[0][0].id]]
    bad = await world.client.get(
        f"/api/v1/statuses/{status_id}/reblogged_by?max_id=nope", headers=auth
    )
    assert bad.status_code == 400 and set(bad.json()) == {"error"}


async def test_the_lists_of_a_status_one_may_not_see_are_not_found(world: World) -> None:
    _, auth = await _signed_in(world)
    _, stranger_auth = await _signed_in(world)
    private = await world.client.post(
        "/api/v1/statuses", data={"status": "ours", "visibility": "private"}, headers=auth
    )
    for path in ("favourited_by", "reblogged_by"):
        hidden = await world.client.get(
            f"/api/v1/statuses/{private.json()['id']}/{path}", headers=stranger_auth
        )
        assert hidden.status_code == 404, path
        mine = await world.client.get(
            f"/api/v1/statuses/{private.json()['id']}/{path}", headers=auth
        )
        assert mine.status_code == 200 and mine.json() == []


async def test_an_avatar_is_uploaded_checked_and_stripped_and_a_header_refused(
    world: World,
) -> None:
    alice, auth = await _signed_in(world)
    files = {"avatar": ("me.jpg", jpeg_with_location(), "image/jpeg")}
    updated = await world.client.patch(
        "/api/v1/accounts/update_credentials",
        files=files,
        data={"display_name": "Alice A."},
        headers=auth,
    )
    assert updated.status_code == 200, updated.text
    account = updated.json()
    assert account["display_name"] == "Alice A." and account["id"] == alice.id
    assert not account["avatar"].endswith("/icon.svg")
    stored = await world.client.get(account["avatar"].removeprefix("http://test"))
    assert stored.status_code == 200
    with Image.open(io.BytesIO(stored.content)) as image:
        assert not image.getexif()  # the /api/v2/media pipeline: no camera, no position
    profile = await world.client.get(f"/v1/users/{alice.id}", headers=alice.auth)
    assert profile.json()["avatar"] is not None
    kept = await world.client.patch(
        "/api/v1/accounts/update_credentials", data={"note": "hello"}, headers=auth
    )
    assert kept.json()["avatar"] == account["avatar"]  # not sent: unchanged
    not_image = await world.client.patch(
        "/api/v1/accounts/update_credentials",
        files={"avatar": ("me.txt", b"not an image", "text/plain")},
        headers=auth,
    )
    assert not_image.status_code == 422 and set(not_image.json()) == {"error"}
    header = await world.client.patch(
        "/api/v1/accounts/update_credentials",
        files={"header": ("h.jpg", jpeg_with_location(), "image/jpeg")},
        headers=auth,
    )
    assert header.status_code == 422 and "header" in header.json()["error"]
