from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.relation_out import RelationOut


T = TypeVar("T", bound="FoundPersonOut")


@_attrs_define
class FoundPersonOut:
    """
    Attributes:
        avatar (None | str):
        followed_by_me (bool): you follow this account
        followers (int):
        following (int):
        follows_me (bool): this account follows you
        id (str):
        name (str):
        pulled (bool): posts reach followers at read time (big account)
        relation (RelationOut): The viewer's relations with this account, as stored now. A block by the account
            is not among them: such a profile answers 404, like a missing one.
        username (str):
        bio (str | Unset):  Default: ''.
    """

    avatar: None | str
    followed_by_me: bool
    followers: int
    following: int
    follows_me: bool
    id: str
    name: str
    pulled: bool
    relation: RelationOut
    username: str
    bio: str | Unset = ""
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        avatar: None | str
        avatar = self.avatar

        followed_by_me = self.followed_by_me

        followers = self.followers

        following = self.following

        follows_me = self.follows_me

        id = self.id

        name = self.name

        pulled = self.pulled

        relation = self.relation.to_dict()

        username = self.username

        bio = self.bio

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "avatar": avatar,
                "followed_by_me": followed_by_me,
                "followers": followers,
                "following": following,
                "follows_me": follows_me,
                "id": id,
                "name": name,
                "pulled": pulled,
                "relation": relation,
                "username": username,
            }
        )
        if bio is not UNSET:
            field_dict["bio"] = bio

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.relation_out import RelationOut  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_avatar(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        avatar = _parse_avatar(d.pop("avatar"))

        followed_by_me = d.pop("followed_by_me")

        followers = d.pop("followers")

        following = d.pop("following")

        follows_me = d.pop("follows_me")

        id = d.pop("id")

        name = d.pop("name")

        pulled = d.pop("pulled")

        relation = RelationOut.from_dict(d.pop("relation"))

        username = d.pop("username")

        bio = d.pop("bio", UNSET)

        found_person_out = cls(
            avatar=avatar,
            followed_by_me=followed_by_me,
            followers=followers,
            following=following,
            follows_me=follows_me,
            id=id,
            name=name,
            pulled=pulled,
            relation=relation,
            username=username,
            bio=bio,
        )

        found_person_out.additional_properties = d
        return found_person_out

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
