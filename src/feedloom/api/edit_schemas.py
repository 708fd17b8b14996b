"""Request and response bodies of post edits: PATCH /v1/posts/{id}, GET …/history."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from feedloom.api.schemas import AN_ID, SHOWN, Author, JsonDict, MediaOut, Strict, example
from feedloom.domain.model import Visibility
from feedloom.write.edit_post import History

_VERSION: JsonDict = {
    "version": 1,
    "text": "helo",
    "media": [],
    "author": {"id": "7291544000000001", "name": "Kim", "username": "kim", "avatar": None},
    "written_at": "2026-12-01T12:00:00Z",
    "current": False,
}


class MediaChoiceIn(Strict):
    id: str = Field(max_length=20, json_schema_extra=AN_ID, description="a medium's ID")
    alt: str | None = Field(
        None, max_length=1000, description="its new alt text (absent: unchanged)"
    )


class PostEdit(Strict):
    """Only the fields sent change. Blank text and no media at once is 422; an edit
    that leaves the post neither (blank text on a post without media, or no media on
    one without text) or changes its visibility is 409."""

    # Both fields emptied at once: no post is left, whatever it was.
    model_config = ConfigDict(
        json_schema_extra={
            "not": {
                "required": ["text", "media"],
                "properties": {"text": {"not": SHOWN}, "media": {"maxItems": 0}},
            }
        }
    )

    text: str | None = Field(None, max_length=10_000, description="the new text")
    media: list[MediaChoiceIn] | None = Field(
        None,
        max_length=10,
        description="the post's media from now on, in order: ones it has (alt text may "
        "change) or others you uploaded; `[]` removes them all",
    )
    visibility: Visibility | None = Field(
        None, description="cannot change: anything but the post's own visibility is 409"
    )


class VersionOut(BaseModel):
    model_config = example(_VERSION)

    version: int = Field(description="1 for the first text, then one more per edit")
    text: str
    media: list[MediaOut]
    author: Author
    written_at: datetime = Field(description="when this version was published or edited in")
    current: bool = Field(description="the version readers see now (the last)")


class HistoryOut(BaseModel):
    model_config = example({"items": [_VERSION]})

    items: Annotated[list[VersionOut], Field(description="every version, oldest first")]


def render_history(history: History) -> HistoryOut:
    author = history.author
    shown = Author(
        id=str(author.id), name=author.display_name, username=author.username, avatar=author.avatar
    )
    last = len(history.versions)
    return HistoryOut(
        items=[
            VersionOut(
                version=number,
                text=version.text,
                media=[MediaOut.of(item) for item in version.media if not item.pending],
                author=shown,
                written_at=version.written_at,
                current=number == last,
            )
            for number, version in enumerate(history.versions, 1)
        ]
    )
