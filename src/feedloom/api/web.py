"""GET /: the web client, GET /p/{id}: the same page opening a post's thread (a link to
share), and /web/* its files (plain ES modules and CSS, no build step).

The client uses only the public /v1 API, like any other app. Its HTML page carries a
strict Content Security Policy: scripts and styles come from this origin only and never
inline, so user-written text can never run even if it reached the DOM as markup (the
client only ever sets textContent). Images may also come from the media CDN, and with
an S3 bucket the page PUTs uploads to it and follows signed GETs there: its origins
join img-src and connect-src.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path
from urllib.parse import urlsplit

from fastapi import FastAPI
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from feedloom.settings import Settings

WEB_ROOT = Path(str(files("feedloom") / "web"))
ASSETS = "/web"


def content_security_policy(media_base_url: str, bucket_origins: Sequence[str] = ()) -> str:
    parts = urlsplit(media_base_url)
    media_origins = [f"{parts.scheme}://{parts.netloc}"] if parts.scheme and parts.netloc else []
    images = " ".join(["'self'", "blob:", *dict.fromkeys([*media_origins, *bucket_origins])])
    uploads = " ".join(["'self'", *bucket_origins])
    return "; ".join(
        [
            "default-src 'none'",
            "script-src 'self'",
            "style-src 'self'",
            f"img-src {images}",
            f"connect-src {uploads}",
            "manifest-src 'self'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


def security_headers(settings: Settings) -> dict[str, str]:
    return {
        "Content-Security-Policy": content_security_policy(
            settings.media_base_url, settings.media.browser_origins()
        ),
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer",
        "Cross-Origin-Opener-Policy": "same-origin",
        "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
        # Revalidated on every load (ETag), so a new release is picked up at once.
        "Cache-Control": "no-cache",
    }


class WebAssets(StaticFiles):
    """StaticFiles with the client's security headers on every file."""

    def __init__(self, headers: dict[str, str]) -> None:
        super().__init__(directory=WEB_ROOT)
        self._headers = headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def with_headers(message: dict[str, object]) -> None:
            if message["type"] == "http.response.start":
                raw = list(message.get("headers", []))  # type: ignore[call-overload]
                raw += [(k.lower().encode(), v.encode()) for k, v in self._headers.items()]
                message["headers"] = raw
            await send(message)

        await super().__call__(scope, receive, with_headers)  # type: ignore[arg-type]


# The login page names the demo's account only where `serve --demo` made it: a production
# page must not invite anyone to try a password.
DEMO_META = '<meta name="feedloom-demo" content="demo">'


def install_web(app: FastAPI, settings: Settings, *, demo: bool = False) -> None:
    headers = security_headers(settings)
    app.mount(ASSETS, WebAssets(headers), name="web-assets")
    page = (WEB_ROOT / "index.html").read_text()
    if demo:
        page = page.replace("</head>", f"  {DEMO_META}\n</head>", 1)

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def web_client() -> HTMLResponse:
        return HTMLResponse(page, headers=headers)

    # The client reads the post's ID from the path; whether it exists and who may see it
    # is the API's answer, as for every other page. Digits only: /p/anything-else is a 404.
    @app.api_route("/p/{post_id:int}", methods=["GET", "HEAD"], include_in_schema=False)
    async def post_page() -> HTMLResponse:
        return await web_client()
