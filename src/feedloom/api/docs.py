"""GET /docs: Swagger UI from files this app serves, so the docs work offline and no
third-party CDN sees who reads them. The assets come from the `swagger-ui-bundle`
package (the Swagger UI dist files, pinned in requirements.lock)."""

from __future__ import annotations

import base64
import hashlib
import re

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path

ASSETS = "/docs/assets"
INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL)


def install_docs(app: FastAPI) -> None:
    """Call with FastAPI(docs_url=None, redoc_url=None): those defaults load from a CDN."""
    app.mount(ASSETS, StaticFiles(directory=swagger_ui_path), name="swagger-ui-assets")

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return with_own_csp(
            get_swagger_ui_html(
                openapi_url=app.openapi_url or "/openapi.json",
                title=f"{app.title} API",
                swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
                swagger_css_url=f"{ASSETS}/swagger-ui.css",
                swagger_favicon_url=f"{ASSETS}/favicon-32x32.png",
                oauth2_redirect_url=None,
                # The token survives a reload of the page, as the README walkthrough expects.
                swagger_ui_parameters={"persistAuthorization": True},
            )
        )


def with_own_csp(page: HTMLResponse) -> HTMLResponse:
    """A CSP that lets the page's own inline start-up script run (by its hash) and
    nothing else that is inline; Swagger UI styles its widgets inline and draws icons
    as data: images."""
    body = bytes(page.body)
    hashes = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(script).digest()).decode()}'"
        for script in INLINE_SCRIPT.findall(body)
    )
    page.headers["Content-Security-Policy"] = (
        f"default-src 'none'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
        "form-action 'none'"
    )
    return page
