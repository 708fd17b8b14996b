from typing import Literal

NewMediaContentType = Literal["image/gif", "image/jpeg", "image/png", "image/webp"]

NEW_MEDIA_CONTENT_TYPE_VALUES: set[NewMediaContentType] = {
    "image/gif",
    "image/jpeg",
    "image/png",
    "image/webp",
}


def check_new_media_content_type(value: str) -> NewMediaContentType:
    if value in NEW_MEDIA_CONTENT_TYPE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {NEW_MEDIA_CONTENT_TYPE_VALUES!r}")
