from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.app_user_out_result import AppUserOutResult, check_app_user_out_result

T = TypeVar("T", bound="AppUserOut")


@_attrs_define
class AppUserOut:
    """
    Attributes:
        external_id (str):
        result (AppUserOutResult):
        user_id (str):
    """

    external_id: str
    result: AppUserOutResult
    user_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        external_id = self.external_id

        result: str = self.result

        user_id = self.user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "external_id": external_id,
                "result": result,
                "user_id": user_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        external_id = d.pop("external_id")

        result = check_app_user_out_result(d.pop("result"))

        user_id = d.pop("user_id")

        app_user_out = cls(
            external_id=external_id,
            result=result,
            user_id=user_id,
        )

        app_user_out.additional_properties = d
        return app_user_out

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
