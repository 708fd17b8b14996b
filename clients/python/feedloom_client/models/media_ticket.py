from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.media_ticket_upload_headers import MediaTicketUploadHeaders


T = TypeVar("T", bound="MediaTicket")


@_attrs_define
class MediaTicket:
    """
    Attributes:
        expires_at (str):
        media_id (str):
        upload_headers (MediaTicketUploadHeaders): headers the PUT must carry
        upload_url (str): PUT the bytes here. A path of this API: send your bearer token too. Another origin (an S3
            bucket, presigned): send no token, only `upload_headers`
        url (str): where the image is served: unguessable, keep it private
    """

    expires_at: str
    media_id: str
    upload_headers: MediaTicketUploadHeaders
    upload_url: str
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        expires_at = self.expires_at

        media_id = self.media_id

        upload_headers = self.upload_headers.to_dict()

        upload_url = self.upload_url

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "expires_at": expires_at,
                "media_id": media_id,
                "upload_headers": upload_headers,
                "upload_url": upload_url,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.media_ticket_upload_headers import MediaTicketUploadHeaders  # noqa: PLC0415

        d = dict(src_dict)
        expires_at = d.pop("expires_at")

        media_id = d.pop("media_id")

        upload_headers = MediaTicketUploadHeaders.from_dict(d.pop("upload_headers"))

        upload_url = d.pop("upload_url")

        url = d.pop("url")

        media_ticket = cls(
            expires_at=expires_at,
            media_id=media_id,
            upload_headers=upload_headers,
            upload_url=upload_url,
            url=url,
        )

        media_ticket.additional_properties = d
        return media_ticket

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
