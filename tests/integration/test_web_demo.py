"""The demo as a newcomer first sees it, in a real browser: `feedloom serve` with its
demo (no --no-demo), logged in as demo / demo-password. The feed reads like people
(English, French and Bengali, hashtags and mentions), people have drawn avatars, some
posts carry pictures, "For you" recommends posts the demo's followees liked, and typing
"a" in Find people finds someone.

With WEB_SCREENSHOTS=1 it refreshes the README's screenshots of the feed, a profile,
a post with its picture and Find people (docs/screenshots), at 390 and 1280 px.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.integration.browser import (
    DESKTOP,
    PHONE,
    chromium,
    console_errors,
    screenshot,
    screenshot_dir,
    wait,
)
from tests.integration.processes import fleet, free_port
from tests.integration.test_web_client import CHEAP_HASHES, Person, Server

pytestmark = [pytest.mark.slow]


@pytest.fixture
async def demo(tmp_path: Path) -> AsyncIterator[Server]:
    env = {**CHEAP_HASHES, "FEEDLOOM_ENVIRONMENT": "test", "FEEDLOOM_DATA_DIR": str(tmp_path)}
    with fleet(env, tmp_path) as running:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        api = running.start("api", "serve", "--port", str(port), worker_id=1, url=url)
        await running.wait_ready()  # ready once the demo is seeded
        assert api.url is not None
        yield Server(api.url, running)


@pytest.fixture
def browser() -> Iterator[WebDriver]:
    with chromium() as driver:
        yield driver


def log_in_as_demo(person: Person) -> None:
    person.driver.get(f"{person.base}/")
    person.wait_text(".auth-foot", "demo-password")  # the demo's login page says so
    person.find("form.auth #username").send_keys("demo")
    person.find("#password").send_keys("demo-password")
    person.click("form.auth button[type=submit]")
    person.find("article.post")


def loaded_images(driver: WebDriver, css: str) -> int:
    return int(
        driver.execute_script(
            "return [...document.querySelectorAll(arguments[0])]"
            ".filter((i) => i.complete && i.naturalWidth > 0).length",
            css,
        )
    )


def test_the_demo_reads_like_people_with_avatars_and_pictures(
    demo: Server, browser: WebDriver, tmp_path: Path
) -> None:
    shots = screenshot_dir(tmp_path / "shots")
    person = Person(browser, demo.url, "demo", "Demo Reader")
    try:
        log_in_as_demo(person)
        wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "article.post")) >= 15)
        text = browser.find_element(By.CSS_SELECTOR, "#main").text
        assert re.search("[\u0980-\u09ff]", text), "no Bengali on the first screen"
        assert re.search(r"#\w", text) and "@" in text
        # "For you": the demo's people like each other's posts, so it recommends some.
        person.click(".tabs button[data-order='ranked']")
        person.wait_text("article.post .recommended", "whom you follow")
        wait(browser).until(lambda d: loaded_images(d, "article.post img.avatar") >= 5)
        for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
            screenshot(browser, shots, f"feed-{name}", size)

        browser.get(f"{demo.url}/#/people")
        person.find("#people-q").send_keys("a")
        wait(browser).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#main .person")) >= 5)
        wait(browser).until(lambda d: loaded_images(d, "#main .person img.avatar") >= 3)
        for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
            screenshot(browser, shots, f"people-{name}", size)

        # A post with a picture, on its own page; then its author's profile.
        browser.get(f"{demo.url}/#/")
        card = person.find("article.post .gallery a.media")
        post = card.find_element(By.XPATH, "./ancestor::article")
        post_id, author = (
            post.get_attribute("data-post-id"),
            post.find_element(By.CSS_SELECTOR, "a.name"),
        )
        profile = str(author.get_attribute("href"))
        browser.get(f"{demo.url}/#/post/{post_id}")
        wait(browser).until(lambda d: loaded_images(d, ".thread .gallery img") >= 1)
        for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
            screenshot(browser, shots, f"picture-{name}", size)
        browser.get(profile)
        person.find("#profile-name")
        wait(browser).until(lambda d: loaded_images(d, ".profile-head img.avatar") >= 1)
        for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
            screenshot(browser, shots, f"profile-{name}", size)
        assert console_errors(browser) == []
    except Exception:
        print(demo.fleet.tails())
        raise
