"""MediaUploads over fakes: bytes that could not be stored leave the URL usable."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from urllib.parse import parse_qs, urlsplit

import pytest

from feedloom.domain.errors import Conflict
from feedloom.domain.ids import IdGenerator
from feedloom.write.media import MediaConfig, MediaUploads, StoredImage
from tests.images import png
from tests.unit.fakes import FakeMediaStore, FakeRateLimiter, throttle

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


class FlakyObjects:
    def __init__(self) -> None:
        self.objects: dict[str, bytes] = {}
        self.fail_next = False

    async def put(self, name: str, content: bytes, content_type: str) -> None:
        if self.fail_next:
            self.fail_next = False
            raise OSError("disk full")
        self.objects[name] = content

    async def get(self, name: str) -> bytes | None:
        return self.objects.get(name)

    async def delete(self, names: Sequence[str]) -> None:
        for name in names:
            self.objects.pop(name, None)


async def test_an_upload_that_was_not_stored_can_be_sent_again_then_never() -> None:
    store, objects = FakeMediaStore(), FlakyObjects()
    config = MediaConfig(secret_key="k" * 32, base_url="/media", max_bytes=1_000_000)
    uploads = MediaUploads(
        store, objects, IdGenerator(), lambda: NOW, config, throttle(FakeRateLimiter())
    )
    ticket = await uploads.request_upload(7, "image/png", 10, 10)
    query = parse_qs(urlsplit(ticket.upload_url).query)
    expires, signature = int(query["expires"][0]), query["signature"][0]
    objects.fail_next = True
    with pytest.raises(OSError):
        await uploads.store_upload(7, ticket.media.id, expires, signature, png(4, 4))
    assert await store.media_owned_by(7, [ticket.media.id]) == []
    await uploads.store_upload(7, ticket.media.id, expires, signature, png(4, 4))
    assert len(await store.media_owned_by(7, [ticket.media.id])) == 1
    with pytest.raises(Conflict):
        await uploads.store_upload(7, ticket.media.id, expires, signature, png(5, 5))
    served = await uploads.served(ticket.media.url.rsplit("/", 1)[-1])
    assert isinstance(served, StoredImage) and served.media_type == "image/png"
    assert await uploads.served(f"{ticket.media.id}.png") is None  # the ID is no way in
