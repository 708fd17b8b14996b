"""The S3-compatible object store (AWS S3, MinIO, Garage, Cloudflare R2...).

`config` is plain data; `object_store` loads aiobotocore, and is imported only by a
process configured for a bucket (bootstrap/infrastructure.py)."""
