from typing import Literal

TrendingWindow = Literal["1h", "24h"]

TRENDING_WINDOW_VALUES: set[TrendingWindow] = {
    "1h",
    "24h",
}


def check_trending_window(value: str) -> TrendingWindow:
    if value in TRENDING_WINDOW_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TRENDING_WINDOW_VALUES!r}")
