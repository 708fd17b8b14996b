from typing import Literal

ReplyPolicy = Literal["followed", "list", "none"]

REPLY_POLICY_VALUES: set[ReplyPolicy] = {
    "followed",
    "list",
    "none",
}


def check_reply_policy(value: str) -> ReplyPolicy:
    if value in REPLY_POLICY_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REPLY_POLICY_VALUES!r}")
