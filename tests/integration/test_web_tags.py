"""Mentions, tags and links in the web client, in a real browser (headless Chromium)
against real server processes on both backends: a post's text drawn from its facets
(code-point offsets, an emoji before them), a tag's page with its follow button, the
followed tag's posts in the home feed ("Because you follow #café"), and "Followed
tags" in the settings, on a 390 px phone and a 1280 px desktop viewport.

Waits are WebDriverWait's (generous, for a loaded machine), never sleeps.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.integration.browser import DESKTOP, PHONE, chromium, console_errors, wait
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


def links(person: Person, card: str) -> list[tuple[str, str]]:
    found = person.driver.find_elements(By.CSS_SELECTOR, f"{card} p.text a")
    return [(a.text, a.get_attribute("href") or "") for a in found]


def tags_journey(server: Server, driver: WebDriver) -> None:
    tag = uuid.uuid4().hex[:6]
    ann = Person(driver, server.url, f"ann_{tag}", "Ann Reader")
    ann.sign_up()
    cy = Writer(server.url, f"cy_{tag}")
    text = f"🎉 Hi @ANN_{tag}, a #Café at https://example.com/menu. Bring @nobody_{tag}"
    posted = cy.call("POST", "/v1/posts", json={"text": text}).json()["post_id"]
    card = f"article[data-post-id='{posted}']"

    # Cy's profile: the mention, the tag and the link are links, cut at code points.
    ann.driver.get(f"{server.url}/#/u/cy_{tag}")
    ann.find(f"{card} p.text")
    assert links(ann, card) == [
        (f"@ANN_{tag}", f"{server.url}/#/u/ann_{tag}"),
        ("#Café", f"{server.url}/#/tag/caf%C3%A9"),
        ("https://example.com/menu", "https://example.com/menu"),
    ]
    assert ann.find(f"{card} p.text").text == text  # nothing lost or doubled around them

    # The tag's page: its name, its one post, and Follow.
    ann.click(f"{card} p.text a.tag")
    ann.wait_text("#tag-name", "#café")
    ann.wait_text(".tag-head .counts", "1 post")
    ann.find(card)
    follow = ann.find("button.follow-tag")
    assert follow.get_attribute("aria-pressed") == "false"
    assert follow.accessible_name == "Follow #café"
    follow.click()
    wait(ann.driver).until(lambda _d: follow.get_attribute("aria-pressed") == "true")
    assert follow.text == "Following"
    wait(ann.driver).until(lambda _d: ann.api("/v1/me/tags").json()["items"])

    # Home: Cy's post is there, though Ann follows no one, and says why.
    ann.home()
    ann.wait_text(f"{card} .recommended", "Because you follow #café")
    assert ann.find(f"{card} .recommended a").get_attribute("href") == (
        f"{server.url}/#/tag/caf%C3%A9"
    )
    ann.driver.set_window_size(*PHONE)
    no_sideways_scroll(ann)
    ann.driver.set_window_size(*DESKTOP)

    # Settings: the followed tag, and Unfollow; home then no longer shows the post.
    ann.click("#nav a[href='#/settings']")
    ann.wait_text("ul.tags", "#café")
    ann.click("ul.tags button")
    wait(ann.driver).until(lambda _d: not ann.driver.find_elements(By.CSS_SELECTOR, "ul.tags li"))
    ann.wait_text("#set-tags + ul.tags + p.end", "You follow no tags")
    assert ann.api("/v1/me/tags").json()["items"] == []
    ann.home()
    ann.find("form.composer")
    wait(ann.driver).until(lambda _d: not ann.driver.find_elements(By.CSS_SELECTOR, card))
    assert console_errors(ann.driver) == [], "the console"


def test_mentions_tags_and_links_in_the_browser_on_the_embedded_default(
    embedded: Server, browser: WebDriver
) -> None:
    try:
        tags_journey(embedded, browser)
    except Exception:
        print(embedded.fleet.tails())
        raise


@pytest.mark.postgres
@pytest.mark.redis
def test_mentions_tags_and_links_in_the_browser_on_postgres_and_redis(
    production: Server, browser: WebDriver
) -> None:
    try:
        tags_journey(production, browser)
    except Exception:
        print(production.fleet.tails())
        raise
