from typing import Literal

SearchOrder = Literal["newest", "relevance"]

SEARCH_ORDER_VALUES: set[SearchOrder] = {
    "newest",
    "relevance",
}


def check_search_order(value: str) -> SearchOrder:
    if value in SEARCH_ORDER_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SEARCH_ORDER_VALUES!r}")
