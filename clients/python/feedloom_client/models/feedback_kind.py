from typing import Literal

FeedbackKind = Literal["less_like_this", "like", "seen"]

FEEDBACK_KIND_VALUES: set[FeedbackKind] = {
    "less_like_this",
    "like",
    "seen",
}


def check_feedback_kind(value: str) -> FeedbackKind:
    if value in FEEDBACK_KIND_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {FEEDBACK_KIND_VALUES!r}")
