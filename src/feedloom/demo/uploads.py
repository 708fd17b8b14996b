"""The demo's pictures, uploaded as a client's would be: an upload ticket, the bytes to
the upload URL's use case (checked and re-encoded), then the avatar set or the post
published. The worker makes their sizes as for anyone's.

Avatars go to the first `AVATARS` people (the demo account, then whoever the seed lists
first: the rest keep their initial, as people who never chose a picture do); a few
fresh posts carry a scene. On a bucket, uploads go straight to the bucket and the API
has no upload URL of its own: the demo then has no pictures.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from urllib.parse import parse_qs, urlsplit

from feedloom.demo.pictures import AVATAR_SIDE, SCENE_SIZE, SCENES, avatar, scene
from feedloom.demo.sentences import IMAGE_CAPTIONS, TAGS
from feedloom.domain.errors import NotFound
from feedloom.domain.model import Visibility
from feedloom.write.media import MediaUploads
from feedloom.write.profile import EditProfile
from feedloom.write.publish_post import PublishPost

log = logging.getLogger(__name__)

AVATARS = 48
PICTURE_POSTS = 6
AVATAR_SIZE = (AVATAR_SIDE, AVATAR_SIDE)


class DemoPictures:
    def __init__(self, media: MediaUploads, edit_profile: EditProfile, publish: PublishPost):
        self._media, self._edit_profile, self._publish = media, edit_profile, publish

    async def add(self, rng: random.Random, people: Sequence[tuple[int, str]]) -> None:
        """Avatars, then a few posts with pictures, by `people` (ID, language)."""
        try:
            for user_id, _ in people[:AVATARS]:
                media_id = await self._upload(user_id, avatar(rng), AVATAR_SIZE, "")
                await self._edit_profile(user_id, set_avatar=True, avatar_media_id=media_id)
        except NotFound:  # uploads go to a bucket: no upload URL of the API's own
            log.info("demo: no pictures (media are uploaded straight to a bucket)")
            return
        posters = rng.sample(list(people[1:]), PICTURE_POSTS)
        for index, (user_id, language) in enumerate(posters):
            kind = list(SCENES)[index % len(SCENES)]
            caption, alt = IMAGE_CAPTIONS[kind][language]
            media_id = await self._upload(user_id, scene(rng, kind), SCENE_SIZE, alt)
            text = f"{caption} #{rng.choice(TAGS[language])}"
            await self._publish(user_id, text, [media_id], Visibility.PUBLIC, None)

    async def _upload(self, user_id: int, content: bytes, size: tuple[int, int], alt: str) -> str:
        ticket = await self._media.request_upload(user_id, "image/png", *size, alt)
        query = parse_qs(urlsplit(ticket.upload_url).query)
        if "signature" not in query:
            raise NotFound("the upload URL is a bucket's")
        expires, signature = int(query["expires"][0]), query["signature"][0]
        await self._media.store_upload(user_id, ticket.media.id, expires, signature, content)
        return str(ticket.media.id)
