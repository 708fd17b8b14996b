"""Search and edits in a real browser (headless Chromium) against `feedloom serve`, on
a desktop and a phone screen: Bo fixes a typo in his post and the card says "edited",
which opens every version; Ann finds Bo as she types on the People tab and his post by
a word of its new text on the Posts tab.

Waits are WebDriverWait's (generous, for a loaded machine), never sleeps.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from tests.integration.browser import DESKTOP, PHONE, chromium, console_errors, wait
from tests.integration.test_web_client import Person, Server, start

pytestmark = [pytest.mark.slow]


@pytest.fixture
async def embedded(tmp_path: Path) -> AsyncIterator[Server]:
    """`feedloom serve` on its defaults (an edit counts against the posts limit, which
    the main journey shrinks to one a minute)."""
    env = {"FEEDLOOM_DATA_DIR": str(tmp_path / "data")}
    async for server in start(env, tmp_path, separate_worker=False, limits={}):
        yield server


@pytest.fixture(params=[DESKTOP, PHONE], ids=["desktop", "phone"])
def browsers(request: pytest.FixtureRequest) -> Iterator[tuple[WebDriver, WebDriver]]:
    with chromium(request.param) as first, chromium(request.param) as second:
        yield first, second


def test_a_post_is_edited_with_its_history_and_found_by_search(
    embedded: Server, browsers: tuple[WebDriver, WebDriver]
) -> None:
    tag = uuid.uuid4().hex[:6]
    ann = Person(browsers[0], embedded.url, f"ann_{tag}", "Ann Reader")
    bo = Person(browsers[1], embedded.url, f"bo_{tag}", "Bo Wonder")
    ann.sign_up()
    bo.sign_up()

    # Bo posts with a typo, then fixes it in place.
    bo.find("#compose-text").send_keys("Mango fair in Rajshahi, come helo #আম")
    bo.click("form.composer button[type=submit]")
    bo.wait_text("article.post .text", "come helo")
    post_id = bo.find("article.post").get_attribute("data-post-id")
    card = f"article[data-post-id='{post_id}']"
    assert not bo.driver.find_elements(By.CSS_SELECTOR, f"{card} .edited")
    bo.click(f"{card} button.edit")
    field = bo.find(f"{card} .edit-form textarea")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("Mango fair in Rajshahi, come and say hello #আম")
    bo.click(f"{card} .edit-form button[type=submit]")
    bo.wait_text(f"{card} .text", "come and say hello")
    bo.click(f"{card} button.edited")
    bo.wait_text("dialog.history .version[data-version='1'] .text", "come helo")
    bo.wait_text("dialog.history .version[data-version='2'] .text", "say hello")
    bo.click_text("dialog.history button", "Close")
    wait(bo.driver).until(lambda d: not d.find_elements(By.CSS_SELECTOR, "dialog.history"))

    # Ann finds Bo by a word inside his name as she types, then his post by its words.
    ann.click("#nav a[href='#/people']")
    ann.find("#people-q").send_keys("wond")
    ann.wait_text(".person .handle", f"@{bo.username}")
    ann.click("#tab-posts")
    ann.find("#people-q").clear()
    ann.find("#people-q").send_keys("rajshahi hello")
    ann.wait_text(f"{card} .text", "come and say hello")
    ann.find(f"{card} button.edited")
    ann.find("#people-q").send_keys(" helo")  # the old word: found no more
    ann.wait_text("p.hint[aria-live]", "Nothing matches")
    ann.click("#tab-tags")
    ann.find("#people-q").clear()
    ann.find("#people-q").send_keys("#আ")
    ann.wait_text(".tag-row[data-tag='আম']", "1 post")
    width = ann.driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= ann.driver.execute_script("return window.innerWidth")  # no sideways scroll

    for person in (ann, bo):
        assert console_errors(person.driver) == [], f"{person.username}'s console"
