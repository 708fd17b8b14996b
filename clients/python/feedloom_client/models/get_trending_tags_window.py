from typing import Literal

GetTrendingTagsWindow = Literal["1h", "24h"]

GET_TRENDING_TAGS_WINDOW_VALUES: set[GetTrendingTagsWindow] = {
    "1h",
    "24h",
}


def check_get_trending_tags_window(value: str) -> GetTrendingTagsWindow:
    if value in GET_TRENDING_TAGS_WINDOW_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GET_TRENDING_TAGS_WINDOW_VALUES!r}")
