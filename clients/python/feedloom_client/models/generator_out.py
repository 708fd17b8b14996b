from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="GeneratorOut")


@_attrs_define
class GeneratorOut:
    """
    Attributes:
        created_at (datetime.datetime):
        description (str):
        feedback (bool):
        id (str):
        name (str):
        owner_id (str):
        uri (str):
        secret (None | str | Unset): signs skeleton requests; shown to the account that registered it
    """

    created_at: datetime.datetime
    description: str
    feedback: bool
    id: str
    name: str
    owner_id: str
    uri: str
    secret: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        description = self.description

        feedback = self.feedback

        id = self.id

        name = self.name

        owner_id = self.owner_id

        uri = self.uri

        secret: None | str | Unset
        if isinstance(self.secret, Unset):
            secret = UNSET
        else:
            secret = self.secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "description": description,
                "feedback": feedback,
                "id": id,
                "name": name,
                "owner_id": owner_id,
                "uri": uri,
            }
        )
        if secret is not UNSET:
            field_dict["secret"] = secret

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        description = d.pop("description")

        feedback = d.pop("feedback")

        id = d.pop("id")

        name = d.pop("name")

        owner_id = d.pop("owner_id")

        uri = d.pop("uri")

        def _parse_secret(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        secret = _parse_secret(d.pop("secret", UNSET))

        generator_out = cls(
            created_at=created_at,
            description=description,
            feedback=feedback,
            id=id,
            name=name,
            owner_id=owner_id,
            uri=uri,
            secret=secret,
        )

        generator_out.additional_properties = d
        return generator_out

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
