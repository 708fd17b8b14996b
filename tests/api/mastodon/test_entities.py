"""Our entities against Mastodon's documented attribute lists (docs.joinmastodon.org,
"Entities": Account, Status, MediaAttachment, Relationship, Context, Tag, Application,
Instance v2, Notification, GroupedNotificationsResults and NotificationGroup, Marker):
every attribute the documentation lists as always present is here, with its documented
type (a nullable one may be null)."""

from __future__ import annotations

import re
from typing import Any

from tests.api.mastodon.oauth import bearer, token_for
from tests.images import png
from tests.world import World

DATETIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
ID = re.compile(r"^\d+$")

# name: type; "?" after a type: nullable. "id" is a string of digits, "datetime" ISO 8601.
ACCOUNT = {
    "id": "id", "username": "str", "acct": "str", "url": "str", "display_name": "str",
    "note": "str", "avatar": "str", "avatar_static": "str", "header": "str",
    "header_static": "str", "locked": "bool", "fields": "list", "emojis": "list",
    "bot": "bool", "group": "bool", "discoverable": "bool?", "created_at": "datetime",
    "last_status_at": "str?", "statuses_count": "int", "followers_count": "int",
    "following_count": "int",
}  # fmt: skip
STATUS = {
    "id": "id", "uri": "str", "created_at": "datetime", "account": "dict",
    "content": "str", "visibility": "str", "sensitive": "bool", "spoiler_text": "str",
    "media_attachments": "list", "application": "dict?", "mentions": "list",
    "tags": "list", "emojis": "list", "reblogs_count": "int", "favourites_count": "int",
    "replies_count": "int", "url": "str?", "in_reply_to_id": "id?",
    "in_reply_to_account_id": "id?", "reblog": "dict?", "poll": "dict?", "card": "dict?",
    "language": "str?", "edited_at": "str?", "favourited": "bool", "reblogged": "bool",
    "muted": "bool", "bookmarked": "bool", "pinned": "bool", "filtered": "list",
}  # fmt: skip
MEDIA = {
    "id": "id", "type": "str", "url": "str", "preview_url": "str?", "remote_url": "str?",
    "meta": "dict", "description": "str?", "blurhash": "str?",
}  # fmt: skip
RELATIONSHIP = {
    "id": "id", "following": "bool", "showing_reblogs": "bool", "notifying": "bool",
    "followed_by": "bool", "blocking": "bool", "blocked_by": "bool", "muting": "bool",
    "muting_notifications": "bool", "requested": "bool", "requested_by": "bool",
    "domain_blocking": "bool", "endorsed": "bool", "note": "str",
}  # fmt: skip
APPLICATION = {
    "id": "id", "name": "str", "website": "str?", "scopes": "list",
    "redirect_uris": "list", "client_id": "str", "client_secret": "str",
}  # fmt: skip
INSTANCE = {
    "domain": "str", "title": "str", "version": "str", "source_url": "str",
    "description": "str", "usage": "dict", "thumbnail": "dict", "languages": "list",
    "configuration": "dict", "registrations": "dict", "contact": "dict", "rules": "list",
}  # fmt: skip
NOTIFICATION = {
    "id": "id", "type": "str", "group_key": "str", "created_at": "datetime",
    "account": "dict",
}  # fmt: skip
GROUPED = {"accounts": "list", "statuses": "list", "notification_groups": "list"}
NOTIFICATION_GROUP = {
    "group_key": "str", "notifications_count": "int", "type": "str",
    "most_recent_notification_id": "id", "page_min_id": "id", "page_max_id": "id",
    "latest_page_notification_at": "datetime", "sample_account_ids": "list",
    "status_id": "id",
}  # fmt: skip
MARKER = {"last_read_id": "id", "version": "int", "updated_at": "datetime"}
TAG = {"name": "str", "url": "str", "history": "list", "following": "bool"}
TAG_HISTORY = {"day": "digits", "uses": "digits", "accounts": "digits"}  # strings, in Tag
TYPES: dict[str, Any] = {"str": str, "bool": bool, "int": int, "list": list, "dict": dict}


def conforms(entity: dict[str, Any], spec: dict[str, str]) -> None:
    for name, kind in spec.items():
        assert name in entity, f"missing {name}"
        value, base = entity[name], kind.rstrip("?")
        if value is None:
            assert kind.endswith("?"), f"{name} is null"
        elif base == "id":
            assert isinstance(value, str) and ID.match(value), f"{name}={value!r}"
        elif base == "digits":
            assert isinstance(value, str) and value.isdigit(), f"{name}={value!r}"
        elif base == "datetime":
            assert isinstance(value, str) and DATETIME.match(value), f"{name}={value!r}"
        elif base == "int":
            assert isinstance(value, int) and not isinstance(value, bool), f"{name}={value!r}"
        else:
            assert isinstance(value, TYPES[base]), f"{name}={value!r}"


async def test_every_entity_has_mastodons_documented_attributes(world: World) -> None:
    alice, bob = await world.user(), await world.user()
    auth = bearer(await token_for(world.client, alice))
    app = await world.client.post(
        "/api/v1/apps", data={"client_name": "c", "redirect_uris": "urn:ietf:wg:oauth:2.0:oob"}
    )
    conforms(app.json(), APPLICATION)
    conforms((await world.client.get("/api/v2/instance")).json(), INSTANCE)
    me = await world.client.get("/api/v1/accounts/verify_credentials", headers=auth)
    conforms(me.json(), ACCOUNT)
    media = await world.client.post(
        "/api/v2/media", files={"file": ("a.png", png(), "image/png")}, headers=auth
    )
    conforms(media.json(), MEDIA)
    relation = await world.client.post(f"/api/v1/accounts/{bob.id}/follow", headers=auth)
    conforms(relation.json(), RELATIONSHIP)
    status = await world.client.post(
        "/api/v1/statuses",
        data={"status": f"hi @{bob.username} #tag", "media_ids[]": media.json()["id"]},
        headers=auth,
    )
    conforms(status.json(), STATUS)
    conforms(status.json()["account"], ACCOUNT)
    conforms(status.json()["media_attachments"][0], MEDIA)
    assert set(status.json()["mentions"][0]) >= {"id", "username", "url", "acct"}
    assert set(status.json()["tags"][0]) >= {"name", "url"}
    conforms((await world.client.get("/api/v1/tags/tag", headers=auth)).json(), TAG)
    [trend] = (await world.client.get("/api/v1/trends/tags", headers=auth)).json()
    conforms(trend, TAG)
    conforms(trend["history"][0], TAG_HISTORY)
    carol_auth = bearer(await token_for(world.client, await world.user()))
    shared = await world.client.post(
        "/api/v1/statuses", data={"status": "to share"}, headers=carol_auth
    )
    bob_auth = bearer(await token_for(world.client, bob))
    await world.client.post(f"/api/v1/statuses/{shared.json()['id']}/reblog", headers=bob_auth)
    home = (await world.client.get("/api/v1/timelines/home", headers=auth)).json()
    wrapper = next(entry for entry in home if entry["reblog"] is not None)
    conforms(wrapper, STATUS)
    conforms(wrapper["reblog"], STATUS)
    context = await world.client.get(
        f"/api/v1/statuses/{status.json()['id']}/context", headers=auth
    )
    assert set(context.json()) == {"ancestors", "descendants"}


async def test_notifications_and_markers_have_mastodons_documented_attributes(
    world: World,
) -> None:
    alice, bob = await world.user(), await world.user()
    auth = bearer(await token_for(world.client, alice))
    bob_auth = bearer(await token_for(world.client, bob))
    status = await world.client.post("/api/v1/statuses", data={"status": "hi"}, headers=auth)
    await world.client.post(f"/api/v1/statuses/{status.json()['id']}/favourite", headers=bob_auth)
    await world.settle()
    [favourite] = (await world.client.get("/api/v1/notifications", headers=auth)).json()
    conforms(favourite, NOTIFICATION)
    conforms(favourite["account"], ACCOUNT)
    conforms(favourite["status"], STATUS)
    grouped = (await world.client.get("/api/v2/notifications", headers=auth)).json()
    conforms(grouped, GROUPED)
    conforms(grouped["notification_groups"][0], NOTIFICATION_GROUP)
    conforms(grouped["accounts"][0], ACCOUNT)
    conforms(grouped["statuses"][0], STATUS)
    markers = await world.client.post(
        "/api/v1/markers", data={"notifications[last_read_id]": favourite["id"]}, headers=auth
    )
    conforms(markers.json()["notifications"], MARKER)
