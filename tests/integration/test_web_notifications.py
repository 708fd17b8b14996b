"""Notifications in the web client, in a real browser (headless Chromium) against real
server processes on both backends (PostgreSQL + Redis with a separate worker: the live
badge crosses processes): the bell's unread badge, live; the notifications page with its
groups, type filter and "Mark all read"; the per-type switches in settings; on a 390 px
phone and a 1280 px desktop viewport.

Waits are WebDriverWait's (generous, for a loaded machine), never sleeps.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import httpx
import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import Select

from tests.integration.browser import DESKTOP, PHONE, chromium, console_errors, wait
from tests.integration.test_web_client import Person, Server
from tests.integration.test_web_conversations import (  # the same two servers
    Writer,
    embedded,  # noqa: F401
    no_sideways_scroll,
    production,  # noqa: F401
)

pytestmark = [pytest.mark.slow]


@pytest.fixture
def browser() -> Iterator[WebDriver]:
    with chromium() as driver:
        yield driver


def badge(ann: Person, text: str) -> None:
    ann.wait_text("#bell-badge", text)


def cards(ann: Person) -> list[str]:
    # Read in one script: the list re-renders live, so elements found one call may be
    # gone by the next (a stale element reference).
    found = ann.driver.execute_script(
        "return [...document.querySelectorAll('article.notification')]"
        ".map(card => card.dataset.type || '')"
    )
    return [str(kind) for kind in found]


def notifications(server: Server, driver: WebDriver) -> None:
    tag = uuid.uuid4().hex[:6]
    ann = Person(driver, server.url, f"ann_{tag}", "Ann Reader")
    ann.sign_up()
    auth = {"Authorization": f"Bearer {ann.token()}"}
    made = httpx.post(f"{server.url}/v1/posts", json={"text": "hello"}, headers=auth, timeout=10)
    post_id = made.json()["post_id"]
    bo, cy = Writer(server.url, f"bo_{tag}"), Writer(server.url, f"cy_{tag}")

    # The badge counts live, on whatever page Ann is.
    assert bo.call("PUT", f"/v1/posts/{post_id}/like").status_code == 200
    assert cy.call("PUT", f"/v1/posts/{post_id}/like").status_code == 200
    badge(ann, "1")
    assert bo.call("PUT", f"/v1/users/{ann_id(ann)}/follow").status_code == 200
    badge(ann, "2")

    ann.click("#nav-bell")
    ann.wait_text("article.notification[data-type=like] .what", "Cy Writer and 1 other liked")
    ann.wait_text("article.notification[data-type=follow] .what", "Cy Writer followed you")
    link = ann.find("article.notification[data-type=like] a.excerpt")
    assert (link.get_attribute("href") or "").endswith(f"#/post/{post_id}")
    assert len(ann.driver.find_elements(By.CSS_SELECTOR, "article.notification.unread")) == 2

    # On a phone the bell and its badge stay in reach, nothing overflows sideways.
    ann.driver.set_window_size(*PHONE)
    assert ann.find("#nav-bell").is_displayed() and ann.find("#bell-badge").text == "2"
    no_sideways_scroll(ann)
    ann.driver.set_window_size(*DESKTOP)

    Select(ann.find("#notif-type")).select_by_value("follow")
    wait(ann.driver).until(lambda _: cards(ann) == ["follow"])
    Select(ann.find("#notif-type")).select_by_value("")
    wait(ann.driver).until(lambda _: sorted(cards(ann)) == ["follow", "like"])

    ann.click("#mark-all-read")
    wait(ann.driver).until(ec.invisibility_of_element_located((By.ID, "bell-badge")))
    assert not ann.driver.find_elements(By.CSS_SELECTOR, "article.notification.unread")

    # Likes switched off in settings: the page shows the follow alone.
    ann.click("#nav a[href='#/settings']")
    box = ann.find("input[name=notify][value=like]")
    assert box.is_selected()
    box.click()
    ann.click_text("button", "Save notifications")
    ann.wait_text("#status", "Notification settings saved.")
    ann.click("#nav-bell")
    wait(ann.driver).until(lambda _: cards(ann) == ["follow"])
    assert console_errors(ann.driver) == []


def ann_id(ann: Person) -> str:
    me = ann.api("/v1/me")
    assert me.status_code == 200, me.text
    return str(me.json()["id"])


def test_notifications_in_the_browser_on_the_embedded_default(
    embedded: Server,  # noqa: F811
    browser: WebDriver,
) -> None:
    try:
        notifications(embedded, browser)
    except Exception:
        print(embedded.fleet.tails())
        raise


@pytest.mark.postgres
@pytest.mark.redis
def test_notifications_in_the_browser_on_postgres_and_redis(
    production: Server,  # noqa: F811
    browser: WebDriver,
) -> None:
    try:
        notifications(production, browser)
    except Exception:
        print(production.fleet.tails())
        raise
