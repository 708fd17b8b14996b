"""GET /api/v1/instance, /api/v2/instance, /api/v1/instance/peers: what this server is
and accepts, in Mastodon's Instance shapes, from Settings (the limits GET /v1/limits
states). Public and storeless."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from feedloom import __version__
from feedloom.api.deps import feedloom_of
from feedloom.api.mastodon.oauth_routes import base_url
from feedloom.write.media import CONTENT_TYPES, MAX_ALT

router = APIRouter()
# The Mastodon API version whose shapes we render: clients gate features on it.
COMPATIBLE = "4.3.0"
TITLE = "feedloom"
DESCRIPTION = "A news-feed service: follow people, read a home timeline."


def _configuration(request: Request) -> dict[str, Any]:
    settings = feedloom_of(request).settings
    return {
        "statuses": {
            "max_characters": settings.post_max_chars,
            "max_media_attachments": settings.media_per_post,
            "characters_reserved_per_url": 23,
        },
        "media_attachments": {
            "supported_mime_types": sorted(CONTENT_TYPES),
            "image_size_limit": settings.media_max_bytes,
            "image_matrix_limit": 4096 * 4096,
            "video_size_limit": 0,
            "video_frame_rate_limit": 0,
            "video_matrix_limit": 0,
            "description_limit": MAX_ALT,
        },
        "polls": {
            "max_options": 0,
            "max_characters_per_option": 0,
            "min_expiration": 0,
            "max_expiration": 0,
        },
        "accounts": {"max_featured_tags": 0, "max_pinned_statuses": 0},
    }


def _streaming(request: Request) -> str:
    return base_url(request).replace("http", "ws", 1)


@router.get("/v1/instance")
async def instance_v1(request: Request) -> JSONResponse:
    host = request.url.netloc
    return JSONResponse(
        {
            "uri": host,
            "title": TITLE,
            "short_description": DESCRIPTION,
            "description": DESCRIPTION,
            "email": "",
            "version": f"{COMPATIBLE} (compatible; feedloom {__version__})",
            "urls": {"streaming_api": _streaming(request)},
            "stats": {"user_count": 0, "status_count": 0, "domain_count": 1},
            "thumbnail": None,
            "languages": ["en"],
            "registrations": False,
            "approval_required": False,
            "invites_enabled": False,
            "configuration": _configuration(request),
            "contact_account": None,
            "rules": [],
        }
    )


@router.get("/v2/instance")
async def instance_v2(request: Request) -> JSONResponse:
    configuration = _configuration(request)
    configuration["urls"] = {"streaming": _streaming(request), "status": None}
    configuration["translation"] = {"enabled": False}
    configuration["vapid"] = {"public_key": ""}
    return JSONResponse(
        {
            "domain": request.url.netloc,
            "title": TITLE,
            "version": f"{COMPATIBLE} (compatible; feedloom {__version__})",
            "source_url": "",
            "description": DESCRIPTION,
            "usage": {"users": {"active_month": 0}},
            "thumbnail": {"url": f"{base_url(request)}/icon.svg"},
            "icon": [],
            "languages": ["en"],
            "configuration": configuration,
            "registrations": {"enabled": False, "approval_required": False, "message": None},
            "api_versions": {"mastodon": 2},
            "contact": {"email": "", "account": None},
            "rules": [],
        }
    )


@router.get("/v1/instance/peers")
async def peers() -> JSONResponse:
    return JSONResponse([])  # no federation: no peers
