from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.score_parts import ScoreParts


T = TypeVar("T", bound="Explain")


@_attrs_define
class Explain:
    """
    Attributes:
        components (None | ScoreParts):
        score (float | None): (affinity_term + engagement_term) * decay; null when chronological
        source (str): pushed, pulled, own, rebuilt or archive; liked_by or trending for a post from outside the people
            you follow (ranked only)
    """

    components: None | ScoreParts
    score: float | None
    source: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.score_parts import ScoreParts  # noqa: PLC0415

        components: dict[str, Any] | None
        if isinstance(self.components, ScoreParts):
            components = self.components.to_dict()
        else:
            components = self.components

        score: float | None
        score = self.score

        source = self.source

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "components": components,
                "score": score,
                "source": source,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.score_parts import ScoreParts  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_components(data: object) -> None | ScoreParts:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                components_type_0 = ScoreParts.from_dict(data)

                return components_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ScoreParts, data)

        components = _parse_components(d.pop("components"))

        def _parse_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        score = _parse_score(d.pop("score"))

        source = d.pop("source")

        explain = cls(
            components=components,
            score=score,
            source=source,
        )

        explain.additional_properties = d
        return explain

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
