"""Who is pushed and who is pulled: the hybrid fan-out decision.

Ordinary authors are pushed (their posts are written into followers' timelines);
authors with more than `pull_above` followers are pulled (readers merge their author
timeline at read time). Hysteresis keeps an account hovering at the threshold from
flipping back and forth: once pulled, it is pushed again only below `push_below`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FanoutPolicy:
    pull_above: int = 10_000
    push_below: int = 8_000
    bulk_above: int = 1_000
    max_pulled_per_read: int = 100

    def __post_init__(self) -> None:
        if not 0 <= self.push_below <= self.pull_above:
            raise ValueError("fan-out policy needs 0 <= push_below <= pull_above")

    def is_pulled(self, followers: int, currently_pulled: bool) -> bool:
        if currently_pulled:
            return followers >= self.push_below
        return followers > self.pull_above

    def is_bulk(self, followers: int) -> bool:
        """A pushed author big enough that its fan-out goes to the separate bulk queue,
        so ordinary posts never wait behind it."""
        return followers > self.bulk_above

    def pulled_to_merge(self, pulled_followees: list[int]) -> list[int]:
        """Cap the pulled authors one read merges (tail latency grows with every
        source). Newest accounts are dropped first: IDs are time-ordered, so keeping
        the smallest IDs keeps the long-standing accounts and makes the choice stable
        across pages. The rest still reach the reader through timeline rebuilds."""
        return sorted(pulled_followees)[: self.max_pulled_per_read]
