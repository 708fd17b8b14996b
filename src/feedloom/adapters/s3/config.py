"""Where the bucket is and how to sign for it (from FEEDLOOM_MEDIA__S3_*)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class S3Config:
    bucket: str
    endpoint_url: str | None = None  # None: AWS S3 in `region`
    public_endpoint_url: str | None = None  # what browsers reach, when it differs
    region: str = "us-east-1"
    access_key_id: str | None = None  # None: botocore's chain (environment, instance role)
    secret_access_key: str | None = None
    path_style: bool = False  # bucket in the path, not the host name (MinIO, Garage)
