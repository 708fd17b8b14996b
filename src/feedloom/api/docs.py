"""GET /docs: Swagger UI from files this app serves, so the docs work offline and no
third-party CDN sees who reads them. The assets come from the `swagger-ui-bundle`
package (the Swagger UI dist files, pinned in requirements.lock)."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path

ASSETS = "/docs/assets"


def install_docs(app: FastAPI) -> None:
    """Call with FastAPI(docs_url=None, redoc_url=None): those defaults load from a CDN."""
    app.mount(ASSETS, StaticFiles(directory=swagger_ui_path), name="swagger-ui-assets")

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title} API",
            swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS}/favicon-32x32.png",
            oauth2_redirect_url=None,
            # The token survives a reload of the page, as the README walkthrough expects.
            swagger_ui_parameters={"persistAuthorization": True},
        )
