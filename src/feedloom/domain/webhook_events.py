"""Webhook events: which event types an outbox event makes, what each says, and whose
apps hear of it (docs/INTEGRATION.md, "Webhook events").

Every type comes from an event the write already put in the outbox in its own
transaction: posts from the fan-out's events, likes, follows, notifications and
moderation outcomes from the notification events (domain/notifications.py), edits and
erasures from events of their own. An event's `key` is its identity: the same event
handed out twice (the outbox delivers at least once) is one delivery per webhook, sent
with one `webhook-id`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from feedloom.domain.model import (
    AccountErased,
    AuthorPushed,
    Event,
    Post,
    PostDeleted,
    PostEdited,
    PostPublished,
)
from feedloom.domain.notifications import NotificationType, Notified, notifies

POST_TYPES = ("post.created", "reply.created", "repost.created")
MODERATION = tuple(f"moderation.{outcome}" for outcome in ("held", "released", "rejected"))
EVENT_TYPES = (
    *POST_TYPES,
    "post.edited",
    "post.deleted",
    "like.created",
    "like.deleted",
    "follow.created",
    "follow.deleted",
    "notification.created",
    "user.deleted",
    *MODERATION,
)


@dataclass(frozen=True, slots=True)
class Announcement:
    """One webhook event. `people` are written as `<role>_id` (feedloom's ID) and
    `<role>` (the external ID the receiving app knows them by, else null); `audience`
    are the users whose apps hear of it; `app_id` names the app directly (an erased
    account has no link left to find it by)."""

    type: str
    key: str
    data: dict[str, object]
    people: tuple[tuple[str, int], ...] = ()
    audience: tuple[int, ...] = ()
    app_id: int = 0


def possible_types(event: Event) -> frozenset[str]:
    """The types an event may make, known without reading anything (so an event no
    webhook wants costs nothing)."""
    if isinstance(event, PostPublished):
        return frozenset(POST_TYPES)
    if isinstance(event, PostDeleted):
        return frozenset({"post.deleted"})
    if isinstance(event, PostEdited):
        return frozenset({"post.edited"})
    if isinstance(event, AccountErased):
        return frozenset({"user.deleted"})
    if isinstance(event, AuthorPushed):
        return frozenset()
    return frozenset(a.type for a in _notified(event))


def announcements(event: Event, posts: Mapping[int, Post]) -> list[Announcement]:
    """What an event announces; `posts` holds the live posts of published and edited
    events (one gone meanwhile announces nothing: its deletion follows)."""
    author = (("author", event.author_id),)
    if isinstance(event, PostPublished | PostEdited):
        post = posts.get(event.post_id)
        if post is None:
            return []
        data: dict[str, object] = {"post_id": str(post.id), "text": post.text}
        if isinstance(event, PostEdited):
            key = f"post.edited:{event.post_id}:{event.seq}"
            return [Announcement("post.edited", key, data, author, (event.author_id,))]
        kind = "post.created"
        if post.repost_of is not None:
            kind, data["repost_of"] = "repost.created", str(post.repost_of)
        elif post.in_reply_to is not None:
            kind, data["in_reply_to"] = "reply.created", str(post.in_reply_to)
        return [Announcement(kind, f"{kind}:{post.id}", data, author, (event.author_id,))]
    if isinstance(event, PostDeleted):
        data = {"post_id": str(event.post_id)}
        key = f"post.deleted:{event.post_id}"
        return [Announcement("post.deleted", key, data, author, (event.author_id,))]
    if isinstance(event, AccountErased):
        data = {"user_id": str(event.author_id), "user": event.external_id}
        key = f"user.deleted:{event.author_id}"
        return [Announcement("user.deleted", key, data, app_id=event.app_id)]
    if isinstance(event, AuthorPushed):
        return []
    return _notified(event)


def _notified(event: Notified) -> list[Announcement]:
    """Likes, follows and moderation outcomes, and the notification itself (a new
    one: an undo notifies nobody)."""
    kind, seq = event.type, event.seq
    actor, recipient = event.author_id, event.recipient_id
    post = {"post_id": str(event.post_id)} if event.post_id else {}
    both = (actor, recipient)
    made: list[Announcement] = []
    if kind is NotificationType.LIKE:
        people: tuple[tuple[str, int], ...] = (("user", actor), ("author", recipient))
        name = "like.deleted" if event.undo else "like.created"
        made.append(Announcement(name, f"{name}:{seq}", dict(post), people, both))
    elif kind is NotificationType.FOLLOW:
        people = (("follower", actor), ("followee", recipient))
        name = "follow.deleted" if event.undo else "follow.created"
        made.append(Announcement(name, f"{name}:{seq}", {}, people, both))
    elif kind is NotificationType.MODERATION and not event.undo:
        name = f"moderation.{event.group_key.rsplit(':', 1)[1]}"
        people = (("author", recipient),)
        made.append(Announcement(name, f"{name}:{seq}", dict(post), people, (recipient,)))
    if not event.undo and notifies(event):
        data: dict[str, object] = {"type": kind.value, "post_id": post.get("post_id")}
        named: tuple[tuple[str, int], ...] = (("recipient", recipient),)
        if actor:
            named += (("actor", actor),)
        else:
            data.update(actor_id=None, actor=None)  # a moderator's decision: nobody named
        key = f"notification.created:{seq}"
        made.append(Announcement("notification.created", key, data, named, (recipient,)))
    return made
