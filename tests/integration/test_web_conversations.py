"""Reposts and quotes in the web client, in a real browser (headless Chromium) against
real server processes on both backends: "Reposted by" on a feed item, the repost toggle
(count, pressed state, focus kept), the quote composer, the quoted post embedded and
its "unavailable" placeholder, on a 390 px phone and a 1280 px desktop viewport.

Waits are WebDriverWait's (generous, for a loaded machine), never sleeps.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement

from tests.integration.browser import (
    DESKTOP,
    PHONE,
    chromium,
    console_errors,
    screenshot,
    screenshot_dir,
    wait,
)
from tests.integration.test_web_client import (
    PASSWORD,
    Person,
    Server,
    start,
)
from tests.servers import POSTGRES_URL, REDIS_URL, scratch_redis_prefix, scratch_schema

pytestmark = [pytest.mark.slow]


@pytest.fixture
async def embedded(tmp_path: Path) -> AsyncIterator[Server]:
    env = {"FEEDLOOM_DATA_DIR": str(tmp_path / "data")}
    async for server in start(env, tmp_path, separate_worker=False, limits={}):
        yield server


@pytest.fixture
async def production(tmp_path: Path) -> AsyncIterator[Server]:
    async with scratch_schema() as schema, scratch_redis_prefix() as prefix:
        env = {
            "FEEDLOOM_DATA_DIR": str(tmp_path / "data"),
            "FEEDLOOM_DATABASE_URL": POSTGRES_URL,
            "FEEDLOOM_DATABASE_SCHEMA": schema,
            "FEEDLOOM_REDIS_URL": REDIS_URL,
            "FEEDLOOM_REDIS_PREFIX": prefix,
            "FEEDLOOM_SECRET_KEY": uuid.uuid4().hex + uuid.uuid4().hex,
        }
        async for server in start(env, tmp_path, separate_worker=True, limits={}):
            yield server


@pytest.fixture
def two_browsers() -> Iterator[tuple[WebDriver, WebDriver]]:
    with chromium() as first, chromium() as second:
        yield first, second


class Writer:
    """Someone who only uses the API (a third person, without a browser)."""

    def __init__(self, base: str, username: str) -> None:
        self.base = base
        body = {"username": username, "password": PASSWORD, "display_name": "Cy Writer"}
        created = httpx.post(f"{base}/v1/accounts", json=body, timeout=10)
        assert created.status_code == 201, created.text
        login = {"username": username, "password": PASSWORD}
        session = httpx.post(f"{base}/v1/sessions", json=login, timeout=10)
        self.auth = {"Authorization": f"Bearer {session.json()['token']}"}

    def call(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        return httpx.request(method, f"{self.base}{path}", headers=self.auth, timeout=10, **kwargs)


def focused(person: Person, element: WebElement) -> bool:
    script = "return document.activeElement === arguments[0]"
    return bool(person.driver.execute_script(script, element))


def no_sideways_scroll(person: Person) -> None:
    width = person.driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= PHONE[0], f"the feed overflows a phone: {width}px"


def conversation(server: Server, drivers: tuple[WebDriver, WebDriver], shots: Path) -> None:
    tag = uuid.uuid4().hex[:6]
    ann = Person(drivers[0], server.url, f"ann_{tag}", "Ann Reader")
    bo = Person(drivers[1], server.url, f"bo_{tag}", "Bo Poster")
    cy = Writer(server.url, f"cy_{tag}")
    ann.sign_up()
    bo.sign_up()
    bo_id = bo.api("/v1/me").json()["id"]
    followed = httpx.put(
        f"{server.url}/v1/users/{bo_id}/follow",
        headers={"Authorization": f"Bearer {ann.token()}"},
        timeout=10,
    )
    assert followed.status_code == 200
    shared = cy.call("POST", "/v1/posts", json={"text": "A long read on tides"}).json()["post_id"]

    # Bo reposts Cy's post from her profile; Ann's feed shows it "Reposted by Bo Poster".
    bo.driver.get(f"{server.url}/#/u/cy_{tag}")
    card = f"article[data-post-id='{shared}']"
    bo.click(f"{card} button.repost")
    bo.wait_text(f"{card} button.repost", "1 repost")
    assert bo.find(f"{card} button.repost").get_attribute("aria-pressed") == "true"
    wait(ann.driver).until(lambda _d: ann.api("/v1/feed").json()["items"])
    ann.driver.refresh()
    ann.wait_text(f"{card} .reposted-by", "Reposted by Bo Poster")
    assert "reposted by Bo Poster" in (ann.find(card).get_attribute("aria-label") or "")

    # Ann reposts, changes her mind, and reposts again: the button keeps focus, says
    # its state, and the server's word survives a reload.
    button = ann.find(f"{card} button.repost")
    assert button.accessible_name == "Repost, 1 repost"
    button.click()
    ann.wait_text(f"{card} button.repost", "2 reposts")
    assert button.get_attribute("aria-pressed") == "true" and focused(ann, button)
    wait(ann.driver).until(lambda _d: ann.api(f"/v1/posts/{shared}").json()["reposted_by_me"])
    button.click()
    ann.wait_text(f"{card} button.repost", "1 repost")
    wait(ann.driver).until(lambda _d: not ann.api(f"/v1/posts/{shared}").json()["reposted_by_me"])
    button.click()
    wait(ann.driver).until(lambda _d: ann.api(f"/v1/posts/{shared}").json()["reposts"] == 2)
    ann.driver.refresh()
    ann.wait_text(f"{card} button.repost", "2 reposts")
    assert ann.find(f"{card} button.repost").get_attribute("aria-pressed") == "true"
    assert len(ann.driver.find_elements(By.CSS_SELECTOR, card)) == 1  # one original

    # Ann quotes it: the composer opens under the card with the focus in it, and her
    # quote goes on top of her feed with Cy's post embedded.
    ann.click(f"{card} button.quote")
    field = ann.find(f"{card} .quote-form textarea")
    assert focused(ann, field)
    field.send_keys("Worth your evening")
    ann.click(f"{card} .quote-form button[type=submit]")
    ann.wait_text(f"{card} button.quote", "1 quote")
    assert focused(ann, ann.find(f"{card} button.quote"))
    mine = "article.post:first-of-type"
    ann.wait_text(f"{mine} .text", "Worth your evening")
    ann.wait_text(f"{mine} .quoted", "A long read on tides")
    ann.driver.set_window_size(*PHONE)
    no_sideways_scroll(ann)
    screenshot(ann.driver, shots, "conversation-phone", PHONE)
    screenshot(ann.driver, shots, "conversation-desktop", DESKTOP)

    # Cy deletes her post: the reposts are gone and the quote says it is unavailable.
    assert cy.call("DELETE", f"/v1/posts/{shared}").status_code == 204
    ann.driver.refresh()
    ann.wait_text("article.post .quoted.unavailable", "This post is unavailable.")
    assert not ann.driver.find_elements(By.CSS_SELECTOR, card)
    ann.driver.set_window_size(*PHONE)
    no_sideways_scroll(ann)
    ann.driver.set_window_size(*DESKTOP)
    for person in (ann, bo):
        assert console_errors(person.driver) == [], f"{person.username}'s console"


def test_reposts_and_quotes_in_the_browser_on_the_embedded_default(
    embedded: Server, two_browsers: tuple[WebDriver, WebDriver], tmp_path: Path
) -> None:
    try:
        conversation(embedded, two_browsers, screenshot_dir(tmp_path / "shots"))
    except Exception:
        print(embedded.fleet.tails())
        raise


@pytest.mark.postgres
@pytest.mark.redis
def test_reposts_and_quotes_in_the_browser_on_postgres_and_redis(
    production: Server, two_browsers: tuple[WebDriver, WebDriver], tmp_path: Path
) -> None:
    try:
        conversation(production, two_browsers, tmp_path / "shots")
    except Exception:
        print(production.fleet.tails())
        raise
