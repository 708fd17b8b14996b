from typing import Literal

Visibility = Literal["followers", "public"]

VISIBILITY_VALUES: set[Visibility] = {
    "followers",
    "public",
}


def check_visibility(value: str) -> Visibility:
    if value in VISIBILITY_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {VISIBILITY_VALUES!r}")
