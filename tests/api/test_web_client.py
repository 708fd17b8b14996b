"""GET / serves the web client: its page and files under a strict Content Security
Policy, every module it imports really served, and no markup built from strings."""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from feedloom.api.app import create_app
from feedloom.api.web import WEB_ROOT, content_security_policy
from feedloom.settings import Settings
from tests.lifespan import lifespan_of

IMPORT = re.compile(r"""from\s+"(\./[^"]+)"|import\s+"(\./[^"]+)\"""")


@pytest.fixture
async def web(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    application = create_app(settings, inline_worker=False)
    async with lifespan_of(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield client


def assert_strict_headers(response: httpx.Response) -> None:
    policy = response.headers["content-security-policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["referrer-policy"] == "no-referrer"


async def test_the_root_serves_the_web_client_page_with_a_strict_csp(
    web: httpx.AsyncClient,
) -> None:
    response = await web.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/web/js/main.js">' in response.text
    assert_strict_headers(response)
    assert (await web.head("/")).status_code == 200


async def test_a_post_link_serves_the_same_page_and_only_for_a_numeric_id(
    web: httpx.AsyncClient,
) -> None:
    response = await web.get("/p/42")
    assert response.status_code == 200
    assert response.text == (await web.get("/")).text
    assert_strict_headers(response)
    assert (await web.head("/p/42")).status_code == 200
    assert (await web.get("/p/forty-two")).status_code == 404
    assert (await web.get("/p/")).status_code == 404


async def test_the_page_has_no_inline_script_or_style_for_the_csp_to_refuse(
    web: httpx.AsyncClient,
) -> None:
    html = (await web.get("/")).text
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == []
    assert "<style" not in html and " style=" not in html
    assert re.search(r"\son[a-z]+=", html) is None  # no inline event handlers


async def test_every_module_the_client_imports_is_served_as_javascript(
    web: httpx.AsyncClient,
) -> None:
    pending, seen = ["js/main.js"], set()
    while pending:
        path = pending.pop()
        if path in seen:
            continue
        seen.add(path)
        response = await web.get(f"/web/{path}")
        assert response.status_code == 200, path
        assert "javascript" in response.headers["content-type"], path
        assert_strict_headers(response)
        folder = str(Path(path).parent)
        for found in IMPORT.findall(response.text):
            pending.append(str(Path(folder) / (found[0] or found[1]).removeprefix("./")))
    on_disk = {f"js/{p.name}" for p in (WEB_ROOT / "js").glob("*.js")}
    assert seen == on_disk  # and no module lies around unused
    for asset in ("app.css", "icon.svg"):
        assert (await web.get(f"/web/{asset}")).status_code == 200


def test_no_client_code_builds_markup_from_strings() -> None:
    for module in (WEB_ROOT / "js").glob("*.js"):
        source = module.read_text()
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert sink not in source, f"{module.name} uses {sink}"


def test_images_from_the_media_cdn_are_allowed_by_the_policy() -> None:
    policy = content_security_policy("https://cdn.example.net/media")
    assert "img-src 'self' blob: https://cdn.example.net;" in policy
    assert "img-src 'self' blob:;" in content_security_policy("/media")


@pytest.mark.parametrize("demo", [True, False], ids=["demo", "no demo"])
async def test_the_page_says_a_demo_runs_only_where_one_does(
    settings: Settings, demo: bool
) -> None:
    @contextlib.asynccontextmanager
    async def demo_running(_feedloom: object) -> AsyncIterator[None]:
        yield

    application = create_app(
        settings, inline_worker=False, companion=demo_running if demo else None
    )
    async with lifespan_of(application):
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            page = await client.get("/")

    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert_strict_headers(page)
    assert ('<meta name="feedloom-demo" content="demo">' in page.text) is demo
    # The login view shows the demo's account only under that tag (checked in Chromium by
    # tests/integration/test_web_client.py, whose servers run --no-demo).
    assert 'meta[name="feedloom-demo"]' in (WEB_ROOT / "js" / "auth.js").read_text()


def contrast(first: str, second: str) -> float:
    """WCAG 2 contrast ratio of two #rrggbb colours."""

    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    low, high = sorted((luminance(first), luminance(second)))
    return (high + 0.05) / (low + 0.05)


def test_danger_buttons_are_readable_in_light_and_dark_mode() -> None:
    css = (WEB_ROOT / "app.css").read_text()
    light, dark = css.split("@media (prefers-color-scheme: dark)", 1)
    dark = dark.split("}", 1)[0]
    assert "color: var(--danger-text)" in css.split("button.danger {", 1)[1].split("}", 1)[0]
    for block in (light, dark):
        colours = dict(re.findall(r"(--danger(?:-text)?):\s*(#[0-9a-fA-F]{6})", block))
        assert contrast(colours["--danger"], colours["--danger-text"]) >= 4.5, colours
