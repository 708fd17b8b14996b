from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ScoreParts")


@_attrs_define
class ScoreParts:
    """
    Attributes:
        affinity (float): reader -> author, in [0, 1]
        affinity_term (float): weights.affinity * affinity
        age_hours (float):
        comments (int):
        decay (float): 0.5 ** (age_hours / weights.half_life_hours)
        engagement_term (float): weights.engagement * log10(1+likes+3*comments)
        likes (int):
    """

    affinity: float
    affinity_term: float
    age_hours: float
    comments: int
    decay: float
    engagement_term: float
    likes: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        affinity = self.affinity

        affinity_term = self.affinity_term

        age_hours = self.age_hours

        comments = self.comments

        decay = self.decay

        engagement_term = self.engagement_term

        likes = self.likes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "affinity": affinity,
                "affinity_term": affinity_term,
                "age_hours": age_hours,
                "comments": comments,
                "decay": decay,
                "engagement_term": engagement_term,
                "likes": likes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        affinity = d.pop("affinity")

        affinity_term = d.pop("affinity_term")

        age_hours = d.pop("age_hours")

        comments = d.pop("comments")

        decay = d.pop("decay")

        engagement_term = d.pop("engagement_term")

        likes = d.pop("likes")

        score_parts = cls(
            affinity=affinity,
            affinity_term=affinity_term,
            age_hours=age_hours,
            comments=comments,
            decay=decay,
            engagement_term=engagement_term,
            likes=likes,
        )

        score_parts.additional_properties = d
        return score_parts

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
