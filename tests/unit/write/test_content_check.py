"""The default content check (write/content_check.py): repeats, link bursts from new
accounts, blocklisted words and domains."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from feedloom.domain.ids import IdGenerator, created_at_of
from feedloom.domain.model import Post, UserProfile, Visibility
from feedloom.write.content_check import CheckRules, DefaultContentCheck
from tests.unit.fakes import FakeRateLimiter

RULES = CheckRules(
    repeat_limit=2,
    repeat_window_s=600,
    repeat_min_chars=10,
    new_account_age=timedelta(days=3),
    new_account_links=2,
    links_window_s=600,
    blocked_words=frozenset({"scamword"}),
    blocked_domains=frozenset({"spam.example"}),
)
IDS = IdGenerator(worker_id=5)


def post(author: UserProfile, text: str) -> Post:
    post_id = IDS.next_id()
    return Post(post_id, author.id, text, Visibility.PUBLIC, created_at_of(post_id))


def check(now: datetime) -> DefaultContentCheck:
    return DefaultContentCheck(FakeRateLimiter(), RULES, lambda: now)


async def test_the_same_long_text_is_held_past_the_limit_and_short_ones_never() -> None:
    author = UserProfile(IDS.next_id(), "kim", "Kim", None)
    checker = check(datetime.now(UTC) + timedelta(days=30))
    reasons = [await checker.reason_to_hold(post(author, "Buy  my course  NOW")) for _ in range(3)]
    assert reasons[:2] == [None, None] and reasons[2] is not None
    assert [await checker.reason_to_hold(post(author, "thanks!")) for _ in range(5)] == [None] * 5


async def test_a_new_account_posting_many_links_is_held_an_old_one_is_not() -> None:
    author = UserProfile(IDS.next_id(), "new", "New", None)
    texts = [f"see https://site{n}.example/page" for n in range(3)]
    new = check(datetime.now(UTC))
    assert [await new.reason_to_hold(post(author, t)) for t in texts][2] == (
        "a burst of links from a new account"
    )
    old = check(datetime.now(UTC) + timedelta(days=30))
    assert [await old.reason_to_hold(post(author, t)) for t in texts] == [None] * 3


async def test_blocklisted_words_and_domains_are_held_subdomains_included() -> None:
    author = UserProfile(IDS.next_id(), "kim", "Kim", None)
    checker = check(datetime.now(UTC) + timedelta(days=30))
    assert await checker.reason_to_hold(post(author, "a ScamWord here")) == (
        "blocklisted word: scamword"
    )
    assert await checker.reason_to_hold(post(author, "go to http://www.spam.example/x")) == (
        "blocklisted domain: spam.example"
    )
    assert await checker.reason_to_hold(post(author, "notspam.example.org is fine")) is None
