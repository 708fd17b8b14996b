from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="QueuedPostOut")


@_attrs_define
class QueuedPostOut:
    """
    Attributes:
        author_id (str):
        held (bool): held by the content check: not fanned out yet
        held_reason (None | str):
        post_id (str):
        reasons (list[str]): the latest reporters' reasons
        reports (int):
    """

    author_id: str
    held: bool
    held_reason: None | str
    post_id: str
    reasons: list[str]
    reports: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        author_id = self.author_id

        held = self.held

        held_reason: None | str
        held_reason = self.held_reason

        post_id = self.post_id

        reasons = self.reasons

        reports = self.reports

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "author_id": author_id,
                "held": held,
                "held_reason": held_reason,
                "post_id": post_id,
                "reasons": reasons,
                "reports": reports,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        author_id = d.pop("author_id")

        held = d.pop("held")

        def _parse_held_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        held_reason = _parse_held_reason(d.pop("held_reason"))

        post_id = d.pop("post_id")

        reasons = cast(list[str], d.pop("reasons"))

        reports = d.pop("reports")

        queued_post_out = cls(
            author_id=author_id,
            held=held,
            held_reason=held_reason,
            post_id=post_id,
            reasons=reasons,
            reports=reports,
        )

        queued_post_out.additional_properties = d
        return queued_post_out

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
