from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="NewGenerator")


@_attrs_define
class NewGenerator:
    """
    Attributes:
        name (str):
        uri (str): http(s) endpoint answering skeleton requests (docs/FEEDS.md)
        description (str | Unset):  Default: ''.
        feedback (bool | Unset): send interaction feedback to the generator Default: False.
    """

    name: str
    uri: str
    description: str | Unset = ""
    feedback: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        uri = self.uri

        description = self.description

        feedback = self.feedback

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "uri": uri,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if feedback is not UNSET:
            field_dict["feedback"] = feedback

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        uri = d.pop("uri")

        description = d.pop("description", UNSET)

        feedback = d.pop("feedback", UNSET)

        new_generator = cls(
            name=name,
            uri=uri,
            description=description,
            feedback=feedback,
        )

        return new_generator
