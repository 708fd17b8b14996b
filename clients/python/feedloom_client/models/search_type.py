from typing import Literal

SearchType = Literal["people", "posts", "tags"]

SEARCH_TYPE_VALUES: set[SearchType] = {
    "people",
    "posts",
    "tags",
}


def check_search_type(value: str) -> SearchType:
    if value in SEARCH_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SEARCH_TYPE_VALUES!r}")
