from typing import Literal

NotificationType = Literal["follow", "like", "mention", "moderation", "quote", "reply", "repost"]

NOTIFICATION_TYPE_VALUES: set[NotificationType] = {
    "follow",
    "like",
    "mention",
    "moderation",
    "quote",
    "reply",
    "repost",
}


def check_notification_type(value: str) -> NotificationType:
    if value in NOTIFICATION_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {NOTIFICATION_TYPE_VALUES!r}")
