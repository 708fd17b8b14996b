"""`feedloom bench read --followed-tags N`: the home feed with N followed tags beside the
plain read, in the same run, on the same readers (issue 34: within 1.2x of the plain
p50).

Every user's one post carries one of `TAGS` tags (`#t{user % TAGS}`), parsed and
recorded as any post's (domain/facets.py, adapters/sql/facets.py). After the plain
rounds, each sampled and warm-up reader follows N tags (`followed_tags_of`), and the
same readers are timed again: now each read also pulls the newest public posts of
those tags (read/candidates.py). Those pages are checked against an independent model:
the newest 20 of the followees' posts, the reader's own and the followed tags' posts.
"""

from __future__ import annotations

from feedloom.bench.workload import Workload
from feedloom.bootstrap import Feedloom

TAGS = 100  # distinct tags the workload's posts carry


def tag_of(user: int) -> str:
    return f"t{user % TAGS}"


def followed_tags_of(reader: int, count: int) -> list[str]:
    """`count` distinct tags, a different set for neighbouring readers."""
    return [f"t{(reader * 7 + k * 13) % TAGS}" for k in range(min(count, TAGS))]


async def follow_tags(
    feedloom: Feedloom, readers: list[int], user_ids: dict[int, int], count: int
) -> None:
    """Each reader follows its tags, through the use case the API calls."""
    for reader in readers:
        for name in followed_tags_of(reader, count):
            await feedloom.services.follow_tags.follow(user_ids[reader], name)


def expected_tagged_page(
    workload: Workload, post_of: dict[int, int], reader: int, count: int, page: int
) -> list[int]:
    followed = set(followed_tags_of(reader, count))
    authors = {*workload.followees[reader], reader}
    authors |= {user for user in range(workload.users) if tag_of(user) in followed}
    return sorted((post_of[a] for a in authors), reverse=True)[:page]
