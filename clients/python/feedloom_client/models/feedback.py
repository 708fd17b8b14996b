from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.feedback_kind import FeedbackKind, check_feedback_kind

T = TypeVar("T", bound="Feedback")


@_attrs_define
class Feedback:
    """
    Attributes:
        kind (FeedbackKind):
        post_id (str):
    """

    kind: FeedbackKind
    post_id: str

    def to_dict(self) -> dict[str, Any]:
        kind: str = self.kind

        post_id = self.post_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "post_id": post_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = check_feedback_kind(d.pop("kind"))

        post_id = d.pop("post_id")

        feedback = cls(
            kind=kind,
            post_id=post_id,
        )

        return feedback
