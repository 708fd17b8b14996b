"""The conversational workload of `bench read|fanout --conversations`, on the peers' graph.

Every user does one thing, in user order (entry IDs rise with the user number): 10 %
repost a post of an earlier followee, 20 % of the others reply to one, the rest post
(a user with no earlier followee who posted just posts). Replies and originals are
plain posts, so every thread is one deep and every repost shows a post.

`expected_page` is an independent model of what a reader's first page holds: the
reply rule (a followee's reply reaches the reader only if they follow the account
replied to, or are it), no own post brought back by another's repost, and no double
posts (an original shown once; a repost whose original is among the `FALLOFF` entries
below it left out). "Below" counts the reader's candidates: a pushed reply the rule
keeps from the reader was never written to their timeline, so it takes no place there
(a pulled author's reply does, and is left out when read). Stored with the real write
paths' stores, then fanned out.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial

from feedloom.bench.users import CONCURRENCY
from feedloom.bootstrap import Feedloom
from feedloom.domain.ids import created_at_of
from feedloom.domain.model import Counts, Post, Visibility
from feedloom.domain.reposts import FALLOFF
from feedloom.gather import bounded

REPOST_SHARE, REPLY_SHARE = 0.10, 0.20  # of all activity; of the posts


@dataclass(frozen=True, slots=True)
class Activity:
    kind: str  # "post", "reply" or "repost"
    target: int | None = None  # the user whose post it replies to or reposts


def plan(followees: list[list[int]], seed: int) -> list[Activity]:
    rng = random.Random(seed * 7919 + 17)
    acts: list[Activity] = []
    for user, mine in enumerate(followees):
        earlier = [f for f in mine if f < user and acts[f].kind == "post"]
        roll = rng.random()
        if earlier and roll < REPOST_SHARE:
            acts.append(Activity("repost", rng.choice(earlier)))
        elif earlier and roll < REPOST_SHARE + (1 - REPOST_SHARE) * REPLY_SHARE:
            acts.append(Activity("reply", rng.choice(earlier)))
        else:
            acts.append(Activity("post"))
    return acts


def shares(acts: list[Activity]) -> dict[str, float]:
    kinds = Counter(act.kind for act in acts)
    posts = kinds["post"] + kinds["reply"]
    return {"reposts": kinds["repost"] / len(acts), "replies": kinds["reply"] / max(1, posts)}


async def store_activities(
    feedloom: Feedloom, acts: list[Activity], user_ids: dict[int, int]
) -> dict[int, int]:
    """Store every user's activity (posts first, so every parent and original exists),
    with IDs in user order; returns user -> entry ID."""
    now = feedloom.runtime.clock()
    entry = {user: feedloom.runtime.ids.next_id() for user in range(len(acts))}
    targeted = {act.target for act in acts if act.target is not None}

    def post(user: int) -> Post:
        post_id = entry[user]
        return Post(
            post_id, user_ids[user], f"post {user}", Visibility.PUBLIC, created_at_of(post_id)
        )

    plain = [post(u) for u, act in enumerate(acts) if act.kind == "post"]
    await bounded(
        [partial(feedloom.stores.posts.create_post, p, None, "", now) for p in plain], CONCURRENCY
    )
    later: list[Callable[[], Awaitable[object]]] = []
    for user, act in enumerate(acts):
        if act.target is None:
            continue
        base = post(user)
        if act.kind == "reply":
            reply = Post(
                base.id, base.author_id, base.text, base.visibility, base.created_at,
                in_reply_to=entry[act.target], reply_to_author=user_ids[act.target],
            )  # fmt: skip
            later.append(partial(feedloom.stores.posts.create_post, reply, None, "", now))
        else:
            repost = Post(
                base.id, base.author_id, "", base.visibility, base.created_at,
                repost_of=entry[act.target],
            )  # fmt: skip
            later.append(partial(feedloom.stores.reposts.repost, repost, now))
    await bounded(later, CONCURRENCY)
    # As publishing does, zero counts are cached for the posts nobody answered or
    # reposted; the others changed on their rows, so theirs are read from the store.
    untouched = [entry[u] for u in range(len(acts)) if u not in targeted]
    await feedloom.caches.counters.set_many({post_id: Counts() for post_id in untouched})
    return entry


def expected_page(
    followees: list[list[int]],
    acts: list[Activity],
    entry: dict[int, int],
    user: int,
    limit: int,
    pulled: frozenset[int] = frozenset(),
) -> list[int]:
    """The IDs of the posts a reader's first page shows (a repost shows its original);
    `pulled`: the users whose posts readers pull (all their replies are candidates)."""
    follows = set(followees[user])

    def reaches(author: int) -> bool:
        act = acts[author]
        return act.kind != "reply" or author == user or act.target in (*follows, user)

    ordered = sorted([*followees[user], user], key=lambda u: entry[u], reverse=True)
    candidates = [u for u in ordered if u in pulled or reaches(u)]
    shown: set[int] = set()
    page: list[int] = []
    for index, author in enumerate(candidates):
        act = acts[author]
        if not reaches(author):
            continue
        if act.kind == "repost":
            assert act.target is not None
            original = entry[act.target]
            below = {entry[u] for u in candidates[index + 1 : index + 1 + FALLOFF]}
            mine_back = act.target == user and author != user
            if mine_back or original in shown or original in below:
                continue
            shown.add(original)
            page.append(original)
        elif entry[author] not in shown:
            page.append(entry[author])
        if len(page) == limit:
            break
    return page
