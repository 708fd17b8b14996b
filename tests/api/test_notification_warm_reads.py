"""A warm notifications page touches no durable store and reads Redis in at most two
round trips: the recipient's record, the post and profile views and the relations all
come from the caches (docs/NOTIFICATIONS.md, "The cached record")."""

from __future__ import annotations

from tests.api.test_warm_reads import redis_round_trips, statements
from tests.world import World


async def test_a_warm_notifications_page_issues_no_statement_and_two_round_trips_at_most(
    world: World, backend_name: str
) -> None:
    """20 groups (likes, a repost, a follow), their posts and accounts all from the
    caches: the recipient's record, the post and profile views, the relations."""
    author, fans = await world.user(), [await world.user() for _ in range(3)]
    posts = [await world.post(author, f"post {n}") for n in range(18)]
    for post_id in posts:
        for fan in fans:
            response = await world.client.put(f"/v1/posts/{post_id}/like", headers=fan.auth)
            assert response.status_code == 200, response.text
    reposted = await world.client.put(f"/v1/posts/{posts[0]}/repost", headers=fans[0].auth)
    assert reposted.status_code == 200, reposted.text
    await world.follow(fans[1], author)
    await world.settle()
    notifications = world.feedloom.services.notifications
    scope = world.feedloom.request_scope  # as the API opens it around each request
    for _ in range(2):  # fills the caches, then the near cache
        with scope():
            await notifications.page(int(author.id), 20, None)
    with statements() as seen, redis_round_trips() as sent, scope():
        page = await notifications.page(int(author.id), 20, None)
    assert len(page.items) == 20
    assert sorted({item.group.type.value for item in page.items}) == ["follow", "like", "repost"]
    assert seen == []
    assert len(sent) <= (2 if backend_name == "production" else 0), sent
