"""One rule for every object: what a reader may not see is not there for them.

Comments of accounts blocked either way or muted are hidden from the reader (list and
count); writes on a post the reader may not see answer 404, never 403; the images of a
followers-only post are served only at an unguessable URL handed to its readers."""

from __future__ import annotations

from typing import Any

import pytest

from tests.images import png
from tests.world import User, World


async def comment(world: World, user: User, post_id: str, text: str) -> Any:
    response = await world.client.post(
        f"/v1/posts/{post_id}/comments", json={"text": text}, headers=user.auth
    )
    assert response.status_code == 201, response.text
    return response.json()["id"]


async def comment_texts(world: World, reader: User, post_id: str) -> list[str]:
    response = await world.client.get(f"/v1/posts/{post_id}/comments", headers=reader.auth)
    assert response.status_code == 200, response.text
    return [c["text"] for c in response.json()["items"]]


async def comment_count(world: World, reader: User, post_id: str) -> int:
    response = await world.client.get(f"/v1/posts/{post_id}", headers=reader.auth)
    assert response.status_code == 200, response.text
    count: int = response.json()["comments"]
    return count


@pytest.mark.parametrize(
    ("actor", "verb"),
    [("reader", "block"), ("commenter", "block"), ("reader", "mute")],
    ids=["reader blocks", "commenter blocks reader", "reader mutes"],
)
async def test_comments_of_a_blocked_or_muted_account_are_hidden_from_the_reader(
    world: World, actor: str, verb: str
) -> None:
    author, reader, commenter, bystander = [await world.user() for _ in range(4)]
    await world.follow(reader, author)
    post_id = await world.post(author, "a post")
    await comment(world, commenter, post_id, "from the commenter")
    await comment(world, author, post_id, "from the author")
    users = {"reader": reader, "commenter": commenter}
    target = commenter if actor == "reader" else reader
    relation = await world.client.put(f"/v1/users/{target.id}/{verb}", headers=users[actor].auth)
    assert relation.status_code == 200
    await world.settle()

    assert await comment_texts(world, reader, post_id) == ["from the author"]
    assert await comment_count(world, reader, post_id) == 1
    # The author's comment is a reply to their own post (a thread): in the feed too.
    items = {item["post_id"]: item for item in (await world.feed(reader))["items"]}
    assert len(items) == 2 and items[post_id]["comments"] == 1
    # Everyone else still sees both.
    assert len(await comment_texts(world, bystander, post_id)) == 2
    assert await comment_count(world, bystander, post_id) == 2


async def test_a_page_of_comments_stays_full_when_many_are_hidden(world: World) -> None:
    author, reader, spammer = [await world.user() for _ in range(3)]
    post_id = await world.post(author, "a post")
    kept = [await comment(world, author, post_id, f"kept {n}") for n in range(3)]
    for n in range(6):
        await comment(world, spammer, post_id, f"spam {n}")
    await world.client.put(f"/v1/users/{spammer.id}/mute", headers=reader.auth)
    first = await world.client.get(
        f"/v1/posts/{post_id}/comments", params={"limit": 2}, headers=reader.auth
    )
    page = first.json()
    assert [c["id"] for c in page["items"]] == kept[:0:-1]
    rest = await world.client.get(
        f"/v1/posts/{post_id}/comments",
        params={"limit": 2, "cursor": page["next_cursor"]},
        headers=reader.auth,
    )
    assert [c["id"] for c in rest.json()["items"]] == kept[:1]
    assert rest.json()["next_cursor"] is None


async def test_a_blocked_reader_cannot_comment_like_or_read_the_post(world: World) -> None:
    author, reader = await world.user(), await world.user()
    post_id = await world.post(author, "a post")
    await world.client.put(f"/v1/users/{reader.id}/block", headers=author.auth)
    attempts = [
        world.client.post(
            f"/v1/posts/{post_id}/comments", json={"text": "hi"}, headers=reader.auth
        ),
        world.client.get(f"/v1/posts/{post_id}/comments", headers=reader.auth),
        world.client.put(f"/v1/posts/{post_id}/like", headers=reader.auth),
        world.client.delete(f"/v1/posts/{post_id}/like", headers=reader.auth),
        world.client.delete(f"/v1/posts/{post_id}", headers=reader.auth),
    ]
    for attempt in attempts:
        response = await attempt
        assert response.status_code == 404, response.text
        assert response.headers["content-type"] == "application/problem+json"
    assert await comment_texts(world, author, post_id) == []


async def test_deleting_a_post_you_may_not_see_answers_404_and_one_you_see_403(
    world: World,
) -> None:
    author, follower, stranger = [await world.user() for _ in range(3)]
    await world.follow(follower, author)
    private = await world.post(author, "followers only", visibility="followers")
    public = await world.post(author, "public")
    expected = [(private, stranger, 404), (private, follower, 403), (public, stranger, 403)]
    for post_id, user, status in expected:
        response = await world.client.delete(f"/v1/posts/{post_id}", headers=user.auth)
        assert response.status_code == status, (post_id, user.username)
    still = await world.client.get(f"/v1/posts/{private}", headers=follower.auth)
    assert still.status_code == 200


async def upload(world: World, owner: User) -> dict[str, Any]:
    ticket = await world.client.post(
        "/v1/media", json={"content_type": "image/png", "width": 4, "height": 4}, headers=owner.auth
    )
    assert ticket.status_code == 201
    body: dict[str, Any] = ticket.json()
    uploaded = await world.client.put(body["upload_url"], content=png(4, 4), headers=owner.auth)
    assert uploaded.status_code == 204
    return body


async def test_followers_only_media_is_served_only_at_the_url_its_readers_get(
    world: World,
) -> None:
    author, follower, stranger = [await world.user() for _ in range(3)]
    await world.follow(follower, author)
    media = await upload(world, author)
    post_id = await world.post(
        author, "for my followers", media_ids=[media["media_id"]], visibility="followers"
    )
    item = (await world.client.get(f"/v1/posts/{post_id}", headers=follower.auth)).json()
    url = item["media"][0]["url"]
    assert (await world.client.get(url)).status_code == 200
    # The stranger cannot get the post, and the ID (public, time-ordered) is no way in.
    assert (
        await world.client.get(f"/v1/posts/{post_id}", headers=stranger.auth)
    ).status_code == 404
    for guess in (f"/media/{media['media_id']}.png", f"/media/{post_id}.png"):
        assert (await world.client.get(guess)).status_code == 404
    token = url.rsplit("/", 1)[-1].split(".")[0].split("-", 1)[1]
    assert len(token) >= 22  # 128 random bits, base64url
    assert media["media_id"] not in token


async def test_each_upload_gets_its_own_unguessable_name(world: World) -> None:
    author = await world.user()
    first, second = await upload(world, author), await upload(world, author)
    assert first["url"] != second["url"]
    assert first["url"].split("-", 1)[1] != second["url"].split("-", 1)[1]
