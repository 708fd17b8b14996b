"""Mastodon's entities (Account, Status, MediaAttachment, Relationship, Context, Tag,
Application, Notification, NotificationGroup, Marker) rendered from our domain objects:
IDs as strings, `acct` without a domain (every account is local), `url` and `uri` at
our own pages, `created_at` ISO 8601 with milliseconds, `content` HTML made from the
text (api/mastodon/content.py).

A repost is Mastodon's reblog: an entry under the repost's ID and its reposter, with the
original as `reblog`. Attributes we have nothing for are present with Mastodon's empty
value (`emojis: []`, `poll: null`…), as its documentation lists them
(tests/api/mastodon/test_entities.py holds the lists).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from feedloom.api.mastodon.content import account_url, html_of, tag_url
from feedloom.domain.ids import created_at_of
from feedloom.domain.model import FeedItem, Media, Post, PostVersion, UserProfile, Visibility
from feedloom.domain.notifications import NotificationType
from feedloom.domain.people import RelationFlags
from feedloom.ports.markers import Marker
from feedloom.ports.oauth import OAuthApp
from feedloom.read.notifications import NotificationItem

Json = dict[str, Any]
VISIBILITY = {Visibility.PUBLIC: "public", Visibility.FOLLOWERS: "private"}
DEFAULT_AVATAR = "/icon.svg"  # the web client's icon: Mastodon clients want some image


def timestamp(moment: datetime) -> str:
    """ISO 8601 in UTC with milliseconds, as Mastodon writes it."""
    utc = moment.astimezone(UTC)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def account(profile: UserProfile, base: str, statuses: int = 0) -> Json:
    avatar = absolute(base, profile.avatar or DEFAULT_AVATAR)
    url = account_url(base, profile.username)
    return {
        "id": str(profile.id),
        "username": profile.username,
        "acct": profile.username,
        "display_name": profile.display_name,
        "locked": False,
        "bot": False,
        "discoverable": True,
        "indexable": True,
        "group": False,
        "created_at": timestamp(created_at_of(profile.id)),
        "note": html_of(profile.bio) if profile.bio else "",
        "url": url,
        "uri": url,
        "avatar": avatar,
        "avatar_static": avatar,
        "header": "",
        "header_static": "",
        "followers_count": profile.followers,
        "following_count": profile.following,
        "statuses_count": statuses,
        "last_status_at": None,
        "hide_collections": False,
        "noindex": False,
        "emojis": [],
        "roles": [],
        "fields": [],
    }


def credential_account(profile: UserProfile, base: str) -> Json:
    """verify_credentials: the Account plus `source` (the raw profile text)."""
    rendered = account(profile, base)
    rendered["source"] = {
        "privacy": "public",
        "sensitive": False,
        "language": None,
        "note": profile.bio,
        "fields": [],
        "follow_requests_count": 0,
        "hide_collections": False,
        "discoverable": True,
        "indexable": True,
        "attribution_domains": [],
    }
    return rendered


def status(item: FeedItem, base: str) -> Json:
    """A feed item as a Status: a repost's entry wraps its original as `reblog`."""
    original = _status(item.post, item.author, item, base)
    reposter = item.reposted_by
    if item.repost_id is None or reposter is None:
        return original
    moment = created_at_of(item.repost_id)
    return {
        **_empty(item.repost_id, reposter, moment, base),
        "reblog": original,
        "visibility": original["visibility"],
        "reblogged": item.reposted_by_me,
        "favourited": item.liked_by_me,
    }


def deleted_status(item: FeedItem, base: str) -> Json:
    """What DELETE answers: the status with its source `text`, to redraft from."""
    rendered = status(item, base)
    rendered["text"] = item.post.text
    return rendered


def _status(post: Post, author: UserProfile, item: FeedItem, base: str) -> Json:
    rendered = _empty(post.id, author, post.created_at, base)
    rendered.update(
        {
            "visibility": VISIBILITY.get(post.visibility, "private"),
            "content": html_of(post.text, post.facets, base),
            "mentions": [
                {"id": str(uid), "username": name, "acct": name, "url": account_url(base, name)}
                for uid, name in post.mentions
            ],
            "tags": [{"name": name, "url": tag_url(base, name)} for name in post.tags],
            "media_attachments": [attachment(media, base) for media in post.shown_media],
            "in_reply_to_id": _str(post.in_reply_to),
            "in_reply_to_account_id": _str(post.reply_to_author),
            "reblogs_count": post.reposts,
            "favourites_count": item.counts.likes,
            "replies_count": item.counts.comments,
            "quotes_count": post.quotes,
            "favourited": item.liked_by_me,
            "reblogged": item.reposted_by_me,
            "edited_at": timestamp(post.edited_at) if post.edited_at is not None else None,
        }
    )
    return rendered


def status_edit(version: PostVersion, author: Json, base: str) -> Json:
    """One version of a status (StatusEdit: GET /api/v1/statuses/{id}/history)."""
    return {
        "content": html_of(version.text),
        "spoiler_text": "",
        "sensitive": False,
        "created_at": timestamp(version.written_at),
        "account": author,
        "poll": None,
        "media_attachments": [attachment(media, base) for media in version.media],
        "emojis": [],
    }


def _empty(entry_id: int, author: UserProfile, moment: datetime, base: str) -> Json:
    url = f"{base}/p/{entry_id}"
    return {
        "id": str(entry_id),
        "uri": url,
        "url": url,
        "created_at": timestamp(moment),
        "account": account(author, base),
        "content": "",
        "visibility": "public",
        "sensitive": False,
        "spoiler_text": "",
        "media_attachments": [],
        "application": None,
        "mentions": [],
        "tags": [],
        "emojis": [],
        "reblogs_count": 0,
        "favourites_count": 0,
        "replies_count": 0,
        "quotes_count": 0,
        "in_reply_to_id": None,
        "in_reply_to_account_id": None,
        "reblog": None,
        "poll": None,
        "card": None,
        "language": None,
        "edited_at": None,
        "favourited": False,
        "reblogged": False,
        "muted": False,
        "bookmarked": False,
        "pinned": False,
        "filtered": [],
    }


def attachment(media: Media, base: str) -> Json:
    url = absolute(base, media.url)
    smallest = min(media.sizes, key=lambda size: size.width, default=None)
    preview = absolute(base, smallest.url) if smallest is not None else url
    original = _meta(media.width, media.height)
    return {
        "id": str(media.id),
        "type": "image",
        "url": url,
        "preview_url": preview,
        "remote_url": None,
        "preview_remote_url": None,
        "text_url": None,
        "meta": {
            "original": original,
            "small": _meta(smallest.width, smallest.height) if smallest else original,
        },
        "description": media.alt or None,
        "blurhash": None,
    }


def _meta(width: int, height: int) -> Json:
    aspect = width / height if height else 1.0
    return {"width": width, "height": height, "size": f"{width}x{height}", "aspect": aspect}


def tag(name: str, base: str, following: bool, history: list[Json] | None = None) -> Json:
    """A Tag. `history` is Mastodon's daily uses: we keep no daily counts, so it is empty
    but for trending tags (api/mastodon/tags.py says what their one day holds)."""
    return {
        "name": name,
        "url": tag_url(base, name),
        "history": history or [],
        "following": following,
    }


def relationship(user_id: int, flags: RelationFlags) -> Json:
    return {
        "id": str(user_id),
        "following": flags.following,
        "showing_reblogs": flags.following,
        "notifying": False,
        "languages": None,
        "followed_by": flags.followed_by,
        "blocking": flags.blocking,
        "blocked_by": flags.blocked_by,
        "muting": flags.muting,
        "muting_notifications": flags.muting,
        "requested": False,
        "requested_by": False,
        "domain_blocking": False,
        "endorsed": False,
        "note": "",
    }


def application(app: OAuthApp, scopes: frozenset[str] | None = None) -> Json:
    return {
        "id": str(app.id),
        "name": app.name,
        "website": app.website,
        "scopes": sorted(scopes) if scopes is not None else list(app.scopes),
        "redirect_uri": "\n".join(app.redirect_uris),
        "redirect_uris": list(app.redirect_uris),
        "vapid_key": "",
    }


# Our notification types as Mastodon's (4.5 for `quote`); a moderation outcome has no
# Mastodon type (`moderation_warning` is a warning to the account, with an action), so
# it is not on this surface (docs/MASTODON_API.md).
NOTIFICATION_TYPES = {
    NotificationType.LIKE: "favourite",
    NotificationType.REPOST: "reblog",
    NotificationType.REPLY: "mention",
    NotificationType.MENTION: "mention",
    NotificationType.QUOTE: "quote",
    NotificationType.FOLLOW: "follow",
}


def notification(item: NotificationItem, base: str) -> Json | None:
    """One of our groups as a v1 Notification: its ID, time and most recent account
    (v1 is ungrouped; the group's key says which it was). None: no account left to show."""
    group, kind = item.group, NOTIFICATION_TYPES.get(item.group.type)
    if kind is None or not item.accounts:
        return None
    rendered: Json = {
        "id": str(group.id),
        "type": kind,
        "group_key": group.group_key,
        "created_at": timestamp(group.updated_at),
        "account": account(item.accounts[0], base),
    }
    if item.post is not None:
        rendered["status"] = status(item.post, base)
    return rendered


def notification_group(item: NotificationItem) -> Json | None:
    """One of our groups as a v2 NotificationGroup. A group holds no per-activity IDs,
    so its one ID is the most recent, the page's lowest and its highest."""
    group, kind = item.group, NOTIFICATION_TYPES.get(item.group.type)
    if kind is None or not item.accounts:
        return None
    group_id = str(group.id)
    rendered: Json = {
        "group_key": group.group_key,
        "notifications_count": max(group.accounts_count, 1),
        "type": kind,
        "most_recent_notification_id": group_id,
        "page_min_id": group_id,
        "page_max_id": group_id,
        "latest_page_notification_at": timestamp(group.updated_at),
        "sample_account_ids": [str(profile.id) for profile in item.accounts],
    }
    if item.post is not None:
        rendered["status_id"] = str(item.post.entry_id)
    return rendered


def marker(found: Marker) -> Json:
    return {
        "last_read_id": str(found.last_read_id),
        "version": found.version,
        "updated_at": timestamp(found.updated_at),
    }


def absolute(base: str, url: str) -> str:
    return url if "://" in url else f"{base}{url}"


def _str(value: int | None) -> str | None:
    return str(value) if value is not None else None
