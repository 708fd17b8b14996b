"""S3ObjectStore: image bytes in an S3-compatible bucket through aiobotocore, so every
API and worker process, on any machine, reads and writes the same media.

Keys: `media/{name}` holds what readers are served, the verified originals and the
sizes made from them. `uploads/{name}` holds what a client PUT straight to the bucket
with a presigned URL (DirectUploads): unchecked, never served; the worker reads it,
writes `media/{name}` from the verified pixels and drops it. Deleting a name deletes
both keys. A lifecycle rule on `uploads/` expires what nobody attached
(docs/PRODUCTION.md).

Presigned URLs are computed here, without a request. When browsers reach the bucket
at another address than the servers do (`public_endpoint_url`), they come from a
second client configured with that address: a signature covers the host. Not
reaching the bucket raises `Unavailable` (a request answers 503, the worker retries).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING, TypeVar

from aiobotocore.config import AioConfig
from aiobotocore.session import get_session
from botocore.exceptions import ClientError, HTTPClientError
from botocore.exceptions import ConnectionError as BotoConnectionError

from feedloom.adapters.object_names import checked_name
from feedloom.adapters.s3.config import S3Config
from feedloom.domain.errors import Unavailable

if TYPE_CHECKING:
    from types_aiobotocore_s3 import S3Client
    from types_aiobotocore_s3.type_defs import ObjectIdentifierTypeDef

T = TypeVar("T")
OBJECTS, UPLOADS = "media/", "uploads/"
DELETE_BATCH = 1_000  # DeleteObjects takes at most 1,000 keys
CACHE_FOREVER = "public, max-age=31536000, immutable"  # a name's bytes never change


class S3ObjectStore:
    """ObjectStore, DirectUploads and SignedReads on one bucket."""

    def __init__(self, client: S3Client, signer: S3Client, bucket: str) -> None:
        self._client, self._signer, self._bucket = client, signer, bucket

    async def put(self, name: str, content: bytes, content_type: str) -> None:
        key = OBJECTS + checked_name(name)
        async with _reaching():
            await self._client.put_object(
                Bucket=self._bucket,
                Key=key,
                Body=content,
                ContentType=content_type,
                CacheControl=CACHE_FOREVER,
            )

    async def get(self, name: str) -> bytes | None:
        try:
            key = OBJECTS + checked_name(name)
        except ValueError:
            return None
        return await self._read(key, None)

    async def delete(self, names: Sequence[str]) -> None:
        keys = [prefix + checked_name(name) for name in names for prefix in (OBJECTS, UPLOADS)]
        for start in range(0, len(keys), DELETE_BATCH):
            batch: list[ObjectIdentifierTypeDef] = [
                {"Key": key} for key in keys[start : start + DELETE_BATCH]
            ]
            async with _reaching():
                answer = await self._client.delete_objects(
                    Bucket=self._bucket, Delete={"Objects": batch, "Quiet": True}
                )
            if errors := answer.get("Errors"):  # a missing key is no error: denied ones are
                first = errors[0]
                raise RuntimeError(f"{len(errors)} objects not deleted: {first.get('Message')}")

    async def upload_url(self, name: str, content_type: str, expires_in: timedelta) -> str:
        params = {"Bucket": self._bucket, "Key": UPLOADS + checked_name(name)}
        return await self._signer.generate_presigned_url(
            "put_object",
            Params={**params, "ContentType": content_type},  # signed: the PUT must send it
            ExpiresIn=int(expires_in.total_seconds()),
        )

    async def upload_size(self, name: str) -> int | None:
        key = UPLOADS + checked_name(name)
        async with _reaching():
            head = await _unless_missing(self._client.head_object(Bucket=self._bucket, Key=key))
        return None if head is None else head["ContentLength"]

    async def read_upload(self, name: str, max_bytes: int) -> bytes | None:
        return await self._read(UPLOADS + checked_name(name), max_bytes)

    async def drop_upload(self, name: str) -> None:
        key = UPLOADS + checked_name(name)
        async with _reaching():
            await self._client.delete_object(Bucket=self._bucket, Key=key)

    async def read_url(self, name: str, expires_in: timedelta) -> str:
        return await self._signer.generate_presigned_url(
            "get_object",
            Params={"Bucket": self._bucket, "Key": OBJECTS + checked_name(name)},
            ExpiresIn=int(expires_in.total_seconds()),
        )

    async def _read(self, key: str, max_bytes: int | None) -> bytes | None:
        async with _reaching():
            found = await _unless_missing(self._client.get_object(Bucket=self._bucket, Key=key))
            if found is None:
                return None
            async with found["Body"] as body:
                size = found["ContentLength"]
                if max_bytes is not None and size > max_bytes:
                    raise ValueError(f"the upload is {size:,} bytes, more than {max_bytes:,}")
                return await body.read()


@contextlib.asynccontextmanager
async def s3_object_store(config: S3Config) -> AsyncIterator[S3ObjectStore]:
    """The store on its connection pool, closed on exit. Nothing connects before the
    first request: a missing bucket or wrong credentials show at the first upload."""
    session = get_session()
    options = AioConfig(
        signature_version="s3v4",
        s3={"addressing_style": "path" if config.path_style else "auto"},
        connect_timeout=5,
        read_timeout=30,
        retries={"max_attempts": 3, "mode": "standard"},
        # Checksums only where S3 requires them: several S3-compatible servers refuse
        # the CRC32 trailers botocore sends by default since 1.36.
        request_checksum_calculation="when_required",
        response_checksum_validation="when_required",
    )

    def client(endpoint_url: str | None) -> contextlib.AbstractAsyncContextManager[S3Client]:
        return session.create_client(
            "s3",
            region_name=config.region,
            endpoint_url=endpoint_url,
            aws_access_key_id=config.access_key_id,
            aws_secret_access_key=config.secret_access_key,
            config=options,
        )

    async with contextlib.AsyncExitStack() as stack:
        direct = await stack.enter_async_context(client(config.endpoint_url))
        signer = direct
        if config.public_endpoint_url not in (None, config.endpoint_url):
            signer = await stack.enter_async_context(client(config.public_endpoint_url))
        yield S3ObjectStore(direct, signer, config.bucket)


@contextlib.asynccontextmanager
async def _reaching() -> AsyncIterator[None]:
    """The bucket's outages, after botocore's own retries, as `Unavailable`."""
    try:
        yield
    except (BotoConnectionError, HTTPClientError) as error:  # refused, reset, timed out
        raise Unavailable(f"the object store is unreachable: {error}", 2) from error
    except ClientError as error:
        if _status(error) >= 500:  # 503 SlowDown, 500 InternalError
            raise Unavailable(f"the object store failed: {error}", 2) from error
        raise


async def _unless_missing(request: Awaitable[T]) -> T | None:
    """The answer, or None for a key that is not there (404)."""
    try:
        return await request
    except ClientError as error:
        if _status(error) == 404:
            return None
        raise


def _status(error: ClientError) -> int:
    return int(error.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0))
