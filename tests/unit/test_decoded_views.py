"""Views decoded once per distinct bytes: the same bytes give the same view without a
decode, changed bytes always decode again, and the memory is bounded."""

from __future__ import annotations

from feedloom.adapters.redis.caches import Decoded
from feedloom.adapters.redis.views import dump_profile, load_profile
from feedloom.domain.model import UserProfile


def counting_loader() -> tuple[list[int], Decoded[UserProfile]]:
    decodes: list[int] = []

    def load(key: int, data: bytes) -> UserProfile:
        decodes.append(key)
        loaded = load_profile(key, data)
        assert loaded is not None
        return loaded

    return decodes, Decoded(load, limit=4)


def profile(user_id: int, followers: int = 0) -> bytes:
    return dump_profile(UserProfile(user_id, f"u{user_id}", "U", None, followers, 0, False))


def test_the_same_bytes_are_decoded_once() -> None:
    decodes, decoded = counting_loader()
    first = decoded(1, profile(1))
    assert decoded(1, profile(1)) is first  # equal bytes, not the same object
    assert decodes == [1]


def test_changed_bytes_decode_again_so_a_view_is_never_stale() -> None:
    decodes, decoded = counting_loader()
    decoded(1, profile(1, followers=1))
    assert getattr(decoded(1, profile(1, followers=2)), "followers", None) == 2
    assert getattr(decoded(1, profile(1, followers=1)), "followers", None) == 1
    assert decodes == [1, 1, 1]


def test_the_oldest_go_first_when_the_limit_is_reached() -> None:
    decodes, decoded = counting_loader()
    for user_id in range(5):  # the fifth evicts user 0
        decoded(user_id, profile(user_id))
    decoded(3, profile(3))
    decoded(0, profile(0))
    assert decodes == [0, 1, 2, 3, 4, 0]
