"""Lists, saved feeds and muted words in the web client (headless Chromium), on the
embedded default and on PostgreSQL + Redis with a separate worker: a list made and
filled from a profile, an exclusive list leaving the home feed, the feeds switcher, the
"new feed" form, muted words from settings; phone and desktop widths.

Waits are WebDriverWait's (generous, for a loaded machine), never sleeps.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from tests.integration.browser import (
    DESKTOP,
    PHONE,
    chromium,
    console_errors,
    screenshot,
    screenshot_dir,
    wait,
)
from tests.integration.test_web_client import Person, Server, start
from tests.integration.test_web_conversations import Writer, no_sideways_scroll
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
def browser() -> Iterator[WebDriver]:
    with chromium() as driver:
        yield driver


def shown(person: Person, post_id: str) -> bool:
    return bool(person.driver.find_elements(By.CSS_SELECTOR, f"article[data-post-id='{post_id}']"))


def feeds_journey(server: Server, driver: WebDriver, shots: Path | None) -> None:
    tag = uuid.uuid4().hex[:6]
    ann = Person(driver, server.url, f"ann_{tag}", "Ann Reader")
    bo, cy = Writer(server.url, f"bo_{tag}"), Writer(server.url, f"cy_{tag}")
    ann.sign_up()
    auth = {"Authorization": f"Bearer {ann.token()}"}
    for name in (f"bo_{tag}", f"cy_{tag}"):
        user = ann.api(f"/v1/users/lookup?username={name}").json()
        followed = httpx.put(f"{server.url}/v1/users/{user['id']}/follow", headers=auth, timeout=10)
        assert followed.status_code == 200
    bo_post = bo.call("POST", "/v1/posts", json={"text": "Bo at the harbour"}).json()["post_id"]
    cy_post = cy.call("POST", "/v1/posts", json={"text": "No spoilers please"}).json()["post_id"]
    wait(driver).until(lambda _d: len(ann.api("/v1/feed").json()["items"]) == 2)

    # Ann makes an exclusive list and adds Bo from his profile.
    ann.driver.get(f"{server.url}/#/lists")
    ann.find("#list-title").send_keys("Close friends")
    ann.click("#list-exclusive")
    ann.click("form button[type=submit].primary")
    ann.wait_text("main h1", "Close friends")
    ann.driver.get(f"{server.url}/#/u/bo_{tag}")
    Select(ann.find("select.add-to-list")).select_by_visible_text("Close friends")
    ann.wait_text("#status", "Added to the list.")

    # The switcher leads to the list's feed: Bo's post; the home feed no longer has it.
    ann.click("#nav a[href='#/']")
    ann.click_text(".feed-switcher a", "Close friends")
    ann.find(f"article[data-post-id='{bo_post}']")
    ann.click_text(".feed-switcher a", "Home")
    ann.find(f"article[data-post-id='{cy_post}']")
    assert not shown(ann, bo_post)

    # Muted words from settings hide Cy's post in the home feed.
    ann.click("#nav a[href='#/settings']")
    ann.find("#muted-words").send_keys("spoilers")
    ann.click_text("form button.primary", "Save muted words")
    ann.wait_text("#status", "Muted words saved.")
    ann.click("#nav a[href='#/']")
    ann.find(".feed-switcher")
    wait(driver).until(
        lambda _d: ann.driver.find_elements(By.CSS_SELECTOR, ".paged .end, .paged article")
    )
    assert not shown(ann, cy_post)

    # A saved feed over the list, with a filter, from the form; it joins the switcher.
    ann.click_text(".feed-switcher a", "+ New feed")
    ann.find("#feed-name").send_keys("Harbour")
    ann.click("input[name=source][value=home]")
    ann.click("input[name=source][value^='list:']")
    ann.click("input[name=no_reposts]")
    ann.click("form.new-feed button[type=submit]")
    ann.wait_text("main h1", "Harbour")
    ann.find(f"article[data-post-id='{bo_post}']")
    ann.wait_text(".feed-switcher", "Harbour")

    for size in (PHONE, DESKTOP):
        ann.driver.set_window_size(*size)
        ann.driver.execute_script("window.scrollTo(0, 0)")  # the switcher under the header
        ann.click_text(".feed-switcher a", "Close friends")
        ann.find(f"article[data-post-id='{bo_post}']")
        if size == PHONE:
            no_sideways_scroll(ann)
        if shots is not None:
            screenshot(ann.driver, shots, f"list-feed-{size[0]}", size)
    assert console_errors(ann.driver) == [], "Ann's console"

    # A bad definition (no source) says why, in the form (the 422 is logged: last).
    ann.driver.execute_script("window.scrollTo(0, 0)")
    ann.click_text(".feed-switcher a", "+ New feed")
    ann.find("#feed-name").send_keys("Nothing")
    ann.click("input[name=source][value=home]")
    ann.click("form.new-feed button[type=submit]")
    ann.find(".new-feed .form-error")
    assert [e for e in console_errors(ann.driver) if "422" not in e["message"]] == []


def test_lists_feeds_and_muted_words_in_the_browser_on_the_embedded_default(
    embedded: Server, browser: WebDriver, tmp_path: Path
) -> None:
    try:
        feeds_journey(embedded, browser, screenshot_dir(tmp_path / "shots"))
    except Exception:
        print(embedded.fleet.tails())
        raise


@pytest.mark.postgres
@pytest.mark.redis
def test_lists_feeds_and_muted_words_in_the_browser_on_postgres_and_redis(
    production: Server, browser: WebDriver
) -> None:
    try:
        feeds_journey(production, browser, None)
    except Exception:
        print(production.fleet.tails())
        raise
