from typing import Literal

FeedOrder = Literal["chronological", "ranked"]

FEED_ORDER_VALUES: set[FeedOrder] = {
    "chronological",
    "ranked",
}


def check_feed_order(value: str) -> FeedOrder:
    if value in FEED_ORDER_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {FEED_ORDER_VALUES!r}")
