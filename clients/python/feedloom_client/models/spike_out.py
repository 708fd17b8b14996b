from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SpikeOut")


@_attrs_define
class SpikeOut:
    """
    Attributes:
        account_id (str):
        hourly_mean (float): over the previous 24 hours
        kind (str):
        this_hour (int):
        username (None | str):
        z (float): standard deviations above that mean
    """

    account_id: str
    hourly_mean: float
    kind: str
    this_hour: int
    username: None | str
    z: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        account_id = self.account_id

        hourly_mean = self.hourly_mean

        kind = self.kind

        this_hour = self.this_hour

        username: None | str
        username = self.username

        z = self.z

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "account_id": account_id,
                "hourly_mean": hourly_mean,
                "kind": kind,
                "this_hour": this_hour,
                "username": username,
                "z": z,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        account_id = d.pop("account_id")

        hourly_mean = d.pop("hourly_mean")

        kind = d.pop("kind")

        this_hour = d.pop("this_hour")

        def _parse_username(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        username = _parse_username(d.pop("username"))

        z = d.pop("z")

        spike_out = cls(
            account_id=account_id,
            hourly_mean=hourly_mean,
            kind=kind,
            this_hour=this_hour,
            username=username,
            z=z,
        )

        spike_out.additional_properties = d
        return spike_out

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
